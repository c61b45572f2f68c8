package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.store.SegmentPosition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The new active's side of carrying a fellow's copy over after a takeover: which pull proves the fellow's copy a prefix
 * of this one, and when this copy can still bring it up to date with its log instead of a snapshot.
 */
@Tag("unit")
class FellowCopiesTests {

    /** The fellow was at revision 120 under lineage epoch 6 when the pull ended; this copy had seen 4 foreign changes. */
    private static final FellowCopies.Basis BASIS = new FellowCopies.Basis(6, 120, 4);

    @Test
    void aPullThatLeftThisCopyHoldingEverythingTheFellowHasProvesItsCopyAPrefix() {
        assertThat(FellowCopies.pullProvesPrefix(120, 120)).as("equal after the tail applied").isTrue();
        assertThat(FellowCopies.pullProvesPrefix(118, 120)).as("the fellow behind this copy").isTrue();
        assertThat(FellowCopies.pullProvesPrefix(0, 0)).as("both empty").isTrue();
    }

    @Test
    void aPullThatLeftTheFellowAheadProvesNothing() {
        // A tail cut short or stopped at a gap: the fellow holds changes this copy lacks.
        assertThat(FellowCopies.pullProvesPrefix(121, 120)).isFalse();
        assertThat(FellowCopies.pullProvesPrefix(-1, 120)).as("no revision read").isFalse();
    }

    @Test
    void aCopyGrownOnlyByItsOwnWritesSinceTheTakeoverCarriesTheFellowOver() {
        assertThat(FellowCopies.carriesOver(BASIS, new SegmentPosition(120, 4, 6))).as("nothing written since").isTrue();
        assertThat(FellowCopies.carriesOver(BASIS, new SegmentPosition(135, 4, 9))).as("its own writes since").isTrue();
    }

    @Test
    void aCopyChangedByAnythingButItsOwnWritesOrBehindTheFellowGetsASnapshot() {
        assertThat(FellowCopies.carriesOver(BASIS, new SegmentPosition(140, 5, 9)))
                .as("a shipped change or snapshot arrived since (a late pull answer, a demotion)").isFalse();
        assertThat(FellowCopies.carriesOver(BASIS, new SegmentPosition(119, 4, 6))).as("behind the fellow").isFalse();
        assertThat(FellowCopies.carriesOver(null, new SegmentPosition(120, 4, 6))).as("no pull proved anything").isFalse();
        assertThat(FellowCopies.carriesOver(new FellowCopies.Basis(-1, 120, 4), new SegmentPosition(120, 4, 6)))
                .as("no lineage").isFalse();
    }

    @Test
    void aProofIsTakenOnceAndANewTakeoverOfThePartitionForgetsTheOldOnes() {
        FellowCopies copies = new FellowCopies();
        copies.record("n1", 40, BASIS);
        copies.record("n3", 40, BASIS);
        copies.record("n1", 48, BASIS);

        assertThat(copies.take("n1", 40)).isEqualTo(BASIS);
        assertThat(copies.take("n1", 40)).as("taken already").isNull();
        assertThat(copies.take("n2", 40)).as("never recorded").isNull();

        copies.forget(40, 47);
        assertThat(copies.take("n3", 40)).as("the partition of segments 40-47 was taken over again").isNull();
        assertThat(copies.take("n1", 48)).as("another partition's").isEqualTo(BASIS);
    }
}
