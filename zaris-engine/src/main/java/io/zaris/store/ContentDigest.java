package io.zaris.store;

/**
 * An order-independent digest of a set of entries: each entry is hashed on its own (key, value, version and
 * expiry, each length-prefixed so no two different entries feed the same bytes), and the entry hashes are
 * added up modulo 2<sup>64</sup>. Addition commutes, so two copies that hold the same entries get the same
 * digest however their maps iterate; a single differing field changes the entry's hash and so, unless 64-bit
 * hashes collide, the sum.
 *
 * <p>For comparing copies of a segment in tests and checks, not for security: the hash is FNV-1a with a final
 * avalanche step, fast and well spread but not collision resistant against an adversary. Not thread-safe: one
 * instance belongs to one computation.
 */
public final class ContentDigest {

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private long sum;
    private long entries;

    /**
     * Adds one entry.
     *
     * @param value           {@code null} is hashed apart from an empty value
     * @param expiresAtMillis wall-clock expiry, {@code 0} for none
     */
    public ContentDigest add(byte[] key, byte[] value, long version, long expiresAtMillis) {
        long hash = FNV_OFFSET;
        hash = bytes(hash, key);
        hash = value == null ? number(hash, -1) : bytes(hash, value);
        hash = number(hash, version);
        hash = number(hash, expiresAtMillis);
        sum += avalanche(hash);
        entries++;
        return this;
    }

    /** The digest of every entry added so far; {@code 0} for none. */
    public long value() {
        return sum;
    }

    /** How many entries were added. */
    public long entries() {
        return entries;
    }

    private static long bytes(long hash, byte[] data) {
        hash = number(hash, data.length);
        for (byte b : data) {
            hash = (hash ^ (b & 0xff)) * FNV_PRIME;
        }
        return hash;
    }

    private static long number(long hash, long n) {
        for (int shift = 0; shift < 64; shift += 8) {
            hash = (hash ^ ((n >>> shift) & 0xff)) * FNV_PRIME;
        }
        return hash;
    }

    /** MurmurHash3's 64-bit finaliser: spreads every input bit over the whole result before entries are summed. */
    private static long avalanche(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
