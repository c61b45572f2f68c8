package io.zaris.client;

/**
 * A member a blocking pop over sorted sets took, with the key whose sorted set gave it (BZPOPMIN's and BZPOPMAX's
 * answer).
 *
 * @param key    the first of the waited-on keys that held a sorted set when the member was popped
 * @param member the member with its score, removed from that sorted set
 */
public record PoppedMember(String key, ScoredMember member) {
}
