package io.zaris.client;

import java.util.Arrays;

/**
 * The options of a union or an intersection of sorted sets ({@link ZarisClient#sortedSetUnion(SortedSetCombineOptions,
 * String...)} and kin), as Redis's ZUNION and ZINTER take them: a weight per key that multiplies its scores
 * ({@code WEIGHTS}; none given: every weight is 1) and how the weighted scores of a member are combined
 * ({@code AGGREGATE}; {@link ScoreAggregate#SUM} unless set). A set among the keys counts each member with score 1.
 * Immutable.
 *
 * <p>A NaN weight is refused when building; an operation given weights refuses them unless there is one per key,
 * before anything is sent.
 */
public final class SortedSetCombineOptions {

    /** Every weight 1, scores summed: a plain ZUNION or ZINTER. */
    public static final SortedSetCombineOptions NONE = builder().build();

    /** The weights in the keys' order; empty when none were given. */
    private final double[] weights;
    private final ScoreAggregate aggregate;

    private SortedSetCombineOptions(double[] weights, ScoreAggregate aggregate) {
        this.weights = weights;
        this.aggregate = aggregate;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The weights given, one per key in the keys' order; empty when every weight is 1. */
    public double[] weights() {
        return weights.clone();
    }

    /** How a member's weighted scores are combined. */
    public ScoreAggregate aggregate() {
        return aggregate;
    }

    /**
     * The weight of each of {@code keys} keys: the ones given, or 1 for each when none were.
     *
     * @throws IllegalArgumentException when weights were given for another number of keys
     */
    double[] weightsFor(int keys, String operation) {
        if (weights.length == 0) {
            double[] ones = new double[keys];
            Arrays.fill(ones, 1.0);
            return ones;
        }
        if (weights.length != keys) {
            throw new IllegalArgumentException(operation + " takes one weight per key: " + weights.length
                    + " weights for " + keys + " keys");
        }
        return weights.clone();
    }

    @Override
    public String toString() {
        return "SortedSetCombineOptions[weights=" + Arrays.toString(weights) + ", aggregate=" + aggregate + "]";
    }

    /** Collects the options. Not thread-safe. */
    public static final class Builder {
        private double[] weights = new double[0];
        private ScoreAggregate aggregate = ScoreAggregate.SUM;

        private Builder() {
        }

        /**
         * One weight per key, in the keys' order (WEIGHTS); each multiplies that key's scores. Infinite weights are
         * taken, as Redis takes them.
         *
         * @throws IllegalArgumentException for no weight or a NaN one
         */
        public Builder weights(double... weights) {
            if (weights.length == 0) {
                throw new IllegalArgumentException("weights takes one weight per key, not none");
            }
            for (double weight : weights) {
                if (Double.isNaN(weight)) {
                    throw new IllegalArgumentException("a weight is a number, not NaN");
                }
            }
            this.weights = weights.clone();
            return this;
        }

        /** How a member's weighted scores are combined (AGGREGATE); {@link ScoreAggregate#SUM} unless set. */
        public Builder aggregate(ScoreAggregate aggregate) {
            if (aggregate == null) {
                throw new IllegalArgumentException("aggregate must not be null");
            }
            this.aggregate = aggregate;
            return this;
        }

        public SortedSetCombineOptions build() {
            return new SortedSetCombineOptions(weights, aggregate);
        }
    }
}
