package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** When a degraded partition's confirmed replica is audited: after an interval of waiting, and each interval after. */
@Tag("unit")
class ReplicaAuditsTests {

    private static final long INTERVAL = ReplicaAudits.INTERVAL.toNanos();

    private final ReplicaAudits audits = new ReplicaAudits();

    @Test
    void aReplicaIsAuditedOnlyAfterWaitingAnIntervalAndThenOncePerInterval() {
        assertThat(seen("n2", 4, 7, 0)).as("first seen").isFalse();
        assertThat(seen("n2", 4, 7, INTERVAL - 1)).isFalse();
        assertThat(seen("n2", 4, 7, INTERVAL)).as("an interval later").isTrue();
        assertThat(seen("n2", 4, 7, INTERVAL + 1)).as("just audited").isFalse();
        assertThat(seen("n2", 4, 7, 2 * INTERVAL)).as("still degraded an interval later").isTrue();
    }

    @Test
    void aNewEpochStartsTheWaitAfresh() {
        seen("n2", 4, 7, 0);
        assertThat(seen("n2", 4, 8, INTERVAL)).as("the partition changed epoch").isFalse();
        assertThat(seen("n2", 4, 8, 2 * INTERVAL)).isTrue();
    }

    @Test
    void aPassThatNoLongerSeesAReplicaForgetsIt() {
        seen("n2", 4, 7, 0);
        audits.endPass();
        assertThat(audits.watched()).as("seen in the pass that ended").isEqualTo(1);
        audits.endPass(); // healed, moved or unconfirmed: not seen in this pass
        assertThat(audits.watched()).isZero();
        assertThat(seen("n2", 4, 7, INTERVAL)).as("watched again from scratch").isFalse();
    }

    @Test
    void replicasAndPartitionsAreWatchedApart() {
        seen("n2", 4, 7, 0);
        assertThat(seen("n3", 4, 7, INTERVAL)).as("another replica of the partition").isFalse();
        assertThat(seen("n2", 5, 7, INTERVAL)).as("another partition of the replica").isFalse();
        assertThat(audits.watched()).isEqualTo(3);
    }

    /** A reconcile pass sees the replica waiting on the partition's heal (several calls may share one pass). */
    private boolean seen(String replica, int partition, long epoch, long now) {
        return audits.due(replica, partition, epoch, now);
    }
}
