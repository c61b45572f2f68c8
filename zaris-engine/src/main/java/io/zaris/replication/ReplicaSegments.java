package io.zaris.replication;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Replica side: which segments hold a complete copy from the active owner, and under which epoch (a
 * snapshot of that epoch arrived and every change since followed without a gap). A segment counts as in
 * sync only under the newest epoch this node knows for its partition: after a pause or a change of
 * owner it has to be synced again, however complete it looked before. Reported to the leader, which
 * promotes the replica with the most synced segments and heals only fully synced owners. Thread-safe.
 */
public final class ReplicaSegments {

    private static final long NOT_SYNCED = -1;

    private final AtomicLongArray syncedEpoch;

    public ReplicaSegments(int segmentCount) {
        this.syncedEpoch = new AtomicLongArray(segmentCount);
        for (int i = 0; i < segmentCount; i++) {
            syncedEpoch.set(i, NOT_SYNCED);
        }
    }

    /** The segment is a complete copy of what the active owner of {@code epoch} holds. */
    public void markSynced(int segment, long epoch) {
        syncedEpoch.set(segment, epoch);
    }

    /** The segment missed a change or is being replaced by a snapshot. */
    public void markUnsynced(int segment) {
        syncedEpoch.set(segment, NOT_SYNCED);
    }

    /** The epoch the segment is a complete copy under, or -1 when it is not one. */
    public long syncedEpoch(int segment) {
        return syncedEpoch.get(segment);
    }

    /** Whether the segment is a complete copy under {@code epoch} (the newest this node knows). */
    public boolean isSyncedUnder(int segment, long epoch) {
        return syncedEpoch.get(segment) == epoch;
    }
}
