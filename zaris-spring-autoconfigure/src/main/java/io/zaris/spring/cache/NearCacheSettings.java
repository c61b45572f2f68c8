package io.zaris.spring.cache;

import io.zaris.client.NearCacheRead;
import java.time.Duration;
import java.util.Objects;

/**
 * How one cache's reads use the client's near cache. The near cache is one per client (bounded by
 * {@code zaris.cache.near-cache.max-entries} and {@code max-bytes}, shared by every cache and the template); a
 * cache opts out of it, or limits how old a near entry it is served may be, with these settings. Reads of a cache
 * that opts out go to the owner and leave the near cache alone. A client without a near cache ignores them.
 *
 * @param enabled    whether this cache's reads may be answered from, and fill, the near cache
 * @param timeToLive how long after it was fetched a near entry may answer this cache's reads;
 *                   {@link Duration#ZERO} = as long as the near cache can vouch for it
 */
public record NearCacheSettings(boolean enabled, Duration timeToLive) {

    /** Uses the client's near cache (when it has one), without a time to live of its own. */
    public static final NearCacheSettings DEFAULT = new NearCacheSettings(true, Duration.ZERO);

    /** This cache's reads always go to the owner. */
    public static final NearCacheSettings DISABLED = new NearCacheSettings(false, Duration.ZERO);

    public NearCacheSettings {
        Objects.requireNonNull(timeToLive, "near cache timeToLive must not be null");
        if (timeToLive.isNegative()) {
            throw new IllegalArgumentException("near cache timeToLive must be >= 0 but was " + timeToLive);
        }
    }

    public NearCacheSettings withEnabled(boolean enabled) {
        return new NearCacheSettings(enabled, timeToLive);
    }

    public NearCacheSettings withTimeToLive(Duration timeToLive) {
        return new NearCacheSettings(enabled, timeToLive);
    }

    /** What each read of the cache asks of the client. */
    public NearCacheRead read() {
        if (!enabled) {
            return NearCacheRead.BYPASS;
        }
        return timeToLive.isZero() ? NearCacheRead.DEFAULT : NearCacheRead.maxAge(timeToLive);
    }
}
