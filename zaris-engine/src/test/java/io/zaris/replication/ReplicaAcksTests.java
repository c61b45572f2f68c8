package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.protocol.KvStatus;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Counting the replicas' verdicts on one shipment: what a SYNC write waits for. */
class ReplicaAcksTests {

    private static final ReplicaLink.Verdict APPLIED = new ReplicaLink.Verdict(KvStatus.OK, 7);
    private static final ReplicaLink.Verdict GAP = new ReplicaLink.Verdict(KvStatus.OUT_OF_SYNC, 3);

    @Test
    void completesOnlyOnceEveryReplicaShippedToHasAnswered() {
        ReplicaAcks acks = new ReplicaAcks(4, 2, 1);
        acks.onVerdict(APPLIED);
        assertThat(acks.result()).isNotDone();
        acks.onVerdict(GAP);
        assertThat(acks.result()).isCompleted();
    }

    @Test
    void failsWhenFewerThanTheRequiredReplicasApplied() {
        ReplicaAcks acks = new ReplicaAcks(4, 2, 2);
        acks.onVerdict(APPLIED);
        acks.onVerdict(ReplicaLink.Verdict.failed());
        assertThatThrownBy(acks.result()::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(ReplicationException.class).hasMessageContaining("1 of 2").hasMessageContaining("partition 4");
    }

    @Test
    void aShipmentToNoReplicaIsDoneAtOnceWhenNoneIsRequired() {
        assertThat(new ReplicaAcks(0, 0, 0).result()).isCompleted();
    }
}
