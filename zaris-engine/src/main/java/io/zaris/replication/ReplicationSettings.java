package io.zaris.replication;

import java.time.Duration;

/**
 * Replication and failover settings of a node (every node of a cluster should agree).
 *
 * @param ackMode            when writes are acknowledged
 * @param minSyncReplicas    replicas that must have applied a SYNC write
 * @param ackTimeout         how long a SYNC write waits for its replicas before it is refused
 * @param healCooldown       how long a partition stays DEGRADED after its last change before it may heal
 * @param evictionDelay      how long a partition may miss an assigned node before the map re-homes it
 * @param asyncFlushDelay    how long the changes of writes acknowledged ASYNC may wait for a flush to their replicas,
 *                           so that changes close together share one syscall and one read on the replica; a SYNC
 *                           write flushes at once (with whatever waited). Zero flushes every change at once.
 */
public record ReplicationSettings(AckMode ackMode, int minSyncReplicas, Duration ackTimeout, Duration healCooldown,
                                  Duration evictionDelay, Duration asyncFlushDelay) {

    /** Acknowledge after a replica applied the write. */
    public static final AckMode DEFAULT_ACK_MODE = AckMode.SYNC;
    /** One replica must hold a SYNC write. */
    public static final int DEFAULT_MIN_SYNC_REPLICAS = 1;
    /** A SYNC write waits this long for its replicas. */
    public static final Duration DEFAULT_ACK_TIMEOUT = Duration.ofSeconds(5);
    /** A flapping node cannot make partitions heal and degrade faster than this. */
    public static final Duration DEFAULT_HEAL_COOLDOWN = Duration.ofSeconds(5);
    /** A node missing this long loses its partitions to a map recomputation. */
    public static final Duration DEFAULT_EVICTION_DELAY = Duration.ofSeconds(30);
    /**
     * Changes of ASYNC writes wait up to 1 ms to share a flush: on the 2-core benchmark machine PUT 100 B at 16 in
     * flight went from about 26k to 33k ops/s (at 128: 84k to 91k). An ASYNC write can be lost if its active
     * owner dies before the change reached a replica; this widens that window by at most the delay.
     */
    public static final Duration DEFAULT_ASYNC_FLUSH_DELAY = Duration.ofMillis(1);
    /** Upper bound of {@link #asyncFlushDelay}. */
    public static final Duration MAX_ASYNC_FLUSH_DELAY = Duration.ofSeconds(10);

    public ReplicationSettings {
        if (minSyncReplicas < 0) {
            throw new IllegalArgumentException("minSyncReplicas must be >= 0 but was " + minSyncReplicas);
        }
        for (Duration duration : new Duration[] {ackTimeout, healCooldown, evictionDelay, asyncFlushDelay}) {
            if (duration == null || duration.isNegative()) {
                throw new IllegalArgumentException("replication durations must be >= 0");
            }
        }
        if (asyncFlushDelay.compareTo(MAX_ASYNC_FLUSH_DELAY) > 0) {
            throw new IllegalArgumentException("asyncFlushDelay must be at most " + MAX_ASYNC_FLUSH_DELAY.toMillis()
                    + " ms but was " + asyncFlushDelay.toMillis() + " ms");
        }
        if (!asyncFlushDelay.isZero() && asyncFlushDelay.compareTo(ackTimeout) >= 0) {
            // A shipped change's verdict is due within the ack timeout from when it was shipped, not flushed.
            throw new IllegalArgumentException("asyncFlushDelay (" + asyncFlushDelay.toMillis()
                    + " ms) must be shorter than ackTimeout (" + ackTimeout.toMillis() + " ms)");
        }
    }

    public static ReplicationSettings defaults() {
        return new ReplicationSettings(DEFAULT_ACK_MODE, DEFAULT_MIN_SYNC_REPLICAS, DEFAULT_ACK_TIMEOUT,
                DEFAULT_HEAL_COOLDOWN, DEFAULT_EVICTION_DELAY, DEFAULT_ASYNC_FLUSH_DELAY);
    }

    public ReplicationSettings withAckMode(AckMode mode) {
        return new ReplicationSettings(mode, minSyncReplicas, ackTimeout, healCooldown, evictionDelay, asyncFlushDelay);
    }

    public ReplicationSettings withEvictionDelay(Duration delay) {
        return new ReplicationSettings(ackMode, minSyncReplicas, ackTimeout, healCooldown, delay, asyncFlushDelay);
    }

    public ReplicationSettings withHealCooldown(Duration cooldown) {
        return new ReplicationSettings(ackMode, minSyncReplicas, ackTimeout, cooldown, evictionDelay, asyncFlushDelay);
    }

    public ReplicationSettings withAsyncFlushDelay(Duration delay) {
        return new ReplicationSettings(ackMode, minSyncReplicas, ackTimeout, healCooldown, evictionDelay, delay);
    }

    public ReplicationSettings withAckTimeout(Duration timeout) {
        return new ReplicationSettings(ackMode, minSyncReplicas, timeout, healCooldown, evictionDelay, asyncFlushDelay);
    }
}
