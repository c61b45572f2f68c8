package io.zaris.store;

import java.util.List;

/**
 * Picks the key to evict from a sample: a pure function of the policy, the sample and the time.
 *
 * <table>
 *   <caption>Choice per policy</caption>
 *   <tr><th>policy</th><th>eligible</th><th>victim</th></tr>
 *   <tr><td>allkeys-lru</td><td>every candidate</td><td>an expired one, else the least recently accessed</td></tr>
 *   <tr><td>volatile-lru</td><td>candidates with a TTL</td><td>an expired one, else the least recently accessed</td></tr>
 *   <tr><td>volatile-ttl</td><td>candidates with a TTL</td><td>the nearest expiry (expired ones first by construction)</td></tr>
 *   <tr><td>noeviction</td><td>none</td><td>none</td></tr>
 * </table>
 *
 * Ties go to the earlier candidate, so a seeded sample always yields the same victim.
 */
final class VictimSelector {

    private VictimSelector() {
    }

    /** The index of the victim in {@code candidates}, or -1 when none is eligible. */
    static int choose(EvictionPolicy policy, List<EvictionCandidate> candidates, long nowMillis) {
        if (!policy.evicts()) {
            return -1;
        }
        int best = -1;
        for (int i = 0; i < candidates.size(); i++) {
            EvictionCandidate candidate = candidates.get(i);
            if (policy.onlyKeysWithTtl() && candidate.expiresAtMillis() == 0) {
                continue;
            }
            if (best < 0 || better(policy, candidate, candidates.get(best), nowMillis)) {
                best = i;
            }
        }
        return best;
    }

    private static boolean better(EvictionPolicy policy, EvictionCandidate a, EvictionCandidate b, long nowMillis) {
        if (policy == EvictionPolicy.VOLATILE_TTL) {
            return a.expiresAtMillis() < b.expiresAtMillis();
        }
        boolean aExpired = a.isExpired(nowMillis);
        if (aExpired != b.isExpired(nowMillis)) {
            return aExpired;
        }
        return a.accessedAtMillis() < b.accessedAtMillis();
    }
}
