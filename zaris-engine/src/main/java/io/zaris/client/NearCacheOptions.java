package io.zaris.client;

/**
 * Settings of a client's near cache: values this client read, kept in its own memory and served without a
 * round trip for as long as the key's owner can vouch for them (see {@link NearCache}). Off unless
 * {@link ZarisClientOptions.Builder#nearCache} is given options built here. Immutable; build with
 * {@link #builder()}.
 */
public final class NearCacheOptions {

    /** Values kept at most (the least recently used goes first). */
    public static final int DEFAULT_MAX_ENTRIES = 10_000;
    /** Bytes kept at most, counting keys, values and {@link NearCache#ENTRY_OVERHEAD_BYTES} per entry. */
    public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

    /** The near cache turned off: every read goes to the key's owner. */
    public static final NearCacheOptions DISABLED = new NearCacheOptions(false, 0, 0);

    private final boolean enabled;
    private final int maxEntries;
    private final long maxBytes;

    private NearCacheOptions(boolean enabled, int maxEntries, long maxBytes) {
        this.enabled = enabled;
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A near cache with the default bounds. */
    public static NearCacheOptions create() {
        return builder().build();
    }

    public boolean enabled() {
        return enabled;
    }

    public int maxEntries() {
        return maxEntries;
    }

    public long maxBytes() {
        return maxBytes;
    }

    @Override
    public String toString() {
        return enabled ? "NearCacheOptions[maxEntries=" + maxEntries + ", maxBytes=" + maxBytes + "]"
                : "NearCacheOptions[disabled]";
    }

    /** Builds enabled near-cache options; every bound is checked when set. */
    public static final class Builder {
        private int maxEntries = DEFAULT_MAX_ENTRIES;
        private long maxBytes = DEFAULT_MAX_BYTES;

        private Builder() {
        }

        /** Values kept at most; at least 1. */
        public Builder maxEntries(int entries) {
            if (entries < 1) {
                throw new IllegalArgumentException("near cache maxEntries must be >= 1 but was " + entries);
            }
            this.maxEntries = entries;
            return this;
        }

        /** Bytes kept at most (keys, values and per-entry overhead); at least 1. */
        public Builder maxBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("near cache maxBytes must be >= 1 but was " + bytes);
            }
            this.maxBytes = bytes;
            return this;
        }

        public NearCacheOptions build() {
            return new NearCacheOptions(true, maxEntries, maxBytes);
        }
    }
}
