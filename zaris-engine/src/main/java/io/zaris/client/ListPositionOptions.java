package io.zaris.client;

/**
 * How {@link ZarisClient#listPosition} and {@link ZarisClient#listPositions} search a list, as LPOS's options: which
 * match is the first one answered ({@link Builder#rank}: 1 the first from the head, 2 the second …, −1 the first from
 * the tail …) and how many elements are compared at most ({@link Builder#maxLength}, 0 for the whole list). Immutable.
 */
public final class ListPositionOptions {

    /** From the head, the whole list: LPOS without options. */
    public static final ListPositionOptions DEFAULT = builder().build();

    private final long rank;
    private final long maxLength;

    private ListPositionOptions(long rank, long maxLength) {
        this.rank = rank;
        this.maxLength = maxLength;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** LPOS's RANK: the match to start from, counted from the head when positive, from the tail when negative. */
    public long rank() {
        return rank;
    }

    /** LPOS's MAXLEN: elements compared at most, 0 for every one. */
    public long maxLength() {
        return maxLength;
    }

    /** Collects the options. Not thread-safe. */
    public static final class Builder {
        private long rank = 1;
        private long maxLength;

        private Builder() {
        }

        /**
         * Skips the first {@code |rank| − 1} matches, searching from the tail when {@code rank} is negative.
         *
         * @throws IllegalArgumentException for 0 or {@link Long#MIN_VALUE}, which Redis refuses too
         */
        public Builder rank(long rank) {
            if (rank == 0 || rank == Long.MIN_VALUE) {
                throw new IllegalArgumentException("a list position's rank is a non-zero number whose absolute value is a"
                        + " long (1: the first match from the head, -1: the first from the tail), not " + rank);
            }
            this.rank = rank;
            return this;
        }

        /** Compares at most {@code maxLength} elements (0: all). @throws IllegalArgumentException when negative */
        public Builder maxLength(long maxLength) {
            if (maxLength < 0) {
                throw new IllegalArgumentException("a list position's maxLength is 0 (the whole list) or more, not "
                        + maxLength);
            }
            this.maxLength = maxLength;
            return this;
        }

        public ListPositionOptions build() {
            return new ListPositionOptions(rank, maxLength);
        }
    }
}
