package io.zaris.client;

import java.util.List;

/**
 * The members a pop over several sorted sets took, with the key whose sorted set gave them (ZMPOP's and BZMPOP's
 * answer).
 *
 * @param key     the first of the keys that held a sorted set when the pop was made
 * @param members the members removed from it with their scores, lowest (for a pop of the highest: highest) first;
 *                never empty
 */
public record PoppedMembers(String key, List<ScoredMember> members) {
}
