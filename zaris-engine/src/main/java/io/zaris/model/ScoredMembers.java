package io.zaris.model;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * Member, score, member, score … of a sorted-set range, as the list of items a hash answer carries: the members' bytes
 * and their scores kept as doubles, each score formatted as Redis prints it ({@link SortedSetScores#formatBytes}) only
 * when {@link #get} reads it. The codec writes the scores' text straight into the answer instead, so a ZRANGE of ten
 * members makes no array per score and no list of twenty items.
 *
 * <p>Filled by the one thread that reads the range (under its segment's lock), then only read; the member arrays are
 * the set's own and never written to.
 */
public final class ScoredMembers extends AbstractList<byte[]> implements RandomAccess {

    private byte[][] members;
    private double[] scores;
    private int pairs;

    /** Room for {@code expectedPairs} members before it grows. */
    public ScoredMembers(int expectedPairs) {
        int capacity = Math.max(expectedPairs, 1);
        members = new byte[capacity][];
        scores = new double[capacity];
    }

    /** Appends a member with its score. */
    public void add(byte[] member, double score) {
        if (pairs == members.length) {
            members = Arrays.copyOf(members, pairs * 2);
            scores = Arrays.copyOf(scores, pairs * 2);
        }
        members[pairs] = member;
        scores[pairs] = score;
        pairs++;
    }

    /** How many members (half the items). */
    public int pairs() {
        return pairs;
    }

    /** The member of pair {@code pair}: item {@code 2 * pair}. */
    public byte[] member(int pair) {
        Objects.checkIndex(pair, pairs);
        return members[pair];
    }

    /** The score of pair {@code pair}, whose text is item {@code 2 * pair + 1}. */
    public double score(int pair) {
        Objects.checkIndex(pair, pairs);
        return scores[pair];
    }

    /** A member's bytes at an even index, a score's text (a new array) at an odd one. */
    @Override
    public byte[] get(int index) {
        Objects.checkIndex(index, 2 * pairs);
        return index % 2 == 0 ? members[index / 2] : SortedSetScores.formatBytes(scores[index / 2]);
    }

    @Override
    public int size() {
        return 2 * pairs;
    }
}
