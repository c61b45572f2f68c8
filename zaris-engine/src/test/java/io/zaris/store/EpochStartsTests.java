package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.protocol.Request;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Where each epoch's history begins on a segment: the revision a new active owner inherited. */
class EpochStartsTests {

    @Test
    void anEpochStartsJustBeforeItsFirstChange() {
        EpochStarts starts = new EpochStarts(4);
        starts.onChange(1, 1);
        starts.onChange(1, 2);
        starts.onChange(3, 3);
        starts.onChange(3, 4);
        assertThat(starts.startOf(1, 4)).isZero();
        assertThat(starts.startOf(3, 4)).isEqualTo(2);
    }

    @Test
    void anEpochThatHasNotWrittenYetStartsAtTheCurrentRevision() {
        EpochStarts starts = new EpochStarts(4);
        starts.onChange(2, 1);
        assertThat(starts.startOf(5, 9)).isEqualTo(9);
        assertThat(new EpochStarts(4).startOf(1, 0)).isZero();
    }

    @Test
    void anEpochThatNeverWroteWhileNewerOnesDidIsUnknown() {
        EpochStarts starts = new EpochStarts(4);
        starts.onChange(1, 1);
        starts.onChange(4, 2);
        assertThat(starts.startOf(2, 2)).isEqualTo(EpochStarts.UNKNOWN);
    }

    @Test
    void onlyTheMostRecentEpochsAreRemembered() {
        EpochStarts starts = new EpochStarts(2);
        starts.onChange(1, 1);
        starts.onChange(2, 2);
        starts.onChange(3, 3);
        assertThat(starts.startOf(1, 3)).isEqualTo(EpochStarts.UNKNOWN);
        assertThat(starts.startOf(2, 3)).isEqualTo(1);
        assertThat(starts.startOf(3, 3)).isEqualTo(2);
    }

    @Test
    void aSnapshotForgetsTheHistoryItReplaced() {
        EpochStarts starts = new EpochStarts(4);
        starts.onChange(1, 1);
        starts.clear();
        assertThat(starts.startOf(1, 7)).isEqualTo(7);
    }

    @Test
    void aPromotedReplicaInheritsExactlyWhatItAppliedEvenAfterNewWrites() {
        List<io.zaris.model.Change> shipped = new ArrayList<>();
        NodeStore oldActive = new NodeStore(1, () -> 0, 100, 1 << 20, (segment, changes) -> {
            shipped.addAll(changes);
            return CompletableFuture.completedFuture(null);
        });
        NodeStore replica = new NodeStore(1, () -> 0);
        for (int i = 0; i < 5; i++) {
            oldActive.put(0, bytes("k" + i), bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        }
        replica.applyReplicated(0, shipped.subList(0, 3)); // revisions 4 and 5 never arrive
        replica.put(0, bytes("new"), bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION, 2);
        assertThat(replica.segmentStartOfEpoch(0, 2)).isEqualTo(3);
        assertThat(replica.segmentRevision(0)).isEqualTo(4);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
