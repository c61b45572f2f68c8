package io.zaris.store;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A sorted set's members ordered by (score, member): the order every range, rank and pop reads. Members with equal
 * scores order by their bytes, unsigned, as Redis's memcmp; −0 and 0 are one score, as in Redis. No NaN is ever
 * added (ZADD refuses it).
 *
 * <p><b>Why blocks, not a tree of nodes.</b> A {@code TreeSet} of (score, member) records walked about 17 levels for
 * each add and each remove at 100,000 members, two objects per level (the tree's entry, then the record with its
 * score), most of them cache misses: that was two thirds of a node's event-loop samples under redis-benchmark's
 * ZADD, on the owner and again on the replica. Here the members sit in blocks of at most {@link #BLOCK} slots
 * (scores in a {@code double[]}, members in a parallel array), found through the blocks' first scores, which are
 * kept in one array of their own: a lookup is a binary search of that small array, then of one block's scores,
 * and a member's bytes are read only to order equal scores. An add or remove shifts at most one block's slots.
 *
 * <p><b>Invariants.</b> Blocks hold at least one member each and are ordered, each block's slots in order, every
 * member of a block before every member of the next; {@code firstScores[i]} is block {@code i}'s first score. A
 * full block splits in two on an add (but a member past the last one starts a new block, so a set filled in
 * ascending order keeps its blocks full); a block that falls to a quarter merges with a neighbour when they fit in one,
 * so blocks stay a quarter full or more (but a last lone block) and the first-score array stays small.
 *
 * <p>Ranks cost O(members / {@link #BLOCK}) (block sizes are summed), where Redis's skip list takes O(log N).
 *
 * <p>Concurrency: not thread-safe; its sorted set is read and written only under its segment's write lock. An
 * iterator is invalid once the order changes (callers collect what they walk, then change it).
 */
final class ScoreOrder {

    /** Slots per block: a block's scores (512 bytes) are a few cache lines, and shifting them is a short copy. */
    static final int BLOCK = 64;
    /** A block this small merges with a neighbour when the two fit in one block. */
    private static final int MERGE_BELOW = BLOCK / 4;

    /** One block: {@code size} members in order, scores beside them. */
    private static final class Block {
        final double[] scores = new double[BLOCK];
        final ByteKey[] members = new ByteKey[BLOCK];
        int size;
    }

    private double[] firstScores = new double[4];
    private Block[] blocks = new Block[4];
    private int blockCount;
    private int size;

    int size() {
        return size;
    }

    /** Adds a member at its score; the caller knows it is not in the order (at any score). */
    void add(double score, ByteKey member) {
        if (blockCount == 0) {
            Block block = new Block();
            insertBlock(0, block);
            insertSlot(block, 0, score, member);
            firstScores[0] = score;
            size = 1;
            return;
        }
        int b = Math.max(0, lastBlockBefore(score, member, 0));
        Block block = blocks[b];
        int at = lowerBound(block, score, member, 0);
        if (block.size == BLOCK && at == BLOCK && b == blockCount - 1) {
            // Past the last member (ascending scores, as timestamps are): a new block, so full ones stay full.
            Block last = new Block();
            insertBlock(b + 1, last);
            insertSlot(last, 0, score, member);
            firstScores[b + 1] = score;
            size++;
            return;
        }
        if (block.size == BLOCK) {
            Block right = split(b);
            if (at > block.size) {
                block = right;
                b++;
                at -= blocks[b - 1].size;
            }
        }
        insertSlot(block, at, score, member);
        if (at == 0) {
            firstScores[b] = score;
        }
        size++;
    }

    /** Removes a member added at {@code score}; returns whether it was there. */
    boolean remove(double score, ByteKey member) {
        int b = lastBlockBefore(score, member, 0);
        if (b < 0) {
            // Not before any block's first member: only the first block's first slot can be equal.
            b = 0;
        }
        if (blockCount == 0) {
            return false;
        }
        Block block = blocks[b];
        int at = lowerBound(block, score, member, 0);
        if (at == block.size && b + 1 < blockCount) { // equal to the next block's first member
            b++;
            block = blocks[b];
            at = 0;
        }
        if (at == block.size || compare(score, member, 0, block.scores[at], block.members[at]) != 0) {
            return false;
        }
        System.arraycopy(block.scores, at + 1, block.scores, at, block.size - at - 1);
        System.arraycopy(block.members, at + 1, block.members, at, block.size - at - 1);
        block.members[--block.size] = null;
        size--;
        if (block.size == 0) {
            removeBlock(b);
            return true;
        }
        firstScores[b] = block.scores[0];
        if (block.size < MERGE_BELOW) {
            mergeWithNeighbour(b);
        }
        return true;
    }

    /**
     * How many members come before {@code member} at {@code score} (after it, when {@code reverse}); the member is in
     * the order.
     */
    long rank(double score, ByteKey member, boolean reverse) {
        long before = position(score, member, 0);
        return reverse ? size - before - 1 : before;
    }

    /** Every member, by ascending (score, member), or descending when {@code reverse}. */
    Walk iterator(boolean reverse) {
        return reverse ? new Walk(size - 1L, true) : new Walk(0, false);
    }

    /** The members from rank {@code rank} on (ranks counted from the end when {@code reverse}). */
    Walk fromRank(long rank, boolean reverse) {
        return reverse ? new Walk(size - 1L - rank, true) : new Walk(rank, false);
    }

    /** The members from the first whose score is not below {@code score} (not above, when {@code reverse}) on. */
    Walk fromScore(double score, boolean reverse) {
        // Ascending: the first member not before all of this score's; descending: the last before all greater ones.
        return reverse ? new Walk(position(score, null, 1) - 1, true) : new Walk(position(score, null, -1), false);
    }

    /**
     * How many members come before the point (score, member, side): side −1 before every member of the score, +1
     * after every one, 0 the member itself ({@code member} null unless side is 0).
     */
    private long position(double score, ByteKey member, int side) {
        int b = lastBlockBefore(score, member, side);
        if (b < 0) {
            return 0;
        }
        long before = 0;
        for (int i = 0; i < b; i++) {
            before += blocks[i].size;
        }
        return before + lowerBound(blocks[b], score, member, side);
    }

    /**
     * The last block whose first member is before the point (see {@link #position}), or −1 when none is: the point's
     * place is in that block or at the start of the next.
     */
    private int lastBlockBefore(double score, ByteKey member, int side) {
        int low = 0;
        int high = blockCount - 1;
        int found = -1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            // Equal first scores are rare: only then are the first member's bytes read.
            double first = firstScores[mid];
            int order = first != score ? (first < score ? -1 : 1) : -compare(score, member, side, first, blocks[mid].members[0]);
            if (order < 0) {
                found = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return found;
    }

    /** The first slot of {@code block} not before the point (its size when every slot is before it). */
    private static int lowerBound(Block block, double score, ByteKey member, int side) {
        int low = 0;
        int high = block.size;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (compare(score, member, side, block.scores[mid], block.members[mid]) > 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** The point (score, member, side) against a member in the order: negative when the point comes first. */
    private static int compare(double score, ByteKey member, int side, double otherScore, ByteKey other) {
        if (score != otherScore) { // not Double.compare: −0 and 0 are one score, as in Redis
            return score < otherScore ? -1 : 1;
        }
        if (side != 0) {
            return side;
        }
        return Arrays.compareUnsigned(member.bytes(), other.bytes());
    }

    private static void insertSlot(Block block, int at, double score, ByteKey member) {
        System.arraycopy(block.scores, at, block.scores, at + 1, block.size - at);
        System.arraycopy(block.members, at, block.members, at + 1, block.size - at);
        block.scores[at] = score;
        block.members[at] = member;
        block.size++;
    }

    /** Moves the upper half of full block {@code b} into a new block after it; returns the new block. */
    private Block split(int b) {
        Block full = blocks[b];
        Block right = new Block();
        int keep = BLOCK / 2;
        right.size = full.size - keep;
        System.arraycopy(full.scores, keep, right.scores, 0, right.size);
        System.arraycopy(full.members, keep, right.members, 0, right.size);
        Arrays.fill(full.members, keep, full.size, null);
        full.size = keep;
        insertBlock(b + 1, right);
        firstScores[b + 1] = right.scores[0];
        return right;
    }

    /** Block {@code b} fell below {@link #MERGE_BELOW}: joins it with a neighbour when the two fit in one block. */
    private void mergeWithNeighbour(int b) {
        int left = b > 0 && blocks[b - 1].size + blocks[b].size <= BLOCK ? b - 1
                : b + 1 < blockCount && blocks[b].size + blocks[b + 1].size <= BLOCK ? b : -1;
        if (left < 0) {
            return;
        }
        Block into = blocks[left];
        Block from = blocks[left + 1];
        System.arraycopy(from.scores, 0, into.scores, into.size, from.size);
        System.arraycopy(from.members, 0, into.members, into.size, from.size);
        into.size += from.size;
        removeBlock(left + 1);
    }

    private void insertBlock(int at, Block block) {
        if (blockCount == blocks.length) {
            blocks = Arrays.copyOf(blocks, blockCount * 2);
            firstScores = Arrays.copyOf(firstScores, blockCount * 2);
        }
        System.arraycopy(blocks, at, blocks, at + 1, blockCount - at);
        System.arraycopy(firstScores, at, firstScores, at + 1, blockCount - at);
        blocks[at] = block;
        blockCount++;
    }

    private void removeBlock(int at) {
        System.arraycopy(blocks, at + 1, blocks, at, blockCount - at - 1);
        System.arraycopy(firstScores, at + 1, firstScores, at, blockCount - at - 1);
        blocks[--blockCount] = null;
    }

    /**
     * Walks the order from a rank, one member a step, up or down; a rank outside the order walks nothing. Besides the
     * iterator's {@link #next} (a {@link SortedSetEntry.Scored} per member), the member under the walk can be read in
     * place ({@link #score}, {@link #member}) and stepped over ({@link #skip}): a range that only copies what it reads
     * (ZRANGE's answer) makes no record per member.
     */
    final class Walk implements Iterator<SortedSetEntry.Scored> {

        private final boolean reverse;
        private int block;
        private int slot;

        Walk(long rank, boolean reverse) {
            this.reverse = reverse;
            if (rank < 0 || rank >= size) {
                block = reverse ? -1 : blockCount;
                return;
            }
            long left = rank;
            int b = 0;
            while (left >= blocks[b].size) {
                left -= blocks[b].size;
                b++;
            }
            block = b;
            slot = (int) left;
        }

        @Override
        public boolean hasNext() {
            return block >= 0 && block < blockCount;
        }

        /** The score of the member under the walk; only while {@link #hasNext}. */
        double score() {
            return blocks[block].scores[slot];
        }

        /** The member under the walk; only while {@link #hasNext}. */
        ByteKey member() {
            return blocks[block].members[slot];
        }

        /** Steps to the next member of the walk's direction; only while {@link #hasNext}. */
        void skip() {
            if (reverse) {
                if (--slot < 0 && --block >= 0) {
                    slot = blocks[block].size - 1;
                }
            } else if (++slot == blocks[block].size) {
                block++;
                slot = 0;
            }
        }

        @Override
        public SortedSetEntry.Scored next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            SortedSetEntry.Scored scored = new SortedSetEntry.Scored(score(), member(), 0);
            skip();
            return scored;
        }
    }
}
