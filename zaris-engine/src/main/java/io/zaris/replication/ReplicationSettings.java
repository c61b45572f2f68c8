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
 */
public record ReplicationSettings(AckMode ackMode, int minSyncReplicas, Duration ackTimeout, Duration healCooldown,
                                  Duration evictionDelay) {

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

    public ReplicationSettings {
        if (minSyncReplicas < 0) {
            throw new IllegalArgumentException("minSyncReplicas must be >= 0 but was " + minSyncReplicas);
        }
        for (Duration duration : new Duration[] {ackTimeout, healCooldown, evictionDelay}) {
            if (duration == null || duration.isNegative()) {
                throw new IllegalArgumentException("replication durations must be >= 0");
            }
        }
    }

    public static ReplicationSettings defaults() {
        return new ReplicationSettings(DEFAULT_ACK_MODE, DEFAULT_MIN_SYNC_REPLICAS, DEFAULT_ACK_TIMEOUT,
                DEFAULT_HEAL_COOLDOWN, DEFAULT_EVICTION_DELAY);
    }

    public ReplicationSettings withAckMode(AckMode mode) {
        return new ReplicationSettings(mode, minSyncReplicas, ackTimeout, healCooldown, evictionDelay);
    }

    public ReplicationSettings withEvictionDelay(Duration delay) {
        return new ReplicationSettings(ackMode, minSyncReplicas, ackTimeout, healCooldown, delay);
    }

    public ReplicationSettings withHealCooldown(Duration cooldown) {
        return new ReplicationSettings(ackMode, minSyncReplicas, ackTimeout, cooldown, evictionDelay);
    }
}
