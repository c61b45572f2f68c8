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
 * The list commands on the RESP port: each becomes one engine request ({@code HASH_READ} or {@code HASH_WRITE} with a
 * list {@link HashOp}) that the segment's active owner runs under one hold of the segment's write lock, so each is
 * atomic like Redis's; this class only checks what Redis checks before it looks at a key (LPOS's options, LMOVE's
 * keys sharing a slot) and shapes the engine's answer as Redis's reply. Pure and stateless.
 */
final class RespListCommands {

    static final List<String> NAMES = List.of("lpush", "rpush", "lpushx", "rpushx", "lpop", "rpop", "lrange", "llen",
            "lindex", "lset", "lrem", "ltrim", "lmove", "linsert", "lpos");

    private static final RespReply CROSSSLOT = RespReply.error("CROSSSLOT Keys in request don't hash to the same slot");
    private static final RespReply SYNTAX = RespReply.error("ERR syntax error");

    private RespListCommands() {
    }

    /**
     * Either a refusal to answer at once, or the request to run and how its answer becomes the reply. With
     * {@code singleBulk} the reply is the answer's one item as a bulk string or nil, which the caller reads straight
     * from the engine's response ({@code reply} then says the same of a decoded answer).
     */
    record Call(RespReply refusal, Request.Hash request, Function<ResponseCodec.HashAnswer, RespReply> reply,
                boolean singleBulk) {

        Call(RespReply refusal, Request.Hash request, Function<ResponseCodec.HashAnswer, RespReply> reply) {
            this(refusal, request, reply, false);
        }

        static Call refuse(RespReply refusal) {
            return new Call(refusal, null, null);
        }

        /** A call whose reply is the answer's first item as a bulk string, nil when it has none or it is absent. */
        static Call singleBulk(Request.Hash request) {
            return new Call(null, request, answer -> answer.items().isEmpty() ? RespReply.NULL
                    : RespReply.bulkOrNull(answer.items().get(0)), true);
        }
    }

    /** {@code a} is the whole command, name first; the caller has checked its arity and sizes. */
    static Call prepare(String name, List<byte[]> a) {
        byte[] key = a.get(1);
        List<byte[]> rest = RespCommands.argumentsAfterKey(a);
        return switch (name) {
            case "lpush" -> lengthAfter(key, HashOp.LPUSH, rest);
            case "rpush" -> lengthAfter(key, HashOp.RPUSH, rest);
            case "lpushx" -> lengthAfter(key, HashOp.LPUSHX, rest);
            case "rpushx" -> lengthAfter(key, HashOp.RPUSHX, rest);
            case "lpop", "rpop" -> pop(key, name.equals("lpop") ? HashOp.LPOP : HashOp.RPOP, rest);
            case "lrange" -> new Call(null, request(key, HashOp.LRANGE, rest), answer -> bulks(answer.items()));
            case "llen" -> lengthAfter(key, HashOp.LLEN, rest);
            case "lindex" -> Call.singleBulk(request(key, HashOp.LINDEX, rest));
            case "lset" -> new Call(null, request(key, HashOp.LSET, rest), answer -> RespReply.OK);
            case "lrem" -> lengthAfter(key, HashOp.LREM, rest);
            case "ltrim" -> new Call(null, request(key, HashOp.LTRIM, rest), answer -> RespReply.OK);
            case "lmove" -> SegmentMapper.slot(key) != SegmentMapper.slot(rest.get(0)) ? Call.refuse(CROSSSLOT)
                    : new Call(null, request(key, HashOp.LMOVE, rest), answer -> RespReply.bulkOrNull(answer.items().get(0)));
            case "linsert" -> lengthAfter(key, HashOp.LINSERT, rest);
            case "lpos" -> position(key, rest);
            default -> throw new IllegalArgumentException(name + " is not a list command");
        };
    }

    /** Commands whose reply is the engine's count as an integer. */
    private static Call lengthAfter(byte[] key, HashOp op, List<byte[]> rest) {
        return new Call(null, request(key, op, rest), answer -> RespReply.integer(answer.count()));
    }

    /** Without a count: the element or nil. With one: an array, or the null array when there was no list. */
    private static Call pop(byte[] key, HashOp op, List<byte[]> rest) {
        if (rest.size() > 1) {
            return Call.refuse(RespReply.error("ERR wrong number of arguments for '" + op.name().toLowerCase(Locale.ROOT)
                    + "' command"));
        }
        if (rest.isEmpty()) {
            return Call.singleBulk(request(key, op, rest));
        }
        return new Call(null, request(key, op, rest),
                answer -> answer.count() == 0 ? RespReply.NULL_ARRAY : bulks(answer.items()));
    }

    /**
     * LPOS key element [RANK rank] [COUNT count] [MAXLEN len], its options checked in Redis's order and wording. Without
     * COUNT the reply is the first index or nil; with it, an array (empty when nothing matches or there is no list).
     */
    private static Call position(byte[] key, List<byte[]> rest) {
        long rank = 1;
        long count = -1;
        long maxlen = 0;
        for (int i = 1; i < rest.size(); i++) {
            String option = new String(rest.get(i), StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
            boolean more = i + 1 < rest.size();
            if (option.equals("RANK") && more) {
                Long value = RespCommands.parseLong(rest.get(++i));
                if (value == null) {
                    return Call.refuse(RespReply.error("ERR value is not an integer or out of range"));
                }
                if (value == Long.MIN_VALUE) {
                    return Call.refuse(RespReply.error("ERR value is out of range, value must between "
                            + -Long.MAX_VALUE + " and " + Long.MAX_VALUE));
                }
                if (value == 0) {
                    return Call.refuse(RespReply.error("ERR RANK can't be zero: use 1 to start from the first match, 2 from"
                            + " the second ... or use negative to start from the end of the list"));
                }
                rank = value;
            } else if (option.equals("COUNT") && more) {
                Long value = RespCommands.parseLong(rest.get(++i));
                if (value == null || value < 0) {
                    return Call.refuse(RespReply.error("ERR COUNT can't be negative"));
                }
                count = value;
            } else if (option.equals("MAXLEN") && more) {
                Long value = RespCommands.parseLong(rest.get(++i));
                if (value == null || value < 0) {
                    return Call.refuse(RespReply.error("ERR MAXLEN can't be negative"));
                }
                maxlen = value;
            } else {
                return Call.refuse(SYNTAX);
            }
        }
        boolean withCount = count >= 0;
        List<byte[]> args = List.of(rest.get(0), decimal(rank), decimal(count), decimal(maxlen));
        return new Call(null, request(key, HashOp.LPOS, args), answer -> {
            List<RespReply> indexes = new ArrayList<>(answer.items().size());
            for (byte[] index : answer.items()) {
                indexes.add(RespReply.integer(Long.parseLong(new String(index, StandardCharsets.US_ASCII))));
            }
            if (withCount) {
                return RespReply.array(indexes);
            }
            return indexes.isEmpty() ? RespReply.NULL : indexes.get(0);
        });
    }

    /** LEFT or RIGHT, in any case. */
    static boolean isSide(byte[] word) {
        String text = new String(word, StandardCharsets.US_ASCII);
        return text.equalsIgnoreCase("LEFT") || text.equalsIgnoreCase("RIGHT");
    }

    /**
     * A blocking command's timeout in seconds (a decimal, fractions allowed) as milliseconds; {@code null} when it is
     * not a finite number, negative when it is negative. 0 waits for ever.
     */
    static Long timeoutMillis(byte[] seconds) {
        String text = new String(seconds, StandardCharsets.US_ASCII);
        if (text.isEmpty() || !text.chars().allMatch(c -> (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+'
                || c == 'e' || c == 'E')) {
            return null;
        }
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return null;
        }
        if (!Double.isFinite(value) || Math.abs(value) > Long.MAX_VALUE / 1000.0) {
            return null;
        }
        return value < 0 ? -1 : (long) Math.ceil(value * 1000);
    }

    private static Request.Hash request(byte[] key, HashOp op, List<byte[]> args) {
        return new Request.Hash(0, key, op, args);
    }

    private static byte[] decimal(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    private static RespReply bulks(List<byte[]> items) {
        List<RespReply> replies = new ArrayList<>(items.size());
        for (byte[] item : items) {
            replies.add(RespReply.bulkOrNull(item));
        }
        return RespReply.array(replies);
    }
}
