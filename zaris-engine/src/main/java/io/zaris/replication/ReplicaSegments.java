package io.zaris.replication;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Replica side: which segments hold a complete copy from the current active owner (a snapshot arrived,
 * and every change since followed without a gap). Reported to the leader, which promotes the replica with
 * the most synced segments. Thread-safe.
 */
public final class ReplicaSegments {

    private final AtomicIntegerArray synced;

    public ReplicaSegments(int segmentCount) {
        this.synced = new AtomicIntegerArray(segmentCount);
    }

    public void mark(int segment, boolean isSynced) {
        synced.set(segment, isSynced ? 1 : 0);
    }

    public boolean isSynced(int segment) {
        return synced.get(segment) == 1;
    }
}
