package io.zaris.store;

import io.zaris.model.HashNumbers;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What each hash {@link HashOp} does to one segment's hash (set ops go on to {@link SetCommands}, list ops to {@link ListCommands}, sorted-set ops to {@link SortedSetCommands}), with Redis's answers and errors. Reads run under the
 * segment's lock ({@link Segment#readHash}); writes decide and change under one hold of it
 * ({@link Segment#writeHash}), so an HINCRBY or HSETNX is atomic like Redis's. Stateless.
 */
final class HashCommands {

    static final String NOT_INTEGER = "hash value is not an integer";
    static final String NOT_FLOAT = "hash value is not a float";
    static final String BAD_INTEGER = "value is not an integer or out of range";
    static final String BAD_FLOAT = "value is not a valid float";
    static final String OVERFLOW = "increment or decrement would overflow";
    static final String NAN_OR_INFINITY = "increment would produce NaN or Infinity";

    private HashCommands() {
    }

    static HashReply execute(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now) {
        return execute(segment, key, op, args, epoch, now, true);
    }

    /** @param renameChanges whether a RENAME ships one rename change, or the removals and writes it makes */
    static HashReply execute(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now,
                             boolean renameChanges) {
        if (!op.takes(args.size())) {
            return HashReply.error(KvStatus.BAD_REQUEST, "wrong number of arguments for " + op);
        }
        try {
            if (op.onSeveralKeysOrRandom()) {
                return op == HashOp.HRANDFIELD || op == HashOp.ZRANDMEMBER ? RandomPicks.execute(segment, key, op, args, now)
                        : SeveralKeyCommands.execute(segment, key, op, args, epoch, now);
            }
            if (op.onWholeKey()) {
                return KeyCommands.execute(segment, key, op, args, epoch, now, renameChanges);
            }
            if (op.onList()) {
                return ListCommands.execute(segment, key, op, args, epoch, now);
            }
            if (op.onSet()) {
                return SetCommands.execute(segment, key, op, args, epoch, now);
            }
            if (op.onSortedSet()) {
                return SortedSetCommands.execute(segment, key, op, args, epoch, now);
            }
            return op.isWrite() ? write(segment, key, op, args, epoch, now) : read(segment, key, op, args, now);
        } catch (WrongTypeException e) {
            return HashReply.error(KvStatus.WRONG_TYPE, WrongTypeException.MESSAGE);
        }
    }

    private static HashReply read(Segment segment, byte[] key, HashOp op, List<byte[]> args, long now) {
        if (op == HashOp.TYPE) {
            return segment.typeOf(key, now);
        }
        if (op == HashOp.HMGET && args.size() == 1) { // HGET, HEXISTS, HSTRLEN: one field, no closure and no list copy
            return HashReply.read(0, Collections.singletonList(segment.hashField(key, args.get(0), now)));
        }
        return segment.readHash(key, now, hash -> switch (op) {
            case HMGET -> {
                List<byte[]> values = new ArrayList<>(args.size());
                for (byte[] field : args) {
                    values.add(hash == null ? null : hash.get(new ByteKey(field)));
                }
                yield HashReply.read(0, values);
            }
            case HGETALL -> HashReply.read(0, hash == null ? List.of() : hash.flatten());
            case HKEYS, HVALS -> HashReply.read(0, hash == null ? List.of() : everyOther(hash.flatten(), op == HashOp.HVALS));
            case HLEN -> HashReply.counted(hash == null ? 0 : hash.size());
            default -> throw new IllegalArgumentException(op + " is not a read");
        });
    }

    private static List<byte[]> everyOther(List<byte[]> flat, boolean values) {
        List<byte[]> out = new ArrayList<>(flat.size() / 2);
        for (int i = values ? 1 : 0; i < flat.size(); i += 2) {
            out.add(flat.get(i));
        }
        return out;
    }

    private static HashReply write(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now) {
        HashWriteResult<HashReply> result = segment.writeHash(key, epoch, now, (hash, writer) -> switch (op) {
            case HSET -> {
                long added = 0;
                for (int i = 0; i < args.size(); i += 2) {
                    if (writer.put(args.get(i), args.get(i + 1))) {
                        added++;
                    }
                }
                yield HashReply.counted(added);
            }
            case HSETNX -> {
                if (hash != null && hash.get(new ByteKey(args.get(0))) != null) {
                    yield HashReply.counted(0);
                }
                writer.put(args.get(0), args.get(1));
                yield HashReply.counted(1);
            }
            case HDEL -> {
                long removed = 0;
                for (byte[] field : args) {
                    if (writer.remove(field)) {
                        removed++;
                    }
                }
                yield HashReply.counted(removed);
            }
            case HINCRBY -> incrementBy(hash, writer, args);
            case HINCRBYFLOAT -> incrementByFloat(hash, writer, args);
            default -> throw new IllegalArgumentException(op + " is not a write");
        });
        if (result.status() != KvStatus.OK) {
            return HashReply.error(result.status(), "the partition was just taken over by another node");
        }
        HashReply reply = result.result();
        return new HashReply(reply.status(), reply.count(), reply.items(), reply.error(), result.version(),
                result.replicated());
    }

    private static HashReply incrementBy(HashEntry hash, Segment.HashWriter writer, List<byte[]> args) {
        Long delta = DecimalCounter.parse(args.get(1));
        if (delta == null) {
            return HashReply.error(KvStatus.BAD_REQUEST, BAD_INTEGER);
        }
        byte[] current = hash == null ? null : hash.get(new ByteKey(args.get(0)));
        long base = 0;
        if (current != null) {
            Long parsed = DecimalCounter.parse(current);
            if (parsed == null) {
                return HashReply.error(KvStatus.WRONG_TYPE, NOT_INTEGER);
            }
            base = parsed;
        }
        long next;
        try {
            next = Math.addExact(base, delta);
        } catch (ArithmeticException e) {
            return HashReply.error(KvStatus.WRONG_TYPE, OVERFLOW);
        }
        writer.put(args.get(0), Long.toString(next).getBytes(StandardCharsets.US_ASCII));
        return HashReply.counted(next);
    }

    private static HashReply incrementByFloat(HashEntry hash, Segment.HashWriter writer, List<byte[]> args) {
        BigDecimal delta = HashNumbers.parseFloat(args.get(1));
        if (delta == null) {
            return HashReply.error(KvStatus.BAD_REQUEST, BAD_FLOAT);
        }
        byte[] current = hash == null ? null : hash.get(new ByteKey(args.get(0)));
        BigDecimal base = BigDecimal.ZERO;
        if (current != null) {
            BigDecimal parsed = HashNumbers.parseFloat(current);
            if (parsed == null) {
                return HashReply.error(KvStatus.WRONG_TYPE, NOT_FLOAT);
            }
            base = parsed;
        }
        BigDecimal next = HashNumbers.add(base, delta);
        if (next == null) {
            return HashReply.error(KvStatus.WRONG_TYPE, NAN_OR_INFINITY);
        }
        byte[] text = HashNumbers.formatFloat(next).getBytes(StandardCharsets.US_ASCII);
        writer.put(args.get(0), text);
        return HashReply.read(0, Collections.singletonList(text));
    }
}
