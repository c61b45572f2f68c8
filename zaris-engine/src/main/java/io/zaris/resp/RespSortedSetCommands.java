package io.zaris.resp;

import io.netty.buffer.ByteBuf;
import io.zaris.model.HashOp;
import io.zaris.model.ZaddFlags;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.ResponseCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The sorted-set commands of the RESP port, as plans: each command becomes one {@link HashOp} request (which the
 * segment's active owner runs under one hold of its lock, so it is atomic like Redis's) and a way to turn the answer
 * into Redis's reply, or at once into the error Redis answers for its options. Option errors come first, in Redis's
 * order; errors that depend on the arguments' numbers (a score that is not a float, a bad range) come from the store,
 * which checks them before it looks at the key, as Redis does. Pure: {@link RespCommands} sends the request.
 *
 * <p>Scores are printed as Redis 7.0 prints them: bulk strings in RESP2; in RESP3 doubles, and WITHSCORES pairs
 * nested, as Redis answers there ({@link RespReply.Score}, {@link RespReply.Pairs}); ZSCAN's stay flat bulk strings.
 */
final class RespSortedSetCommands {

    private static final RespReply SYNTAX = RespReply.error("ERR syntax error");
    private static final RespReply NOT_INTEGER = RespReply.error("ERR value is not an integer or out of range");
    private static final byte[] ZERO = {'0'};
    private static final byte[] ONE = {'1'};

    private RespSortedSetCommands() {
    }

    /**
     * What a command asks of the engine and how its answer reads, or the error Redis answers without asking. The answer
     * is read either as a decoded {@link ResponseCodec.HashAnswer} ({@code reply}) or, for a range, straight from the
     * engine's response ({@code fromBody}); exactly one of the two is set when {@code immediate} is not.
     */
    record Plan(RespReply immediate, HashOp op, List<byte[]> args, Function<ResponseCodec.HashAnswer, RespReply> reply,
                FromBody fromBody) {

        static Plan answer(RespReply reply) {
            return new Plan(reply, null, null, null, null);
        }

        static Plan ask(HashOp op, List<byte[]> args, Function<ResponseCodec.HashAnswer, RespReply> reply) {
            return new Plan(null, op, List.copyOf(args), reply, null);
        }

        static Plan askRendering(HashOp op, List<byte[]> args, FromBody fromBody) {
            return new Plan(null, op, List.copyOf(args), null, fromBody);
        }
    }

    /** A reply made from the engine's response body itself (a hash answer), without decoding its items into arrays. */
    @FunctionalInterface
    interface FromBody {
        RespReply reply(ByteBuf body) throws MalformedRequestException;
    }

    /** ZRANGE's answers with and without scores: the same for every range, so shared rather than made per command. */
    private static final FromBody PAIRS = body -> RespReply.ItemPairs.of(body, true);
    private static final FromBody MEMBERS = body -> RespReply.ItemPairs.of(body, false);

    /**
     * Plans a command whose arity {@link CommandTable} has checked; {@code a} holds the name, the key and the rest.
     * Members longer than {@code maxMemberBytes} are refused, as keys are.
     */
    static Plan plan(String name, List<byte[]> a, int maxMemberBytes) {
        List<byte[]> rest = a.subList(2, a.size());
        return switch (name) {
            case "zadd" -> zadd(rest, maxMemberBytes);
            case "zincrby" -> ask(HashOp.ZADD, List.of(bytes(ZaddFlags.INCREMENT.letters()), rest.get(0), rest.get(1)),
                    maxMemberBytes, answer -> scoreOrNull(answer.items().get(0)));
            case "zrem" -> ask(HashOp.ZREM, rest, maxMemberBytes, answer -> RespReply.integer(answer.count()));
            case "zscore" -> Plan.ask(HashOp.ZMSCORE, rest, answer -> scoreOrNull(answer.items().get(0)));
            case "zmscore" -> Plan.ask(HashOp.ZMSCORE, rest, answer -> scoresOrNulls(answer.items()));
            case "zcard" -> Plan.ask(HashOp.ZCARD, rest, answer -> RespReply.integer(answer.count()));
            case "zcount" -> Plan.ask(HashOp.ZCOUNT, rest, answer -> RespReply.integer(answer.count()));
            case "zlexcount" -> Plan.ask(HashOp.ZLEXCOUNT, rest, answer -> RespReply.integer(answer.count()));
            case "zrank", "zrevrank" -> zrank(name.equals("zrevrank"), rest);
            case "zrange" -> zrange(rest, null, false);
            case "zrangebyscore" -> zrange(rest, "SCORE", false);
            case "zrevrangebyscore" -> zrange(rest, "SCORE", true);
            case "zrevrange" -> zrange(rest, "RANK", true);
            case "zrangebylex" -> zrange(rest, "LEX", false);
            case "zrevrangebylex" -> zrange(rest, "LEX", true);
            case "zremrangebyscore" -> zremrange("SCORE", rest);
            case "zremrangebyrank" -> zremrange("RANK", rest);
            case "zremrangebylex" -> zremrange("LEX", rest);
            case "zpopmin", "zpopmax" -> zpop(name.equals("zpopmax"), rest);
            case "zscan" -> zscan(rest);
            default -> throw new IllegalArgumentException(name + " is not a sorted-set command");
        };
    }

    /** ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member …]: the options as Redis reads them. */
    private static Plan zadd(List<byte[]> rest, int maxMemberBytes) {
        boolean nx = false;
        boolean xx = false;
        boolean gt = false;
        boolean lt = false;
        boolean ch = false;
        boolean incr = false;
        int first = 0;
        for (; first < rest.size(); first++) {
            byte[] word = rest.get(first);
            if (isWord(word, "nx")) {
                nx = true;
            } else if (isWord(word, "xx")) {
                xx = true;
            } else if (isWord(word, "gt")) {
                gt = true;
            } else if (isWord(word, "lt")) {
                lt = true;
            } else if (isWord(word, "ch")) {
                ch = true;
            } else if (isWord(word, "incr")) {
                incr = true;
            } else {
                return zaddPairs(new ZaddFlags(nx, xx, gt, lt, ch, incr), rest.subList(first, rest.size()), maxMemberBytes);
            }
        }
        return Plan.answer(SYNTAX); // options only, no pair
    }

    private static Plan zaddPairs(ZaddFlags flags, List<byte[]> pairs, int maxMemberBytes) {
        if (pairs.isEmpty() || pairs.size() % 2 != 0) {
            return Plan.answer(SYNTAX);
        }
        String conflict = flags.conflict(pairs.size() / 2);
        if (conflict != null) {
            return Plan.answer(RespReply.error("ERR " + conflict));
        }
        byte[] letters = flags.equals(ZaddFlags.NONE) ? NO_LETTERS : bytes(flags.letters());
        // One pair (redis-benchmark's, most ZADDs) as an immutable list of three, which the plan keeps without a copy.
        List<byte[]> args = pairs.size() == 2 ? List.of(letters, pairs.get(0), pairs.get(1)) : withFirst(letters, pairs);
        return ask(HashOp.ZADD, args, maxMemberBytes, flags.incr()
                ? answer -> scoreOrNull(answer.items().get(0)) : answer -> RespReply.integer(answer.count()));
    }

    /** ZRANK key member [WITHSCORE] (WITHSCORE as Redis 7.2 has it). */
    private static Plan zrank(boolean reverse, List<byte[]> rest) {
        boolean withScore = rest.size() == 2;
        if (rest.size() > 2 || (withScore && !isWord(rest.get(1), "withscore"))) {
            return Plan.answer(SYNTAX);
        }
        return Plan.ask(HashOp.ZRANK, List.of(rest.get(0), reverse ? ONE : ZERO), answer -> {
            if (answer.items().isEmpty()) {
                return RespReply.NULL;
            }
            RespReply rank = RespReply.integer(answer.count());
            return withScore ? RespReply.array(List.of(rank, new RespReply.Score(answer.items().get(0)))) : rank;
        });
    }

    /**
     * ZRANGE and its older forms, read as Redis's one parser reads them: each older form fixes how the range is given
     * ({@code by}: RANK, SCORE or LEX) and its direction, so repeating either as an option is a syntax error; LIMIT goes
     * only with SCORE or LEX, WITHSCORES not with LEX; a reversed score or lex range is given max first.
     */
    private static Plan zrange(List<byte[]> rest, String fixedBy, boolean fixedReverse) {
        String by = fixedBy;
        Boolean reverse = fixedBy == null ? null : fixedReverse;
        boolean withScores = false;
        byte[] offset = ZERO;
        byte[] limit = {'-', '1'};
        boolean limited = false;
        for (int i = 2; i < rest.size(); i++) {
            byte[] option = rest.get(i);
            int left = rest.size() - i - 1;
            if (isWord(option, "withscores")) {
                withScores = true;
            } else if (isWord(option, "limit") && left >= 2) {
                Long skip = redisLong(rest.get(i + 1));
                Long count = redisLong(rest.get(i + 2));
                if (skip == null || count == null) {
                    return Plan.answer(NOT_INTEGER);
                }
                offset = rest.get(i + 1);
                limit = rest.get(i + 2);
                limited = count != -1;
                i += 2;
            } else if (reverse == null && isWord(option, "rev")) {
                reverse = true;
            } else if (by == null && isWord(option, "bylex")) {
                by = "LEX";
            } else if (by == null && isWord(option, "byscore")) {
                by = "SCORE";
            } else {
                return Plan.answer(SYNTAX);
            }
        }
        by = by == null ? "RANK" : by;
        boolean rev = reverse != null && reverse;
        if (limited && by.equals("RANK")) {
            return Plan.answer(RespReply.error(
                    "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX"));
        }
        if (withScores && by.equals("LEX")) {
            return Plan.answer(RespReply.error("ERR syntax error, WITHSCORES not supported in combination with BYLEX"));
        }
        boolean maxFirst = rev && !by.equals("RANK");
        byte[] start = maxFirst ? rest.get(1) : rest.get(0);
        byte[] stop = maxFirst ? rest.get(0) : rest.get(1);
        return Plan.askRendering(HashOp.ZRANGE, List.of(byWord(by), rev ? ONE : ZERO, start, stop, offset, limit),
                withScores ? PAIRS : MEMBERS);
    }

    private static Plan zremrange(String by, List<byte[]> rest) {
        return Plan.ask(HashOp.ZREMRANGE, List.of(bytes(by), rest.get(0), rest.get(1)), answer -> RespReply.integer(answer.count()));
    }

    /** ZPOPMIN/ZPOPMAX key [count]: the count is checked before the key, its type before a count of 0 answers nothing. */
    private static Plan zpop(boolean max, List<byte[]> rest) {
        if (rest.size() > 1) {
            return Plan.answer(SYNTAX);
        }
        byte[] count = ONE;
        if (rest.size() == 1) {
            Long n = redisLong(rest.get(0));
            if (n == null || n < 0) { // Redis answers a count that is not a number as one below 0
                return Plan.answer(RespReply.error("ERR value is out of range, must be positive"));
            }
            count = rest.get(0);
        }
        boolean counted = rest.size() == 1; // without a count: one flat [member, score], as Redis answers in RESP3 too
        return Plan.ask(HashOp.ZPOP, List.of(max ? ONE : ZERO, count), answer -> counted ? pairs(answer.items(), true)
                : RespReply.array(((RespReply.Pairs) pairs(answer.items(), true)).flat()));
    }

    /** ZSCAN answers every member (matching MATCH) with its score in one reply with cursor 0, as HSCAN does. */
    private static Plan zscan(List<byte[]> rest) {
        if (!validCursor(rest.get(0))) {
            return Plan.answer(RespReply.error("ERR invalid cursor"));
        }
        ScanOptions options;
        try {
            options = ScanOptions.parse(rest, 1, ScanOptions.Extra.NONE);
        } catch (ScanOptions.Invalid e) {
            // Redis reads the options only after finding the key a sorted set: missing is an empty scan.
            RespReply refusal = e.notInteger() ? NOT_INTEGER : SYNTAX;
            return Plan.ask(HashOp.ZCARD, List.of(), answer -> answer.count() == 0
                    ? RespReply.array(List.of(RespReply.bulk("0"), RespReply.array(List.of()))) : refusal);
        }
        byte[] all = {'-', '1'};
        return Plan.ask(HashOp.ZRANGE, List.of(bytes("RANK"), ZERO, ZERO, all, ZERO, all), answer -> {
            List<byte[]> items = answer.items();
            List<RespReply> found = new ArrayList<>();
            for (int i = 0; i + 1 < items.size(); i += 2) {
                if (options.matches(items.get(i))) {
                    found.add(new RespReply.Bulk(items.get(i)));
                    found.add(new RespReply.Bulk(items.get(i + 1)));
                }
            }
            return RespReply.array(List.of(RespReply.bulk("0"), RespReply.array(found)));
        });
    }

    private static Plan ask(HashOp op, List<byte[]> args, int maxMemberBytes,
                            Function<ResponseCodec.HashAnswer, RespReply> reply) {
        for (int i = 0; i < args.size(); i++) {
            if (op.isFieldArgument(i) && args.get(i).length > maxMemberBytes) {
                return Plan.answer(RespReply.error("ERR sorted set member is larger than " + maxMemberBytes + " bytes"));
            }
        }
        return Plan.ask(op, args, reply);
    }

    /**
     * Members, and each one's score after it when {@code withScores} (as {@link RespReply.Pairs}, which RESP3 nests),
     * from the engine's member, score pairs.
     */
    private static RespReply pairs(List<byte[]> items, boolean withScores) {
        RespReply[] out = new RespReply[withScores ? items.size() / 2 * 2 : items.size() / 2];
        int at = 0;
        for (int i = 0; i + 1 < items.size(); i += 2) {
            out[at++] = new RespReply.Bulk(items.get(i));
            if (withScores) {
                out[at++] = new RespReply.Score(items.get(i + 1));
            }
        }
        // List.of makes the one immutable copy, which the reply's own List.copyOf then keeps instead of copying again.
        List<RespReply> replies = List.of(out);
        return withScores ? new RespReply.Pairs(replies) : RespReply.array(replies);
    }

    private static RespReply scoreOrNull(byte[] score) {
        return score == null ? RespReply.NULL : new RespReply.Score(score);
    }

    private static RespReply scoresOrNulls(List<byte[]> items) {
        List<RespReply> out = new ArrayList<>(items.size());
        for (byte[] item : items) {
            out.add(scoreOrNull(item));
        }
        return RespReply.array(out);
    }

    /** A signed 64-bit integer as Redis's string2ll reads one (no '+', no leading zero); {@code null} otherwise. */
    static Long redisLong(byte[] text) {
        String s = text(text);
        if (!s.matches("-?(0|[1-9][0-9]{0,18})") || s.equals("-0")) {
            return null;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A cursor: a decimal number from 0 to 2^64 − 1, as Redis takes it. */
    private static boolean validCursor(byte[] text) {
        String s = text(text);
        return !s.isEmpty() && s.length() <= 20 && s.chars().allMatch(Character::isDigit)
                && new java.math.BigInteger(s).bitLength() <= 64;
    }

    /** The engine's range kinds as their argument bytes, shared (nothing changes them once sent). */
    private static final byte[] RANK = {'R', 'A', 'N', 'K'};
    private static final byte[] SCORE = {'S', 'C', 'O', 'R', 'E'};
    private static final byte[] LEX = {'L', 'E', 'X'};
    private static final byte[] NO_LETTERS = {};

    private static byte[] byWord(String by) {
        return switch (by) {
            case "RANK" -> RANK;
            case "SCORE" -> SCORE;
            default -> LEX;
        };
    }

    private static List<byte[]> withFirst(byte[] first, List<byte[]> rest) {
        byte[][] all = new byte[rest.size() + 1][];
        all[0] = first;
        for (int i = 0; i < rest.size(); i++) {
            all[i + 1] = rest.get(i);
        }
        return List.of(all);
    }

    /**
     * Whether an argument is {@code lowercase} in any case, as Redis's {@code strcasecmp} matches option words: ASCII
     * letters only, compared byte by byte without making a string per option.
     */
    static boolean isWord(byte[] argument, String lowercase) {
        if (argument.length != lowercase.length()) {
            return false;
        }
        for (int i = 0; i < argument.length; i++) {
            int b = argument[i];
            if (b >= 'A' && b <= 'Z') {
                b += 'a' - 'A';
            }
            if (b != lowercase.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
