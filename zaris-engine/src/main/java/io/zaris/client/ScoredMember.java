package io.zaris.client;

/**
 * A member of a sorted set with its score, as {@link ZarisClient#sortedSetRange} and
 * {@link ZarisClient#sortedSetRangeByScore} answer them: in ascending (score, member) order.
 *
 * @param member the member
 * @param score  its score (never NaN; may be infinite)
 */
public record ScoredMember(String member, double score) {
}
