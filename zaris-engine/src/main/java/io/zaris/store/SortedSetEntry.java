package io.zaris.store;

import io.zaris.model.SortedSetScores;
import java.util.Arrays;

/**
 * A key holding a sorted set: a {@link HashEntry} whose fields are the members and whose values are their scores
 * (8 bytes each, {@link SortedSetScores#encode}), plus the members ordered by (score, member) ({@link ScoreOrder}), the
 * order every range, rank and pop reads. Members with equal scores order by their bytes, unsigned, as Redis's memcmp; −0 and
 * 0 are equal scores, as in Redis. Everything a hash has — change in place member by member, memory charged per
 * member, the TTL on the whole key, eviction and expiry whole — a sorted set has the same way.
 *
 * <p>Concurrency: like its hash, {@code order} is read and written only under the segment's write lock, and only
 * through {@link #put} and {@link #remove}, which keep it in step with the fields.
 *
 * <p>Ranks are counted over the order's blocks (O(N / {@value ScoreOrder#BLOCK})), where Redis's skip list takes
 * O(log N).
 */
final class SortedSetEntry extends HashEntry {

    /**
     * Bytes charged per member on top of its field: its slot in the order (a score and a member reference: 12
     * bytes), with its share of the blocks' spare slots (blocks are a quarter to wholly full, about two thirds on
     * average) and headers (24), and the member's {@link ByteKey}, which only the order holds (header, array
     * reference, cached hash: 24).
     */
    static final int ORDER_OVERHEAD_BYTES = 48;

    /** Guarded by the segment's write lock. */
    private final ScoreOrder order = new ScoreOrder();

    SortedSetEntry(long version, long expiresAtMillis, long nowMillis) {
        super(version, expiresAtMillis, nowMillis);
    }

    /**
     * One member with its score, as a walk of the order reads it ({@code side} 0: a real member); comparable in the
     * order's terms, for results built outside it (ZUNION and kin sort theirs). {@code side} places a bound around
     * every member of a score: −1 before all of them, +1 after all of them.
     */
    record Scored(double score, ByteKey member, int side) implements Comparable<Scored> {

        @Override
        public int compareTo(Scored other) {
            if (score != other.score) { // not Double.compare: −0 and 0 are one score, as in Redis
                return score < other.score ? -1 : 1;
            }
            if (side != 0 || other.side != 0) {
                return Integer.compare(side, other.side);
            }
            return Arrays.compareUnsigned(member.bytes(), other.member.bytes());
        }
    }

    @Override
    boolean isSortedSet() {
        return true;
    }

    /** The member's score, or {@code null} when it is not in the set. */
    Double score(ByteKey member) {
        byte[] score = get(member);
        return score == null ? null : SortedSetScores.decode(score);
    }

    /** Sets a member's score (8 bytes); returns the change of the charged bytes. */
    @Override
    long put(ByteKey member, byte[] score) {
        byte[] previous = replace(member, score); // one lookup of the member for both its score and its place
        if (previous != null) {
            order.remove(SortedSetScores.decode(previous), member);
        }
        order.add(SortedSetScores.decode(score), member);
        return chargePut(member, previous, score) + (previous == null ? ORDER_OVERHEAD_BYTES : 0);
    }

    /** Removes a member; returns the bytes freed, 0 when it was absent. */
    @Override
    long remove(ByteKey member) {
        byte[] previous = get(member);
        if (previous == null) {
            return 0;
        }
        order.remove(SortedSetScores.decode(previous), member);
        return super.remove(member) + ORDER_OVERHEAD_BYTES;
    }

    /** The members by ascending (score, member), or descending when {@code reverse}; walked before any change. */
    Iterable<Scored> ordered(boolean reverse) {
        return () -> order.iterator(reverse);
    }

    /** A walk of every member, by ascending (score, member), or descending when {@code reverse}. */
    ScoreOrder.Walk walk(boolean reverse) {
        return order.iterator(reverse);
    }

    /** The members from rank {@code rank} on (counted from the highest when {@code reverse}). */
    ScoreOrder.Walk fromRank(long rank, boolean reverse) {
        return order.fromRank(rank, reverse);
    }

    /** The members from the first whose score is not below {@code score} (not above, when {@code reverse}) on. */
    ScoreOrder.Walk from(double score, boolean reverse) {
        return order.fromScore(score, reverse);
    }

    /** How many members come before {@code member}, which is in the set at {@code score} (after it, when {@code reverse}). */
    long rank(ByteKey member, double score, boolean reverse) {
        return order.rank(score, member, reverse);
    }

    /** The key, the entry's own overhead, every field and every member's place in the order. */
    @Override
    long sizeBytes(ByteKey key) {
        return super.sizeBytes(key) + (long) size() * ORDER_OVERHEAD_BYTES;
    }
}
