package io.zaris.resp;

import io.zaris.model.HashOp;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * SMOVE, HRANDFIELD, ZRANDMEMBER, ZUNION/ZINTER/ZDIFF (and their STORE forms, and ZINTERCARD), LMPOP and ZMPOP on the
 * RESP port, and the pops that BZPOPMIN, BZPOPMAX, BLMPOP and BZMPOP retry: each becomes one engine request that the
 * segment's active owner runs under one hold of the segment's lock, so it is atomic like Redis's. This class checks
 * what Redis checks before it looks at a key, in Redis's order and wording, and shapes the engine's answer as Redis's
 * reply. Where Redis looks at the keys' types before an option (ZUNION's WEIGHTS and AGGREGATE, ZINTERCARD's LIMIT),
 * a bad option sends a probe of the keys' types ({@code ZCOMBINE TYPES}) and answers its refusal only when they pass.
 * Keys of one command share a slot ({@code CROSSSLOT} otherwise, as Redis Cluster answers). Pure and stateless.
 */
final class RespSeveralKeyCommands {

    static final List<String> NAMES = List.of("smove", "hrandfield", "zrandmember", "zunion", "zinter", "zdiff",
            "zunionstore", "zinterstore", "zdiffstore", "zintercard", "lmpop", "zmpop");

    static final List<String> BLOCKING = List.of("bzpopmin", "bzpopmax", "blmpop", "bzmpop");

    private static final RespReply CROSSSLOT = RespReply.error("CROSSSLOT Keys in request don't hash to the same slot");
    private static final RespReply SYNTAX = RespReply.error("ERR syntax error");
    private static final RespReply NOT_INTEGER = RespReply.error("ERR value is not an integer or out of range");
    private static final byte[] ZERO = {'0'};
    private static final byte[] ONE = {'1'};

    private RespSeveralKeyCommands() {
    }

    /** {@code a} is the whole command, name first; its arity is checked. The request's key gives the slot. */
    static RespListCommands.Call prepare(String name, List<byte[]> a, int maxKeyBytes) {
        return switch (name) {
            case "smove" -> smove(a, maxKeyBytes);
            case "hrandfield" -> randomPick(HashOp.HRANDFIELD, "withvalues", a);
            case "zrandmember" -> randomPick(HashOp.ZRANDMEMBER, "withscores", a);
            case "zunion", "zinter", "zdiff", "zunionstore", "zinterstore", "zdiffstore", "zintercard" ->
                    combine(name, a, maxKeyBytes);
            case "lmpop", "zmpop" -> {
                MultiPop pop = multiPop(name.equals("zmpop"), a, 1, maxKeyBytes);
                yield pop.refusal() != null ? RespListCommands.Call.refuse(pop.refusal())
                        : new RespListCommands.Call(null, pop.request(), answer -> {
                            RespReply reply = pop.reply().apply(answer);
                            return reply == null ? RespReply.NULL_ARRAY : reply;
                        });
            }
            default -> throw new IllegalArgumentException(name + " is not a several-key command");
        };
    }

    /**
     * A blocking pop: its keys, timeout, the pop to try (whose reply is {@code null} when there was nothing) and the
     * reply when the timeout passes; or a refusal.
     */
    record Blocking(RespReply refusal, List<byte[]> keys, long timeoutMillis, Request.Hash pop,
                    Function<ResponseCodec.HashAnswer, RespReply> reply) {

        static Blocking refuse(RespReply refusal) {
            return new Blocking(refusal, null, 0, null, null);
        }
    }

    /**
     * BZPOPMIN/BZPOPMAX key… timeout (the timeout is read first), BLMPOP/BZMPOP timeout numkeys key… side [COUNT n]
     * (numkeys, side and COUNT first, then the timeout, as Redis reads them).
     */
    static Blocking prepareBlocking(String name, List<byte[]> a, int maxKeyBytes) {
        boolean bzpop = name.equals("bzpopmin") || name.equals("bzpopmax");
        MultiPop pop = bzpop ? null : multiPop(name.equals("bzmpop"), a, 2, maxKeyBytes);
        if (pop != null && pop.refusal() != null) { // BLMPOP and BZMPOP read their options before the timeout
            return Blocking.refuse(pop.refusal());
        }
        Long timeout = RespListCommands.timeoutMillis(a.get(bzpop ? a.size() - 1 : 1));
        if (timeout == null || timeout < 0) {
            return Blocking.refuse(RespReply.error(timeout == null ? "ERR timeout is not a float or out of range"
                    : "ERR timeout is negative"));
        }
        if (bzpop) {
            List<byte[]> keys = List.copyOf(a.subList(1, a.size() - 1));
            if (!sameSlot(keys)) {
                return Blocking.refuse(CROSSSLOT);
            }
            List<byte[]> args = new ArrayList<>();
            args.add(name.equals("bzpopmax") ? ONE : ZERO);
            args.add(ONE);
            args.addAll(keys.subList(1, keys.size()));
            // [key, member, score], flat in both protocols, as Redis answers
            return new Blocking(null, keys, timeout, new Request.Hash(0, keys.get(0), HashOp.ZMPOP, args), answer -> {
                List<byte[]> items = answer.items();
                return items.isEmpty() ? null : RespReply.array(List.of(new RespReply.Bulk(items.get(0)),
                        new RespReply.Bulk(items.get(1)), new RespReply.Score(items.get(2))));
            });
        }
        return new Blocking(null, pop.keys(), timeout, pop.request(), pop.reply());
    }

    /** SMOVE source destination member: keys of one slot; a member bounded like a key. */
    private static RespListCommands.Call smove(List<byte[]> a, int maxKeyBytes) {
        if (SegmentMapper.slot(a.get(1)) != SegmentMapper.slot(a.get(2))) {
            return RespListCommands.Call.refuse(CROSSSLOT);
        }
        if (a.get(3).length > maxKeyBytes) {
            return RespListCommands.Call.refuse(RespReply.error("ERR set member is larger than " + maxKeyBytes + " bytes"));
        }
        return new RespListCommands.Call(null, new Request.Hash(0, a.get(1), HashOp.SMOVE, List.of(a.get(2), a.get(3))),
                answer -> RespReply.integer(answer.count()));
    }

    /**
     * HRANDFIELD key [count [WITHVALUES]] and ZRANDMEMBER key [count [WITHSCORES]], checked as Redis does: the count,
     * then the option, then (with the option) a count whose pairs would overflow. Without a count: one field or nil.
     */
    private static RespListCommands.Call randomPick(HashOp op, String option, List<byte[]> a) {
        byte[] key = a.get(1);
        if (a.size() == 2) {
            return new RespListCommands.Call(null, new Request.Hash(0, key, op, pickArgs(op, ONE, false)),
                    answer -> answer.items().isEmpty() ? RespReply.NULL : new RespReply.Bulk(answer.items().get(0)));
        }
        Long count = RespSortedSetCommands.redisLong(a.get(2));
        if (count == null) {
            return RespListCommands.Call.refuse(NOT_INTEGER);
        }
        if (count == Long.MIN_VALUE) {
            return RespListCommands.Call.refuse(RespReply.error("ERR value is out of range, value must between "
                    + -Long.MAX_VALUE + " and " + Long.MAX_VALUE));
        }
        boolean with = a.size() == 4;
        if (a.size() > 4 || (with && !text(a.get(3)).equalsIgnoreCase(option))) {
            return RespListCommands.Call.refuse(SYNTAX);
        }
        if (with && (count < -Long.MAX_VALUE / 2 || count > Long.MAX_VALUE / 2)) {
            return RespListCommands.Call.refuse(RespReply.error("ERR value is out of range"));
        }
        return new RespListCommands.Call(null, new Request.Hash(0, key, op, pickArgs(op, a.get(2), with)), answer -> {
            List<byte[]> items = answer.items();
            boolean paired = op == HashOp.ZRANDMEMBER || with; // the engine answers ZRANDMEMBER's scores always
            List<RespReply> out = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i += paired ? 2 : 1) {
                out.add(new RespReply.Bulk(items.get(i)));
                if (with) {
                    out.add(op == HashOp.ZRANDMEMBER ? new RespReply.Score(items.get(i + 1)) : new RespReply.Bulk(items.get(i + 1)));
                }
            }
            return with ? new RespReply.Pairs(out) : RespReply.array(out);
        });
    }

    private static List<byte[]> pickArgs(HashOp op, byte[] count, boolean with) {
        return op == HashOp.HRANDFIELD ? List.of(count, with ? ONE : ZERO) : List.of(count);
    }

    /**
     * ZUNION/ZINTER/ZDIFF numkeys key… [WEIGHTS w…] [AGGREGATE SUM|MIN|MAX] [WITHSCORES], their STORE forms (a
     * destination first, no WITHSCORES) and ZINTERCARD numkeys key… [LIMIT n], read as Redis's one parser reads them:
     * numkeys, then whether that many keys follow, then the keys' types, then the options (ZDIFF and ZINTERCARD take
     * no WEIGHTS or AGGREGATE).
     */
    private static RespListCommands.Call combine(String name, List<byte[]> a, int maxKeyBytes) {
        boolean store = name.endsWith("store");
        boolean card = name.equals("zintercard");
        String kind = name.startsWith("zdiff") ? "DIFF" : name.startsWith("zunion") ? "UNION" : "INTER";
        int numkeysAt = store ? 2 : 1;
        Long numkeys = RespSortedSetCommands.redisLong(a.get(numkeysAt));
        if (numkeys == null) {
            return RespListCommands.Call.refuse(NOT_INTEGER);
        }
        if (numkeys < 1) {
            return RespListCommands.Call.refuse(RespReply.error("ERR at least 1 input key is needed for '" + name
                    + "' command"));
        }
        if (numkeys > a.size() - numkeysAt - 1) {
            return RespListCommands.Call.refuse(SYNTAX);
        }
        int n = numkeys.intValue();
        List<byte[]> keys = a.subList(numkeysAt + 1, numkeysAt + 1 + n);
        List<byte[]> routed = new ArrayList<>(keys);
        if (store) {
            routed.add(a.get(1));
        }
        RespReply refusal = checkKeys(routed, maxKeyBytes);
        if (refusal != null) {
            return RespListCommands.Call.refuse(refusal);
        }
        // The options, as Redis reads them after the types.
        boolean diff = kind.equals("DIFF");
        String[] weights = new String[n];
        java.util.Arrays.fill(weights, "1");
        String aggregate = "SUM";
        boolean withScores = false;
        long limit = 0;
        RespReply optionError = null;
        for (int j = numkeysAt + 1 + n; j < a.size() && optionError == null; j++) {
            String option = text(a.get(j)).toLowerCase(Locale.ROOT);
            int remaining = a.size() - j;
            if (!diff && !card && remaining >= n + 1 && option.equals("weights")) {
                for (int i = 0; i < n; i++) {
                    byte[] weight = a.get(++j);
                    if (io.zaris.model.SortedSetScores.parse(weight) == null) {
                        optionError = RespReply.error("ERR weight value is not a float");
                        break;
                    }
                    weights[i] = text(weight);
                }
            } else if (!diff && !card && remaining >= 2 && option.equals("aggregate")) {
                aggregate = text(a.get(++j)).toUpperCase(Locale.ROOT);
                if (!aggregate.equals("SUM") && !aggregate.equals("MIN") && !aggregate.equals("MAX")) {
                    optionError = SYNTAX;
                }
            } else if (!store && !card && option.equals("withscores")) {
                withScores = true;
            } else if (card && remaining >= 2 && option.equals("limit")) {
                Long value = RespSortedSetCommands.redisLong(a.get(++j));
                if (value == null || value < 0) {
                    optionError = RespReply.error("ERR LIMIT can't be negative");
                }
                limit = value == null ? 0 : value;
            } else {
                optionError = SYNTAX;
            }
        }
        List<byte[]> args = new ArrayList<>(2 + 2 * n);
        args.add(bytes(optionError != null ? "TYPES" : kind));
        args.add(bytes(optionError != null ? "SUM" : aggregate));
        for (int i = 0; i < n; i++) {
            args.add(keys.get(i));
            args.add(bytes(weights[i]));
        }
        if (optionError != null) {
            RespReply refused = optionError;
            return new RespListCommands.Call(null, new Request.Hash(0, keys.get(0), HashOp.ZCOMBINE, args), answer -> refused);
        }
        if (store) {
            return new RespListCommands.Call(null, new Request.Hash(0, a.get(1), HashOp.ZCOMBINESTORE, args),
                    answer -> RespReply.integer(answer.count()));
        }
        boolean scores = withScores;
        long most = limit;
        return new RespListCommands.Call(null, new Request.Hash(0, keys.get(0), HashOp.ZCOMBINE, args), answer -> {
            List<byte[]> items = answer.items();
            if (card) {
                long size = items.size() / 2;
                return RespReply.integer(most == 0 ? size : Math.min(size, most));
            }
            List<RespReply> out = new ArrayList<>(scores ? items.size() : items.size() / 2);
            for (int i = 0; i + 1 < items.size(); i += 2) {
                out.add(new RespReply.Bulk(items.get(i)));
                if (scores) {
                    out.add(new RespReply.Score(items.get(i + 1)));
                }
            }
            return scores ? new RespReply.Pairs(out) : RespReply.array(out);
        });
    }

    /** A parsed LMPOP/ZMPOP (or its blocking form): the keys, the pop and its reply ({@code null}: nothing popped). */
    private record MultiPop(RespReply refusal, List<byte[]> keys, Request.Hash request,
                            Function<ResponseCodec.HashAnswer, RespReply> reply) {
    }

    /**
     * LMPOP/ZMPOP numkeys key… LEFT|RIGHT (MIN|MAX) [COUNT n] from {@code numkeysAt} on, checked as Redis does:
     * numkeys, whether the side follows the keys, the side, then COUNT (once; at least 1). The reply is [key,
     * elements] (ZMPOP: [key, [[member, score]…]], nested in both protocols, as Redis answers).
     */
    private static MultiPop multiPop(boolean sorted, List<byte[]> a, int numkeysAt, int maxKeyBytes) {
        Long numkeys = RespSortedSetCommands.redisLong(a.get(numkeysAt));
        if (numkeys == null || numkeys < 1) {
            return new MultiPop(RespReply.error("ERR numkeys should be greater than 0"), null, null, null);
        }
        if (numkeys > a.size() - numkeysAt - 2) {
            return new MultiPop(SYNTAX, null, null, null);
        }
        int sideAt = numkeysAt + 1 + numkeys.intValue();
        String side = text(a.get(sideAt)).toUpperCase(Locale.ROOT);
        boolean known = sorted ? side.equals("MIN") || side.equals("MAX") : side.equals("LEFT") || side.equals("RIGHT");
        if (!known) {
            return new MultiPop(SYNTAX, null, null, null);
        }
        byte[] count = null;
        for (int j = sideAt + 1; j < a.size(); j++) {
            if (count == null && text(a.get(j)).equalsIgnoreCase("count") && j + 1 < a.size()) {
                Long value = RespSortedSetCommands.redisLong(a.get(++j));
                if (value == null || value < 1) {
                    return new MultiPop(RespReply.error("ERR count should be greater than 0"), null, null, null);
                }
                count = a.get(j);
            } else {
                return new MultiPop(SYNTAX, null, null, null);
            }
        }
        List<byte[]> keys = List.copyOf(a.subList(numkeysAt + 1, sideAt));
        RespReply refusal = checkKeys(keys, maxKeyBytes);
        if (refusal != null) {
            return new MultiPop(refusal, null, null, null);
        }
        List<byte[]> args = new ArrayList<>(keys.size() + 1);
        args.add(sorted ? (side.equals("MAX") ? ONE : ZERO) : bytes(side));
        args.add(count == null ? ONE : count);
        args.addAll(keys.subList(1, keys.size()));
        Request.Hash request = new Request.Hash(0, keys.get(0), sorted ? HashOp.ZMPOP : HashOp.LMPOP, args);
        return new MultiPop(null, keys, request, answer -> {
            List<byte[]> items = answer.items();
            if (items.isEmpty()) {
                return null;
            }
            List<RespReply> popped = new ArrayList<>();
            for (int i = 1; i < items.size(); i += sorted ? 2 : 1) {
                popped.add(sorted ? RespReply.array(List.of(new RespReply.Bulk(items.get(i)), new RespReply.Score(items.get(i + 1))))
                        : new RespReply.Bulk(items.get(i)));
            }
            return RespReply.array(List.of(new RespReply.Bulk(items.get(0)), RespReply.array(popped)));
        });
    }

    /** CROSSSLOT for keys of several slots, then a key past the size bound; {@code null} when they are fine. */
    private static RespReply checkKeys(List<byte[]> keys, int maxKeyBytes) {
        if (!sameSlot(keys)) {
            return CROSSSLOT;
        }
        for (byte[] key : keys) {
            if (key.length > maxKeyBytes) {
                return RespReply.error("ERR key is larger than " + maxKeyBytes + " bytes");
            }
        }
        return null;
    }

    private static boolean sameSlot(List<byte[]> keys) {
        int slot = SegmentMapper.slot(keys.get(0));
        for (byte[] key : keys) {
            if (SegmentMapper.slot(key) != slot) {
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
