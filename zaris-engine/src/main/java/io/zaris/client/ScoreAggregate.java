package io.zaris.client;

/**
 * How a member's weighted scores from several sorted sets become its one score in a union or an intersection: Redis's
 * {@code AGGREGATE SUM|MIN|MAX} (see {@link SortedSetCombineOptions}).
 */
public enum ScoreAggregate {
    /** The sum of the weighted scores (Redis's default; +inf plus −inf counts as 0). */
    SUM,
    /** The lowest weighted score. */
    MIN,
    /** The highest weighted score. */
    MAX
}
