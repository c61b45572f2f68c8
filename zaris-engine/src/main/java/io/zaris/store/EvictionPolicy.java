package io.zaris.store;

import java.util.Locale;

/**
 * What a node does when its stored bytes exceed its memory budget. Named as in Redis's
 * {@code maxmemory-policy}; like Redis, the LRU policies are approximate: each eviction samples a few keys
 * and removes the least recently used of the sample, not the least recently used key of the node.
 */
public enum EvictionPolicy {

    /** Refuse writes that add data with {@code OUT_OF_MEMORY}; reads and deletes keep working. */
    NOEVICTION("noeviction", false, false),
    /** Evict the least recently used of a sample of all keys. */
    ALLKEYS_LRU("allkeys-lru", true, false),
    /** Evict the least recently used of a sample of keys that have a TTL; refuse writes when there are none. */
    VOLATILE_LRU("volatile-lru", true, true),
    /** Evict the key with the nearest expiry among a sample of keys that have a TTL; refuse when there are none. */
    VOLATILE_TTL("volatile-ttl", true, true);

    private final String configName;
    private final boolean evicts;
    private final boolean onlyKeysWithTtl;

    EvictionPolicy(String configName, boolean evicts, boolean onlyKeysWithTtl) {
        this.configName = configName;
        this.evicts = evicts;
        this.onlyKeysWithTtl = onlyKeysWithTtl;
    }

    /** The name used in configuration and by Redis ({@code allkeys-lru} …). */
    public String configName() {
        return configName;
    }

    /** Whether the policy removes keys to make room (everything except {@link #NOEVICTION}). */
    public boolean evicts() {
        return evicts;
    }

    /** Whether only keys with a TTL may be evicted. */
    public boolean onlyKeysWithTtl() {
        return onlyKeysWithTtl;
    }

    /**
     * Whether a write that adds data may go ahead: always when the node is within budget; over budget only
     * when the policy evicts and made some room for it (the rest is reclaimed by the next writes and the
     * background sweep, so usage converges back under the budget).
     */
    public boolean admitsWrite(boolean overBudget, boolean freedSomething) {
        return !overBudget || (evicts && freedSomething);
    }

    /** Parses a configuration name ({@code allkeys-lru}, {@code volatile-ttl} …), case-insensitive. */
    public static EvictionPolicy parse(String text) {
        String wanted = text == null ? "" : text.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (EvictionPolicy policy : values()) {
            if (policy.configName.equals(wanted)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("eviction policy must be one of noeviction, allkeys-lru, volatile-lru,"
                + " volatile-ttl but was '" + text + "'");
    }

    @Override
    public String toString() {
        return configName;
    }
}
