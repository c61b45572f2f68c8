package io.zaris.store;

import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.model.SortedSetScores;
import java.util.ArrayList;
import java.util.List;

/**
 * HRANDFIELD and ZRANDMEMBER: fields (members) picked at random on the key's active owner, under the segment's lock,
 * by Redis's count rule ({@link SetCommands#randomMembers}: up to {@code count} distinct ones, or {@code −count} that
 * may repeat). A read changes nothing, so nothing is replicated. Stateless.
 */
final class RandomPicks {

    private RandomPicks() {
    }

    /** Runs HRANDFIELD (count, withvalues) or ZRANDMEMBER (count): answers field, value … or member, score …. */
    static HashReply execute(Segment segment, byte[] key, HashOp op, List<byte[]> args, long now) {
        Long count = DecimalCounter.parse(args.get(0));
        if (count == null || count == Long.MIN_VALUE) {
            return HashReply.error(KvStatus.BAD_REQUEST, SetCommands.BAD_INTEGER);
        }
        if (count < -SetCommands.MAX_REPEATED_DRAWS) { // the answer is built whole: bound it before drawing
            return HashReply.error(KvStatus.BAD_REQUEST, op.name() + " count below -" + SetCommands.MAX_REPEATED_DRAWS
                    + " is refused");
        }
        if (op == HashOp.HRANDFIELD) {
            boolean values = args.get(1).length == 1 && args.get(1)[0] == '1';
            return segment.readHash(key, now, hash -> HashReply.read(0, hash == null ? List.of() : picks(hash, count,
                    values ? (field, value) -> value : null)));
        }
        if (op == HashOp.ZRANDMEMBER) {
            return segment.readSortedSet(key, now, sorted -> HashReply.read(0, sorted == null ? List.of() : picks(sorted, count,
                    (member, score) -> SortedSetScores.formatBytes(SortedSetScores.decode(score)))));
        }
        throw new IllegalArgumentException(op + " is not a random pick");
    }

    /** What follows each picked field in the answer; {@code null}: nothing. */
    @FunctionalInterface
    private interface Companion {
        byte[] of(ByteKey field, byte[] stored);
    }

    /** Under the lock: the picked fields, each followed by its companion when there is one. */
    private static List<byte[]> picks(HashEntry hash, long count, Companion companion) {
        List<byte[]> picked = SetCommands.pick(hash.names(), count);
        if (companion == null) {
            return picked;
        }
        List<byte[]> out = new ArrayList<>(picked.size() * 2);
        for (byte[] field : picked) {
            ByteKey k = new ByteKey(field);
            out.add(field);
            out.add(companion.of(k, hash.get(k)));
        }
        return out;
    }
}
