package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.PartitionHealth;
import io.zaris.protocol.PartitionState;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class FailoverDecisionsTests {

    private static final List<String> OWNERS = List.of("a", "b", "c");

    @Test
    void epochsOnlyGoForwardPastEverythingObserved() {
        assertThat(FailoverDecisions.nextEpoch(4, 0)).isEqualTo(5);
        assertThat(FailoverDecisions.nextEpoch(4, 9)).isEqualTo(10);
        assertThatThrownBy(() -> FailoverDecisions.nextEpoch(Long.MAX_VALUE, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void promotesTheOwnerWithTheMostSyncedSegments() {
        FailoverDecisions.Promotion chosen = FailoverDecisions.promote(OWNERS,
                Map.of("b", state(3, 90), "c", state(8, 100)), Map.of());
        assertThat(chosen).isEqualTo(new FailoverDecisions.Promotion("c", PartitionHealth.DEGRADED));
    }

    @Test
    void aCandidateWithFewerKeysThanALiveSiblingRecoversBeforeServing() {
        FailoverDecisions.Promotion chosen = FailoverDecisions.promote(OWNERS,
                Map.of("b", state(3, 100), "c", state(8, 90)), Map.of());
        assertThat(chosen).isEqualTo(new FailoverDecisions.Promotion("c", PartitionHealth.RECOVERING));
    }

    @Test
    void amongEquallySyncedCopiesTheOneFurtherAlongItsHistoryWinsAndPullsTheKeysItLacks() {
        // after a degrade's epoch bump neither replica is synced yet; "c" applied more changes, "b" has more keys
        FailoverDecisions.Promotion chosen = FailoverDecisions.promote(OWNERS,
                Map.of("b", new PartitionState(93, 15_686, 32, 0), "c", new PartitionState(93, 15_770, 30, 0)), Map.of());
        assertThat(chosen).isEqualTo(new FailoverDecisions.Promotion("c", PartitionHealth.RECOVERING));
    }

    @Test
    void tiesGoToMoreKeysThenToOwnerOrder() {
        assertThat(FailoverDecisions.promote(OWNERS, Map.of("b", state(8, 100), "c", state(8, 120)), Map.of())
                .node()).isEqualTo("c");
        assertThat(FailoverDecisions.promote(OWNERS, Map.of("b", state(8, 100), "c", state(8, 100)), Map.of())
                .node()).isEqualTo("b");
    }

    @Test
    void possessionProofMakesTheCandidateRecoverWhenALiveHolderHasMoreKeys() {
        FailoverDecisions.Promotion chosen = FailoverDecisions.promote(OWNERS, Map.of("b", state(8, 100)),
                Map.of("x", state(0, 150)));
        assertThat(chosen.health()).isEqualTo(PartitionHealth.RECOVERING);
        assertThat(chosen.health().isServing()).isFalse();
    }

    @Test
    void aLoneSurvivorServesEvenWithNothingSynced() {
        FailoverDecisions.Promotion chosen = FailoverDecisions.promote(OWNERS, Map.of("c", state(0, 0)), Map.of());
        assertThat(chosen).isEqualTo(new FailoverDecisions.Promotion("c", PartitionHealth.DEGRADED));
    }

    @Test
    void noLiveOwnerMeansUnavailable() {
        FailoverDecisions.Promotion chosen = FailoverDecisions.promote(OWNERS, Map.of(), Map.of());
        assertThat(chosen).isEqualTo(new FailoverDecisions.Promotion(null, PartitionHealth.UNAVAILABLE));
    }

    @Test
    void anEmptyCandidateWaitsForEveryServingOwnerThatHasNotAnswered() {
        // "c" was added by a drain's re-map and never got a shipment; "b" holds the data but its answer was lost
        Map<String, PartitionState> answered = Map.of("c", new PartitionState(2, 0, 0, 0));
        String chosen = FailoverDecisions.promote(OWNERS, answered, Map.of()).node();
        assertThat(chosen).isEqualTo("c");
        assertThat(FailoverDecisions.holdersToAwait(chosen, answered, Set.of("b", "c"))).containsExactly("b");
    }

    @Test
    void anEmptyCandidateGoesAheadOnceEveryServingOwnerAnsweredOrNoneIsLeft() {
        Map<String, PartitionState> bothEmpty = Map.of("b", new PartitionState(2, 0, 0, 0), "c", new PartitionState(2, 0, 0, 0));
        assertThat(FailoverDecisions.holdersToAwait("b", bothEmpty, Set.of("b", "c"))).as("a partition nobody wrote to").isEmpty();
        Map<String, PartitionState> onlyC = Map.of("c", new PartitionState(2, 0, 0, 0));
        assertThat(FailoverDecisions.holdersToAwait("c", onlyC, Set.of("c"))).as("a lone survivor (b suspended or gone)")
                .isEmpty();
    }

    @Test
    void aCandidateHoldingAnythingOrNoCandidateAtAllDoesNotWait() {
        Map<String, PartitionState> answered = Map.of("c", new PartitionState(2, 1, 0, 0));
        assertThat(FailoverDecisions.holdersToAwait("c", answered, Set.of("b", "c")))
                .as("one revision is history (a put then its delete)").isEmpty();
        assertThat(FailoverDecisions.holdersToAwait(null, Map.of(), Set.of("b", "c"))).as("UNAVAILABLE serves nothing").isEmpty();
    }

    @Test
    void aRestartedProcessHoldsNothingWhateverItAnswersButKeepsItsEpoch() {
        PartitionState restarted = FailoverDecisions.restartedEmpty(new PartitionState(4, 7, 3, 2, 1));
        assertThat(restarted).isEqualTo(new PartitionState(4, 0, 0, 0, 0));
        assertThat(FailoverDecisions.holdsNothing(restarted)).isTrue();
        assertThat(FailoverDecisions.holdsNothing(new PartitionState(4, 0, 1, 0))).isFalse();
    }

    @Test
    void healingWaitsForEveryOwnerInSyncAndForTheCooldown() {
        Map<String, PartitionState> allSynced = Map.of("a", active(8, 2), "b", state(8, 1), "c", state(8, 1));
        assertThat(FailoverDecisions.readyToHeal(OWNERS, allSynced, 8, 1, "a", 5_000, 5_000)).isTrue();
        assertThat(FailoverDecisions.readyToHeal(OWNERS, allSynced, 8, 1, "a", 4_999, 5_000)).isFalse();
        assertThat(FailoverDecisions.readyToHeal(OWNERS, Map.of("a", active(8, 2), "b", state(7, 1), "c", state(8, 1)),
                8, 1, "a", 5_000, 5_000)).isFalse();
        assertThat(FailoverDecisions.readyToHeal(OWNERS, Map.of("a", active(8, 2), "b", state(8, 1)), 8, 1, "a", 5_000, 5_000))
                .isFalse();
    }

    @Test
    void anOwnerThatHasNotSeenTheCurrentEpochIsNotInSyncWhateverItReports() {
        Map<String, PartitionState> states = Map.of("a", active(8, 2), "b", state(8, 1),
                "c", new PartitionState(0, 1, 1, 8)); // resumed from a pause, still on its old view
        assertThat(FailoverDecisions.readyToHeal(OWNERS, states, 8, 1, "a", 5_000, 5_000)).isFalse();
    }

    @Test
    void healingNeedsTheActiveToConfirmEveryReplicaHasAllItShipped() {
        // every replica believes itself synced, but the active knows one of them missed changes
        Map<String, PartitionState> states = Map.of("a", active(8, 1), "b", state(8, 1), "c", state(8, 1));
        assertThat(FailoverDecisions.readyToHeal(OWNERS, states, 8, 1, "a", 5_000, 5_000)).isFalse();
    }

    @Test
    void aRefusedHealNamesWhatBlocksIt() {
        Map<String, PartitionState> allSynced = Map.of("a", active(8, 2), "b", state(8, 1), "c", state(8, 1));
        assertThat(FailoverDecisions.healBlocker(OWNERS, allSynced, 8, 1, "a", 5_000, 5_000)).isNull();
        assertThat(FailoverDecisions.healBlocker(OWNERS, allSynced, 8, 1, "a", 4_999, 5_000)).isEqualTo("cooling down");
        assertThat(FailoverDecisions.healBlocker(OWNERS, Map.of("b", state(8, 1), "c", state(8, 1)), 8, 1, "a", 5_000, 5_000))
                .isEqualTo("active a did not answer");
        assertThat(FailoverDecisions.healBlocker(OWNERS, Map.of("a", new PartitionState(4, 1, 1, 8, 0), "b", state(8, 1),
                "c", state(8, 1)), 8, 1, "a", 5_000, 5_000)).isEqualTo("active a confirms 0 of 2 replicas (it knows epoch 4)");
        assertThat(FailoverDecisions.healBlocker(OWNERS, Map.of("a", active(8, 2), "b", state(8, 1)), 8, 1, "a", 5_000, 5_000))
                .isEqualTo("owner c did not answer");
        assertThat(FailoverDecisions.healBlocker(OWNERS, Map.of("a", active(8, 2), "b", state(8, 1),
                "c", new PartitionState(0, 1, 1, 8)), 8, 1, "a", 5_000, 5_000)).isEqualTo("owner c has not seen epoch 1 (knows 0)");
        assertThat(FailoverDecisions.healBlocker(OWNERS, Map.of("a", active(8, 2), "b", state(5, 1), "c", state(8, 1)),
                8, 1, "a", 5_000, 5_000)).isEqualTo("owner b has 5 of 8 segments synced");
    }

    private static PartitionState active(int synced, int confirmedReplicas) {
        return new PartitionState(1, 1, 1, synced, confirmedReplicas);
    }

    private static PartitionState state(int synced, long keys) {
        return new PartitionState(1, keys, keys, synced);
    }

    @Test
    void anIncompleteCopyWaitsForTheSuspendedOwnersAndACompleteOneDoesNot() {
        Map<String, PartitionState> candidates = Map.of("c", new PartitionState(7, 95, 12, 3),
                "d", new PartitionState(7, 120, 14, 4));

        assertThat(FailoverDecisions.suspendedHoldersToAwait("c", candidates, 4, List.of("a", "b")))
                .containsExactly("a", "b");
        assertThat(FailoverDecisions.suspendedHoldersToAwait("d", candidates, 4, List.of("a", "b")))
                .as("complete under the epoch: it received every change the active shipped").isEmpty();
        assertThat(FailoverDecisions.suspendedHoldersToAwait("c", candidates, 4, List.of())).isEmpty();
        assertThat(FailoverDecisions.suspendedHoldersToAwait(null, candidates, 4, List.of("a"))).isEmpty();
    }
}
