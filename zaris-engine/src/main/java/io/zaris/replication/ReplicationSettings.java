package io.zaris.replication;

import io.zaris.model.AckMode;
import java.time.Duration;

/**
 * Replication and failover settings of a node (every node of a cluster should agree).
 *
 * @param ackMode            when writes are acknowledged
 * @param minSyncReplicas    replicas that must have applied a SYNC write, at least (0: every live replica, however
 *                           many are left; see {@link AckMode#SYNC})
 * @param ackTimeout         how long a SYNC write waits for its replicas before it is refused
 * @param healCooldown       how long a partition stays DEGRADED after its last change before it may heal
 * @param evictionDelay      how long a node may be missing from membership before the map re-homes its copies
 * @param asyncFlushDelay    how long the changes of writes acknowledged ASYNC may wait for a flush to their replicas,
 *                           so that changes close together share one syscall and one read on the replica; a SYNC
 *                           write flushes at once (with whatever waited). Zero flushes every change at once.
 * @param replicaBacklogBytes bytes of live changes a replica may leave unanswered before its active owner drops the link
 *                           and re-syncs the replica once it answers again; 0: {@link #autoReplicaBacklog} of this
 *                           JVM's heap
 */
public record ReplicationSettings(AckMode ackMode, int minSyncReplicas, Duration ackTimeout, Duration healCooldown,
                                  Duration evictionDelay, Duration asyncFlushDelay, long replicaBacklogBytes) {

    /** Acknowledge after a replica applied the write. */
    public static final AckMode DEFAULT_ACK_MODE = AckMode.SYNC;
    /**
     * No fixed number of replicas: a SYNC write waits for every live replica, and a partition whose replicas
     * are all gone acknowledges on its owner alone (counted as reduced redundancy) rather than refusing writes
     * until the node returns. 1 or more is the strict option: refuse SYNC writes with fewer replicas connected.
     */
    public static final int DEFAULT_MIN_SYNC_REPLICAS = 0;
    /** A SYNC write waits this long for its replicas. */
    public static final Duration DEFAULT_ACK_TIMEOUT = Duration.ofSeconds(5);
    /** A flapping node cannot make partitions heal and degrade faster than this. */
    public static final Duration DEFAULT_HEAL_COOLDOWN = Duration.ofSeconds(5);
    /**
     * A node missing from membership this long loses its copies to a map recomputation that gives each of its
     * partitions a replacement replica. Zero: at once, as soon as its partitions have failed over. A missing
     * node has either crashed (its restarted process is empty and rejoins like a new node) or been excluded
     * after the escalation timeout, so waiting longer only prolongs the reduced redundancy; a positive delay
     * spares a full resync to a node expected back with its data within it (a healed network split).
     */
    public static final Duration DEFAULT_EVICTION_DELAY = Duration.ZERO;
    /**
     * Changes of ASYNC writes wait up to 1 ms to share a flush: on the 2-core benchmark machine PUT 100 B at 16 in
     * flight went from about 26k to 33k ops/s (at 128: 84k to 91k). An ASYNC write can be lost if its active
     * owner dies before the change reached a replica; this widens that window by at most the delay.
     */
    public static final Duration DEFAULT_ASYNC_FLUSH_DELAY = Duration.ofMillis(1);
    /** Upper bound of {@link #asyncFlushDelay}. */
    public static final Duration MAX_ASYNC_FLUSH_DELAY = Duration.ofSeconds(10);
    /** Smallest and largest replica backlog the automatic rule gives ({@link #autoReplicaBacklog}). */
    public static final long MIN_AUTO_REPLICA_BACKLOG = 1024 * 1024;
    public static final long MAX_AUTO_REPLICA_BACKLOG = 64 * 1024 * 1024;

    public ReplicationSettings {
        if (replicaBacklogBytes < 0) {
            throw new IllegalArgumentException("replicaBacklogBytes must be >= 0 (0: automatic) but was "
                    + replicaBacklogBytes);
        }
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

    /** Settings with the automatic replica backlog. */
    public ReplicationSettings(AckMode ackMode, int minSyncReplicas, Duration ackTimeout, Duration healCooldown,
                               Duration evictionDelay, Duration asyncFlushDelay) {
        this(ackMode, minSyncReplicas, ackTimeout, healCooldown, evictionDelay, asyncFlushDelay, 0);
    }

    /**
     * The replica backlog when none is set: 1/32 of the heap, between 1 MiB and 64 MiB (a 128 MiB heap: 4 MiB; 1.5 GiB:
     * 48 MiB). A change held for a replica costs the owner more than its encoded bytes (the request waiting for its
     * answer, the writes waiting for its verdict), so the bound is a small share of the heap; a replica that merely
     * paused for a collection answers long before a busy owner sends that much.
     */
    public static long autoReplicaBacklog(long maxHeapBytes) {
        return Math.max(MIN_AUTO_REPLICA_BACKLOG, Math.min(MAX_AUTO_REPLICA_BACKLOG, maxHeapBytes / 32));
    }

    /** {@link #replicaBacklogBytes}, or the automatic one for a heap of {@code maxHeapBytes} when it is 0. */
    public long effectiveReplicaBacklog(long maxHeapBytes) {
        return replicaBacklogBytes > 0 ? replicaBacklogBytes : autoReplicaBacklog(maxHeapBytes);
    }

    public ReplicationSettings withReplicaBacklog(long bytes) {
        return new ReplicationSettings(ackMode, minSyncReplicas, ackTimeout, healCooldown, evictionDelay, asyncFlushDelay,
                bytes);
    }

    public static ReplicationSettings defaults() {
        return new ReplicationSettings(DEFAULT_ACK_MODE, DEFAULT_MIN_SYNC_REPLICAS, DEFAULT_ACK_TIMEOUT,
                DEFAULT_HEAL_COOLDOWN, DEFAULT_EVICTION_DELAY, DEFAULT_ASYNC_FLUSH_DELAY);
    }

    public ReplicationSettings withAckMode(AckMode mode) {
        return new ReplicationSettings(mode, minSyncReplicas, ackTimeout, healCooldown, evictionDelay, asyncFlushDelay,
                replicaBacklogBytes);
    }

    /** The same settings with {@code minSyncReplicas} (1 or more: the strict SYNC option). */
    public ReplicationSettings withMinSyncReplicas(int replicas) {
        return new ReplicationSettings(ackMode, replicas, ackTimeout, healCooldown, evictionDelay, asyncFlushDelay,
                replicaBacklogBytes);
    }

    public ReplicationSettings withEvictionDelay(Duration delay) {
        return new ReplicationSettings(ackMode, minSyncReplicas, ackTimeout, healCooldown, delay, asyncFlushDelay,
                replicaBacklogBytes);
    }

    public ReplicationSettings withHealCooldown(Duration cooldown) {
        return new ReplicationSettings(ackMode, minSyncReplicas, ackTimeout, cooldown, evictionDelay, asyncFlushDelay,
                replicaBacklogBytes);
    }

    public ReplicationSettings withAsyncFlushDelay(Duration delay) {
        return new ReplicationSettings(ackMode, minSyncReplicas, ackTimeout, healCooldown, evictionDelay, delay,
                replicaBacklogBytes);
    }

    public ReplicationSettings withAckTimeout(Duration timeout) {
        return new ReplicationSettings(ackMode, minSyncReplicas, timeout, healCooldown, evictionDelay, asyncFlushDelay,
                replicaBacklogBytes);
    }
}
