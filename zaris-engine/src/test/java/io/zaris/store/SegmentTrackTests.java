package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.protocol.Request;
import io.zaris.time.FakeTime;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Where a near-cache tracker of a segment starts ({@link NodeStore#track}): fresh, resumed with the keys changed
 * since its position, or refused a resume when the copy's history does not hold that position.
 */
@Tag("unit")
class SegmentTrackTests {

    private final long now = 1_000_000;
    private final List<Change> shipped = new ArrayList<>();
    /** An op log of 4 changes, so truncation is easy to reach. */
    private final NodeStore active = new NodeStore(2, FakeTime.followingMillis(() -> now), 4, 1 << 20, (segment, changes) -> {
        shipped.addAll(changes);
        return CompletableFuture.completedFuture(null);
    });
    private final AtomicInteger subscribed = new AtomicInteger();

    private static byte[] key(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private void put(NodeStore store, String key, long epoch) {
        store.put(0, key(key), key("v"), Request.NO_TTL, false, Request.ANY_VERSION, epoch);
    }

    private TrackStart track(NodeStore store, long sinceRevision, long sinceEpoch) {
        return store.track(0, sinceRevision, sinceEpoch, subscribed::incrementAndGet);
    }

    private static List<String> keys(TrackStart start) {
        return start.changes().stream().map(c -> new String(c.key(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void aFreshTrackerStartsAtTheCurrentRevisionAndItsEpoch() {
        put(active, "a", 3);
        put(active, "b", 3);

        TrackStart start = track(active, -1, -1);

        assertThat(start.resumed()).isFalse();
        assertThat(start.revision()).isEqualTo(2);
        assertThat(start.epoch()).isEqualTo(3);
        assertThat(start.changes()).isEmpty();
        assertThat(subscribed).as("subscribed under the same hold of the lock").hasValue(1);
    }

    @Test
    void aTrackerResumesWithEveryChangeSinceItsPositionInOrder() {
        put(active, "a", 3);
        put(active, "b", 3);
        put(active, "a", 3);
        active.delete(0, key("b"), Request.ANY_VERSION, 3);

        TrackStart start = track(active, 1, 3);

        assertThat(start.resumed()).isTrue();
        assertThat(start.revision()).isEqualTo(4);
        assertThat(keys(start)).containsExactly("b", "a", "b");
        assertThat(start.changes()).extracting(TrackStart.Change::revision).containsExactly(2L, 3L, 4L);
        assertThat(start.changes()).extracting(TrackStart.Change::removal).containsExactly(false, false, true);
    }

    @Test
    void aTrackerAtTheCurrentRevisionResumesWithNothingToDrop() {
        put(active, "a", 3);

        TrackStart start = track(active, 1, 3);

        assertThat(start.resumed()).isTrue();
        assertThat(start.changes()).isEmpty();
    }

    @Test
    void aTrackerThatSawNothingResumesFromTheStartWhileTheLogHoldsIt() {
        put(active, "a", 3);

        assertThat(keys(track(active, 0, -1))).containsExactly("a");
    }

    @Test
    void aPositionTheLogNoLongerReachesIsNotResumed() {
        for (int i = 0; i < 6; i++) {
            put(active, "k" + i, 3);
        }

        TrackStart start = track(active, 1, 3);

        assertThat(start.resumed()).as("the log keeps revisions 3..6 only").isFalse();
        assertThat(start.revision()).isEqualTo(6);
        assertThat(start.changes()).isEmpty();
    }

    @Test
    void aReplicaThatTookOverResumesATrackerOfTheOldOwnerFromItsLastRevision() {
        NodeStore replica = new NodeStore(2, FakeTime.followingMillis(() -> now), 4, 1 << 20, ChangeSink.NONE);
        put(active, "a", 3);
        put(active, "b", 3);
        replica.applyReplicated(0, shipped);
        put(replica, "a", 4); // the replica's first write as the new owner

        TrackStart start = track(replica, 2, 3);

        assertThat(start.resumed()).isTrue();
        assertThat(keys(start)).containsExactly("a");
    }

    @Test
    void aPositionBeyondWhatTheNewOwnerInheritedIsNotResumed() {
        NodeStore replica = new NodeStore(2, FakeTime.followingMillis(() -> now), 4, 1 << 20, ChangeSink.NONE);
        put(active, "a", 3);
        replica.applyReplicated(0, shipped);
        put(active, "b", 3); // acknowledged by the old owner, never replicated: lost in the failover

        assertThat(track(replica, 2, 3).resumed()).as("revision 2 is beyond the new owner's history").isFalse();

        put(replica, "c", 4); // the new owner writes its own revision 2
        assertThat(track(replica, 2, 3).resumed()).as("its revision 2 is another change (epoch 4, not 3)").isFalse();
    }
}
