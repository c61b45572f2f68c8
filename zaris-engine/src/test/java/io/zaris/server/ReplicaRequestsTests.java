package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.protocol.Request;
import io.zaris.store.SegmentPosition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The replica's rule for carrying its copy over to the active's new epoch ({@code ADVANCE_EPOCH}). */
@Tag("unit")
class ReplicaRequestsTests {

    /** The active synced the copy under epoch 6, stays active under 8, and is at revision 120. */
    private static final Request.AdvanceEpoch ADVANCE = new Request.AdvanceEpoch(1, 3, 40, 6, 8, 120);

    @Test
    void aCopyCompleteUnderTheOldEpochAtTheActivesRevisionIsCarriedOver() {
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(6, new SegmentPosition(120, 0, 6), ADVANCE)).isTrue();
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(6, new SegmentPosition(120, 0, 4), ADVANCE))
                .as("its newest change older than the lineage").isTrue();
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(6, new SegmentPosition(120, 0, -1), ADVANCE))
                .as("a snapshot and nothing since").isTrue();
    }

    @Test
    void aCopyAlreadyCompleteUnderTheNewEpochByTheActivesOwnChangesIsCarriedOver() {
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(8, new SegmentPosition(120, 0, 8), ADVANCE)).isTrue();
    }

    @Test
    void aCopyBehindOrAheadOfTheActiveIsRefused() {
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(6, new SegmentPosition(119, 0, 6), ADVANCE)).isFalse();
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(6, new SegmentPosition(121, 0, 6), ADVANCE)).isFalse();
    }

    @Test
    void aCopyNotCompleteOrCompleteUnderAnotherLineageIsRefused() {
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(-1, new SegmentPosition(120, 0, 6), ADVANCE))
                .as("missed a change").isFalse();
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(7, new SegmentPosition(120, 0, 6), ADVANCE))
                .as("synced by the active of epoch 7").isFalse();
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(5, new SegmentPosition(120, 0, 5), ADVANCE))
                .as("synced under an older epoch than the active's").isFalse();
    }

    @Test
    void aCopyHoldingAChangeOfAnEpochInBetweenIsRefused() {
        // Written while this node (or another) served epoch 7, which the asking active never saw.
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(6, new SegmentPosition(120, 0, 7), ADVANCE)).isFalse();
    }

    @Test
    void anAuditUnderOneEpochPassesOnlyACopyStillCompleteUnderItAtTheActivesRevision() {
        Request.AdvanceEpoch audit = new Request.AdvanceEpoch(1, 3, 40, 8, 8, 120);
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(8, new SegmentPosition(120, 0, 8), audit)).isTrue();
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(-1, new SegmentPosition(120, 0, 8), audit))
                .as("no longer counted complete").isFalse();
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(6, new SegmentPosition(120, 0, 6), audit))
                .as("complete only under an older epoch").isFalse();
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(8, new SegmentPosition(118, 0, 8), audit))
                .as("behind the active").isFalse();
    }

    @Test
    void aFormerActiveFencedByAHandBackCarriesItsCopyOverAtTheRevisionThePullLeftIt() {
        // It served epoch 6 (and counts its copy complete under it, as every active does); the primary took the
        // partition back under 9 after pulling it up to revision 120, which fenced its writes of epoch 6.
        Request.AdvanceEpoch handBack = new Request.AdvanceEpoch(1, 3, 40, 6, 9, 120);
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(6, new SegmentPosition(120, 0, 6), handBack)).isTrue();
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(6, new SegmentPosition(121, 0, 6), handBack))
                .as("a change beyond what the pull read").isFalse();
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(7, new SegmentPosition(120, 0, 7), handBack))
                .as("served another epoch since").isFalse();
        assertThat(ReplicaRequests.isTheCopyTheActiveSynced(-1, new SegmentPosition(120, 0, 6), handBack))
                .as("restarted, or its copy dropped").isFalse();
    }
}
