package io.zaris.store;

import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What each set {@link HashOp} (SADD and after) does to one segment's set, with Redis's answers and errors. Reads run
 * under the segment's lock ({@link Segment#readSet}); writes decide and change under one hold of it
 * ({@link Segment#writeSet}), so an SPOP is atomic like Redis's. The members SPOP picks at random are replicated as
 * the removals they are, so every copy removes the same ones. Stateless.
 */
final class SetCommands {

    static final String BAD_INTEGER = "value is not an integer or out of range";
    static final String NOT_POSITIVE = "value is out of range, must be positive";
    /** The most members SRANDMEMBER draws with repeats (a negative count), so one reply stays bounded. */
    static final long MAX_REPEATED_DRAWS = 1_000_000;

    private SetCommands() {
    }

    /** Runs a set op; the caller has checked the argument count. */
    static HashReply execute(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now) {
        return op.isWrite() ? write(segment, key, op, args, epoch, now) : read(segment, key, op, args, now);
    }

    private static HashReply read(Segment segment, byte[] key, HashOp op, List<byte[]> args, long now) {
        if (op == HashOp.SRANDMEMBER) {
            Long count = DecimalCounter.parse(args.get(0));
            if (count == null || count == Long.MIN_VALUE) {
                return HashReply.error(KvStatus.BAD_REQUEST, BAD_INTEGER);
            }
            if (count < -MAX_REPEATED_DRAWS) { // the answer is built whole: bound it before drawing
                return HashReply.error(KvStatus.BAD_REQUEST, "SRANDMEMBER count below -" + MAX_REPEATED_DRAWS + " is refused");
            }
            return segment.readSet(key, now, set -> HashReply.read(0, set == null ? List.of() : randomMembers(set, count)));
        }
        return segment.readSet(key, now, set -> switch (op) {
            case SMEMBERS -> HashReply.read(0, set == null ? List.of() : members(set));
            case SMISMEMBER -> {
                List<byte[]> present = new ArrayList<>(args.size());
                for (byte[] member : args) {
                    present.add(set != null && set.contains(new ByteKey(member)) ? member : null);
                }
                yield HashReply.read(0, present);
            }
            case SCARD -> HashReply.counted(set == null ? 0 : set.size());
            default -> throw new IllegalArgumentException(op + " is not a set read");
        });
    }

    private static HashReply write(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now) {
        Long popCount = null;
        if (op == HashOp.SPOP && !args.isEmpty()) {
            popCount = DecimalCounter.parse(args.get(0));
            if (popCount == null) {
                return HashReply.error(KvStatus.BAD_REQUEST, BAD_INTEGER);
            }
            if (popCount < 0) {
                return HashReply.error(KvStatus.BAD_REQUEST, NOT_POSITIVE);
            }
        }
        if (op == HashOp.SSTORE) {
            HashWriteResult<Long> stored = segment.replaceWithSet(key, args, epoch, now);
            if (stored.status() != KvStatus.OK) {
                return HashReply.error(stored.status(), "the partition was just taken over by another node");
            }
            return new HashReply(KvStatus.OK, stored.result(), List.of(), null, stored.version(), stored.replicated());
        }
        long count = popCount == null ? 1 : popCount;
        HashWriteResult<HashReply> result = segment.writeSet(key, epoch, now, (set, writer) -> switch (op) {
            case SADD -> {
                long added = 0;
                for (byte[] member : args) {
                    if (writer.add(member)) {
                        added++;
                    }
                }
                yield HashReply.counted(added);
            }
            case SREM -> {
                long removed = 0;
                for (byte[] member : args) {
                    if (writer.remove(member)) {
                        removed++;
                    }
                }
                yield HashReply.counted(removed);
            }
            case SPOP -> {
                List<byte[]> popped = set == null ? List.of() : randomMembers(set, Math.min(count, set.size()));
                for (byte[] member : popped) {
                    writer.remove(member);
                }
                yield HashReply.read(0, popped);
            }
            default -> throw new IllegalArgumentException(op + " is not a set write");
        });
        if (result.status() != KvStatus.OK) {
            return HashReply.error(result.status(), "the partition was just taken over by another node");
        }
        HashReply reply = result.result();
        return new HashReply(reply.status(), reply.count(), reply.items(), reply.error(), result.version(),
                result.replicated());
    }

    private static List<byte[]> members(SetEntry set) {
        return set.names();
    }

    /**
     * Redis's SRANDMEMBER count rule: for {@code count ≥ 0} up to {@code count} distinct members, for a negative
     * count {@code -count} members drawn with repeats. The draw is the owner's own; only a write's outcome is
     * replicated.
     */
    static List<byte[]> randomMembers(SetEntry set, long count) {
        return pick(members(set), count);
    }

    /** {@link #randomMembers}'s rule over any elements, which it may reorder: the draw for HRANDFIELD and ZRANDMEMBER too. */
    static List<byte[]> pick(List<byte[]> all, long count) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (count < 0) {
            List<byte[]> out = new ArrayList<>((int) Math.min(-count, 1 << 16));
            for (long i = 0; i < -count; i++) {
                out.add(all.get(random.nextInt(all.size())));
            }
            return out;
        }
        if (count >= all.size()) {
            Collections.shuffle(all, random);
            return all;
        }
        for (int i = 0; i < count; i++) { // a partial Fisher-Yates: the first count places end up a random choice
            Collections.swap(all, i, i + random.nextInt(all.size() - i));
        }
        return new ArrayList<>(all.subList(0, (int) count));
    }
}
