package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.model.KvStatus;
import io.zaris.protocol.Request;
import io.zaris.time.FakeTime;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A planned hand-over's fence on the old active's copy: it refuses the copy's own writes of the old epoch with
 * nothing applied or shipped, a lift takes it back when the hand-over was not published, and a pull that came
 * meanwhile makes it final.
 */
@Tag("unit")
class HandOverFenceStoreTests {

    private static final long EPOCH = 7;

    private final List<Change> shipped = new ArrayList<>();
    private final NodeStore store = new NodeStore(1, FakeTime.followingMillis(() -> 1_000_000L), 1000, 1 << 20,
            (segment, changes) -> {
                shipped.addAll(changes);
                return CompletableFuture.completedFuture(null);
            });

    @Test
    void aFencedCopyRefusesWritesOfTheOldEpochWithNothingAppliedOrShipped() {
        assertThat(put("a", "1", EPOCH).status()).isEqualTo(KvStatus.OK);
        long revision = store.segmentRevision(0);
        shipped.clear();

        store.fenceForHandOver(0, EPOCH + 1);

        assertThat(put("a", "2", EPOCH).status()).isEqualTo(KvStatus.OWNERSHIP_CHANGING);
        assertThat(store.segmentRevision(0)).isEqualTo(revision);
        assertThat(shipped).isEmpty();
        assertThat(put("a", "3", EPOCH + 1).status()).as("the new epoch's writes are not fenced").isEqualTo(KvStatus.OK);
    }

    @Test
    void aLiftTakesTheFenceBackWhenNoPullCame() {
        store.fenceForHandOver(0, EPOCH + 1);

        store.liftHandOverFence(0, EPOCH + 1);

        assertThat(put("a", "1", EPOCH).status()).isEqualTo(KvStatus.OK);
    }

    @Test
    void aPullMeanwhileMakesTheFenceFinal() {
        put("a", "1", EPOCH);
        store.fenceForHandOver(0, EPOCH + 1);
        List<Change> pulled = store.retireAndReadSince(0, EPOCH + 1, 0);

        store.liftHandOverFence(0, EPOCH + 1);

        assertThat(pulled).hasSize(1);
        assertThat(put("a", "2", EPOCH).status()).isEqualTo(KvStatus.OWNERSHIP_CHANGING);
    }

    @Test
    void aFenceBelowAnEarlierRetirementChangesNothingAndItsLiftKeepsTheRetirement() {
        store.retireAndReadSince(0, EPOCH + 2, 0);

        store.fenceForHandOver(0, EPOCH + 1);
        store.liftHandOverFence(0, EPOCH + 1);

        assertThat(put("a", "1", EPOCH + 1).status()).isEqualTo(KvStatus.OWNERSHIP_CHANGING);
    }

    @Test
    void aLiftForAnotherEpochLeavesTheFenceUp() {
        store.fenceForHandOver(0, EPOCH + 1);

        store.liftHandOverFence(0, EPOCH + 2);

        assertThat(put("a", "1", EPOCH).status()).isEqualTo(KvStatus.OWNERSHIP_CHANGING);
    }

    private WriteResult put(String key, String value, long epoch) {
        return store.put(0, key.getBytes(StandardCharsets.US_ASCII), value.getBytes(StandardCharsets.US_ASCII),
                Request.NO_TTL, false, Request.ANY_VERSION, epoch);
    }
}
