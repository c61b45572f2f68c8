package io.zaris.security;

import io.zaris.time.TimeSource;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Slows down password guessing: each peer (remote IP) may fail {@code burst} logins, then one more per
 * {@code refill} interval (a token bucket of failures). While a peer has no tokens left its attempts are
 * refused without checking the password. Successful logins cost nothing.
 *
 * <p>Thread-safe: one lock; only login attempts take it, never data requests. Memory is bounded: at most
 * {@code maxPeers} peers are tracked, peers whose bucket has refilled are forgotten first, then the peer
 * tracked longest (an attacker with many addresses can make a peer's count restart early, never grow the map).
 *
 * <p>Pure of I/O; time comes from the injected nanosecond clock so tests drive it by hand.
 */
public final class AuthFailureLimiter {

    /** Failed logins a peer may make at once. */
    public static final int DEFAULT_BURST = 5;
    /** How often a peer gets one more failed login back. */
    public static final Duration DEFAULT_REFILL = Duration.ofSeconds(1);
    /** Peers tracked at most. */
    public static final int DEFAULT_MAX_PEERS = 10_000;

    private final int burst;
    private final long refillNanos;
    private final int maxPeers;
    private final TimeSource time;
    /** Insertion-ordered so the oldest tracked peer is the first one to let go of. Guarded by {@code this}. */
    private final Map<String, Bucket> buckets = new LinkedHashMap<>();

    private static final class Bucket {
        double tokens;
        long updatedNanos;

        Bucket(double tokens, long updatedNanos) {
            this.tokens = tokens;
            this.updatedNanos = updatedNanos;
        }
    }

    public AuthFailureLimiter(int burst, Duration refill, int maxPeers, TimeSource time) {
        if (burst < 1 || refill.isNegative() || refill.isZero() || maxPeers < 1) {
            throw new IllegalArgumentException("burst and maxPeers must be >= 1 and refill positive");
        }
        this.burst = burst;
        this.refillNanos = refill.toNanos();
        this.maxPeers = maxPeers;
        this.time = time;
    }

    /**
     * The default limits, refilled on the system clock. The security options that hold a limiter are built apart
     * from a node's configuration, before its clock is chosen, so this one cannot take the node's; a test that needs
     * the refill on a fake clock builds its limiter with {@link #AuthFailureLimiter(int, Duration, int, TimeSource)}.
     */
    public static AuthFailureLimiter withDefaults() {
        return new AuthFailureLimiter(DEFAULT_BURST, DEFAULT_REFILL, DEFAULT_MAX_PEERS, TimeSource.system());
    }

    /**
     * How long the peer must wait before its next login attempt is checked: {@link Duration#ZERO} when it may
     * try now.
     */
    public synchronized Duration waitBeforeAttempt(String peer) {
        Bucket bucket = refreshed(peer);
        if (bucket == null || bucket.tokens >= 1) {
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) Math.ceil((1 - bucket.tokens) * refillNanos));
    }

    /** Records a failed login of the peer. */
    public synchronized void recordFailure(String peer) {
        Bucket bucket = refreshed(peer);
        if (bucket == null) {
            makeRoom();
            bucket = new Bucket(burst, time.nanoTime());
            buckets.put(peer, bucket);
        }
        bucket.tokens = Math.max(0, bucket.tokens - 1);
    }

    /** Peers currently tracked (for tests and diagnostics). */
    public synchronized int trackedPeers() {
        return buckets.size();
    }

    /** The peer's bucket with tokens refilled up to now; forgotten (null) once full again. */
    private Bucket refreshed(String peer) {
        Bucket bucket = buckets.get(peer);
        if (bucket == null) {
            return null;
        }
        long now = time.nanoTime();
        bucket.tokens = Math.min(burst, bucket.tokens + (double) (now - bucket.updatedNanos) / refillNanos);
        bucket.updatedNanos = now;
        if (bucket.tokens >= burst) {
            buckets.remove(peer);
            return null;
        }
        return bucket;
    }

    private void makeRoom() {
        if (buckets.size() < maxPeers) {
            return;
        }
        long now = time.nanoTime();
        buckets.values().removeIf(b -> b.tokens + (double) (now - b.updatedNanos) / refillNanos >= burst);
        Iterator<String> oldest = buckets.keySet().iterator();
        while (buckets.size() >= maxPeers && oldest.hasNext()) {
            oldest.next();
            oldest.remove();
        }
    }
}
