package io.zaris.store;

import io.zaris.model.SortedSetScores;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * A key holding a sorted set: a {@link HashEntry} whose fields are the members and whose values are their scores
 * (8 bytes each, {@link SortedSetScores#encode}), plus the members ordered by (score, member), the order every
 * range, rank and pop reads. Members with equal scores order by their bytes, unsigned, as Redis's memcmp; −0 and
 * 0 are equal scores, as in Redis. Everything a hash has — change in place member by member, memory charged per
 * member, the TTL on the whole key, eviction and expiry whole — a sorted set has the same way.
 *
 * <p>Concurrency: like its hash, {@code order} is read and written only under the segment's write lock, and only
 * through {@link #put} and {@link #remove}, which keep it in step with the fields.
 *
 * <p>Ranks are counted by walking the order (O(rank)), where Redis's skip list takes O(log N).
 */
final class SortedSetEntry extends HashEntry {

    /**
     * Bytes charged per member on top of its field: a {@link TreeSet} node (header, key, value, left, right, parent,
     * colour: 40) and the {@link Scored} it holds (header, score, member: 24).
     */
    static final int ORDER_OVERHEAD_BYTES = 64;

    /** Guarded by the segment's write lock. */
    private final TreeSet<Scored> order = new TreeSet<>();

    SortedSetEntry(long version, long expiresAtMillis, long nowMillis) {
        super(version, expiresAtMillis, nowMillis);
    }

    /**
     * One member in the order. {@code side} places a bound around every member of a score: −1 before all of them,
     * +1 after all of them, 0 a real member.
     */
    record Scored(double score, ByteKey member, int side) implements Comparable<Scored> {

        static Scored before(double score) {
            return new Scored(score, null, -1);
        }

        static Scored after(double score) {
            return new Scored(score, null, 1);
        }

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
        byte[] previous = get(member);
        if (previous != null) {
            order.remove(new Scored(SortedSetScores.decode(previous), member, 0));
        }
        order.add(new Scored(SortedSetScores.decode(score), member, 0));
        return super.put(member, score) + (previous == null ? ORDER_OVERHEAD_BYTES : 0);
    }

    /** Removes a member; returns the bytes freed, 0 when it was absent. */
    @Override
    long remove(ByteKey member) {
        byte[] previous = get(member);
        if (previous == null) {
            return 0;
        }
        order.remove(new Scored(SortedSetScores.decode(previous), member, 0));
        return super.remove(member) + ORDER_OVERHEAD_BYTES;
    }

    /** The members by ascending (score, member), or descending when {@code reverse}. */
    NavigableSet<Scored> ordered(boolean reverse) {
        return reverse ? order.descendingSet() : order;
    }

    /** The members from the first whose score is not below {@code score} (not above, when {@code reverse}) on. */
    Iterator<Scored> from(double score, boolean reverse) {
        return reverse ? order.headSet(Scored.after(score), false).descendingIterator()
                : order.tailSet(Scored.before(score), false).iterator();
    }

    /** How many members come before {@code member} in the order (after it, when {@code reverse}). */
    long rank(ByteKey member, double score, boolean reverse) {
        Scored scored = new Scored(score, member, 0);
        return reverse ? order.tailSet(scored, false).size() : order.headSet(scored, false).size();
    }

    /** The key, the entry's own overhead, every field and every member's place in the order. */
    @Override
    long sizeBytes(ByteKey key) {
        return super.sizeBytes(key) + (long) size() * ORDER_OVERHEAD_BYTES;
    }
}
