package io.zaris.resp;

import io.zaris.model.HashOp;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.Request;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * RENAME, RENAMENX, DUMP and RESTORE on the RESP port: each becomes one engine request (a whole-key {@link HashOp})
 * that the segment's active owner runs under one hold of the segment's write lock. This class only checks what
 * Redis checks before it looks at a key (RENAME's keys sharing a slot, RESTORE's options) and shapes the engine's
 * answer as Redis's reply. Pure and stateless.
 */
final class RespKeyCommands {

    static final RespReply NO_SUCH_KEY = RespReply.error("ERR no such key");
    static final RespReply BUSYKEY = RespReply.error("BUSYKEY Target key name already exists.");
    private static final RespReply CROSSSLOT = RespReply.error("CROSSSLOT Keys in request don't hash to the same slot");
    private static final RespReply SYNTAX = RespReply.error("ERR syntax error");
    private static final RespReply NOT_INTEGER = RespReply.error("ERR value is not an integer or out of range");

    private RespKeyCommands() {
    }

    /** {@code a} is the whole command, name first; the caller has checked its arity and sizes. */
    static RespListCommands.Call prepare(String name, List<byte[]> a) {
        byte[] key = a.get(1);
        return switch (name) {
            case "rename", "renamenx" -> rename(key, a.get(2), name.equals("renamenx"));
            case "dump" -> new RespListCommands.Call(null, new Request.Hash(0, key, HashOp.DUMP, List.of()),
                    answer -> answer.items().isEmpty() ? RespReply.NULL : new RespReply.Bulk(answer.items().get(0)));
            case "restore" -> restore(a);
            default -> throw new IllegalArgumentException(name + " is not a whole-key command");
        };
    }

    private static RespListCommands.Call rename(byte[] source, byte[] destination, boolean nx) {
        if (SegmentMapper.slot(source) != SegmentMapper.slot(destination)) {
            return RespListCommands.Call.refuse(CROSSSLOT);
        }
        List<byte[]> args = List.of(destination, ascii(nx ? "1" : "0"));
        return new RespListCommands.Call(null, new Request.Hash(0, source, HashOp.RENAME, args), answer ->
                answer.count() < 0 ? NO_SUCH_KEY : nx ? RespReply.integer(answer.count()) : RespReply.OK);
    }

    /**
     * RESTORE key ttl payload [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency], options parsed as Redis does
     * (IDLETIME and FREQ exclude each other, and only their ranges are checked: Zaris keeps no such hints). The TTL
     * and the payload are checked by the owner, after the key's absence, in Redis's order.
     */
    private static RespListCommands.Call restore(List<byte[]> a) {
        boolean replace = false;
        boolean absolute = false;
        boolean idle = false;
        boolean freq = false;
        for (int i = 4; i < a.size(); i++) {
            String option = RespCommands.text(a.get(i)).toUpperCase(Locale.ROOT);
            boolean hasValue = i + 1 < a.size();
            if (option.equals("REPLACE")) {
                replace = true;
            } else if (option.equals("ABSTTL")) {
                absolute = true;
            } else if (option.equals("IDLETIME") && hasValue && !freq) {
                Long seconds = RespCommands.parseLong(a.get(++i));
                if (seconds == null) {
                    return RespListCommands.Call.refuse(NOT_INTEGER);
                }
                if (seconds < 0) {
                    return RespListCommands.Call.refuse(RespReply.error("ERR Invalid IDLETIME value, must be >= 0"));
                }
                idle = true;
            } else if (option.equals("FREQ") && hasValue && !idle) {
                Long frequency = RespCommands.parseLong(a.get(++i));
                if (frequency == null) {
                    return RespListCommands.Call.refuse(NOT_INTEGER);
                }
                if (frequency < 0 || frequency > 255) {
                    return RespListCommands.Call.refuse(RespReply.error("ERR Invalid FREQ value, must be >= 0 and <= 255"));
                }
                freq = true;
            } else {
                return RespListCommands.Call.refuse(SYNTAX);
            }
        }
        String flags = (replace ? "R" : "") + (absolute ? "A" : "");
        List<byte[]> args = List.of(ascii(flags), a.get(2), a.get(3));
        return new RespListCommands.Call(null, new Request.Hash(0, a.get(1), HashOp.RESTORE, args),
                answer -> answer.count() < 0 ? BUSYKEY : RespReply.OK);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
