package io.zaris.client;

import java.time.Duration;

/**
 * How one read uses the client's near cache ({@link ZarisClient#read}). The near cache is one per client; a
 * caller that wants less of it for some keys (a Spring cache that opts out, or whose near entries must not be
 * older than some time) says so per read:
 *
 * <ul>
 *   <li>{@link #DEFAULT}: served locally whenever the near cache can vouch for the entry, as {@link ZarisClient#get};
 *   <li>{@link #maxAge(Duration)}: as the default, but an entry fetched that long ago or longer is not served; the
 *       read goes to the owner and its answer replaces the entry;
 *   <li>{@link #BYPASS}: the near cache is neither read nor filled, nor are its counts moved.
 * </ul>
 *
 * <p>A client without a near cache reads every key from its owner whatever is given here. Immutable.
 */
public final class NearCacheRead {

    /** The age limit of a read without one. */
    static final long NO_MAX_AGE = Long.MAX_VALUE;

    /** Served locally whenever the near cache can vouch for the entry. */
    public static final NearCacheRead DEFAULT = new NearCacheRead(true, NO_MAX_AGE);

    /** Always read from the owner; the answer is not kept. */
    public static final NearCacheRead BYPASS = new NearCacheRead(false, NO_MAX_AGE);

    private final boolean uses;
    private final long maxAgeNanos;

    private NearCacheRead(boolean uses, long maxAgeNanos) {
        this.uses = uses;
        this.maxAgeNanos = maxAgeNanos;
    }

    /**
     * Served locally only while the entry was fetched less than {@code maxAge} ago (counted from when the read
     * that fetched it was sent). A bound on age on top of the near cache's own guarantees, for data whose
     * changes do not all pass through Zaris writes the owner can push.
     *
     * @throws IllegalArgumentException unless {@code maxAge} is positive
     */
    public static NearCacheRead maxAge(Duration maxAge) {
        if (maxAge == null || maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("near cache maxAge must be positive but was " + maxAge);
        }
        return new NearCacheRead(true, saturatedNanos(maxAge));
    }

    /** Whether the read may be answered from, and fills, the near cache. */
    public boolean usesNearCache() {
        return uses;
    }

    /** The age limit, or {@code null} for none. */
    public Duration maxAge() {
        return maxAgeNanos == NO_MAX_AGE ? null : Duration.ofNanos(maxAgeNanos);
    }

    long maxAgeNanos() {
        return maxAgeNanos;
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return NO_MAX_AGE;
        }
    }

    @Override
    public String toString() {
        return !uses ? "NearCacheRead[bypass]"
                : maxAgeNanos == NO_MAX_AGE ? "NearCacheRead[default]" : "NearCacheRead[maxAge=" + maxAge() + "]";
    }
}
