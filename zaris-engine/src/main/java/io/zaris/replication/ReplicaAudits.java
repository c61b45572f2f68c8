package io.zaris.replication;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * When the active should audit a replica of a partition that stays DEGRADED although this node holds a confirmation
 * of every segment from that replica.
 *
 * <p>The leader heals a degraded partition only when two records agree: the active confirms every replica, and each
 * replica reports every segment complete under the partition's epoch. Should they ever disagree, nothing re-sends the
 * segment the replica lacks: it is confirmed here, possibly idle, and the partition would stay degraded for good (a
 * 30-minute chaos run on separate hosts ended with two partitions so, 14 of 16 segments synced for minutes). So a
 * replica that stays in that state for {@link #INTERVAL} is audited ({@code ADVANCE_EPOCH} under the one epoch),
 * and again each interval while it lasts; a segment it no longer counts as complete gets a snapshot. Pure apart from
 * its memory of what it saw; owned by the replication thread.
 */
final class ReplicaAudits {

    /** How long a degraded partition's confirmed replica waits for its heal before it is audited, and between audits. */
    static final Duration INTERVAL = Duration.ofSeconds(5);

    private record Watched(String replica, int partition) {
    }

    /** What was watched in the reconcile under way, and since when (nanos) under which epoch, per replica. */
    private final Map<Watched, long[]> since = new HashMap<>();
    private final Set<Watched> seenThisPass = new HashSet<>();

    /**
     * The replica confirmed every segment of the partition, which stays DEGRADED under {@code epoch}: whether to
     * audit it now. Call once per such replica per reconcile pass, then {@link #endPass}.
     */
    boolean due(String replica, int partition, long epoch, long now) {
        Watched watched = new Watched(replica, partition);
        seenThisPass.add(watched);
        long[] entry = since.get(watched);
        if (entry == null || entry[0] != epoch) {
            since.put(watched, new long[] {epoch, now});
            return false;
        }
        if (now - entry[1] < INTERVAL.toNanos()) {
            return false;
        }
        entry[1] = now;
        return true;
    }

    /** Forgets what was not watched in the pass that ends: a healed, moved or resynced partition starts afresh. */
    void endPass() {
        since.keySet().retainAll(seenThisPass);
        seenThisPass.clear();
    }

    /** Replicas and partitions watched: at most the partitions this node serves times their replicas. */
    int watched() {
        return since.size();
    }
}
