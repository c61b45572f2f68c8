package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.protocol.Request;
import io.zaris.model.SegmentDigest;
import io.zaris.time.FakeTime;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The segment digest that compares copies: independent of order, sensitive to every field of every entry. */
@Tag("unit")
class ContentDigestTests {

    private final long now = 1_000_000;

    @Test
    void theSameEntriesInAnyOrderGiveTheSameDigest() {
        List<Change> entries = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            entries.add(new Change(i + 1, 3, bytes("k" + i), bytes("v" + i), i % 7 == 0 ? now + 60_000 : 0));
        }
        List<Change> shuffled = new ArrayList<>(entries);
        Collections.shuffle(shuffled, new Random(5));

        ContentDigest inOrder = new ContentDigest();
        entries.forEach(e -> inOrder.add(e.key(), e.value(), e.revision(), e.expiresAtMillis()));
        ContentDigest outOfOrder = new ContentDigest();
        shuffled.forEach(e -> outOfOrder.add(e.key(), e.value(), e.revision(), e.expiresAtMillis()));

        assertThat(outOfOrder.value()).isEqualTo(inOrder.value());
        assertThat(outOfOrder.entries()).isEqualTo(200);
    }

    @Test
    void everyFieldOfAnEntryChangesTheDigest() {
        long base = digestOf("key", "value", 5, 0);
        assertThat(digestOf("kez", "value", 5, 0)).as("key").isNotEqualTo(base);
        assertThat(digestOf("key", "valuf", 5, 0)).as("value").isNotEqualTo(base);
        assertThat(digestOf("key", "value", 6, 0)).as("version").isNotEqualTo(base);
        assertThat(digestOf("key", "value", 5, now)).as("expiry").isNotEqualTo(base);
        // Where key ends and value begins is part of the entry.
        assertThat(digestOf("keyv", "alue", 5, 0)).as("boundary").isNotEqualTo(base);
    }

    @Test
    void twoStoresHoldingTheSameSnapshotInDifferentOrdersAgreeAndOneMissingEntryDisagrees() {
        List<Change> entries = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            entries.add(new Change(i + 1, 1, bytes("k" + i), bytes("v" + i), 0));
        }
        List<Change> reversed = new ArrayList<>(entries);
        Collections.reverse(reversed);
        NodeStore first = new NodeStore(2, FakeTime.followingMillis(() -> now));
        NodeStore second = new NodeStore(2, FakeTime.followingMillis(() -> now));
        first.installSnapshotChunk(1, true, true, 50, entries);
        second.installSnapshotChunk(1, true, true, 50, reversed);

        SegmentDigest a = first.segmentDigest(1);
        SegmentDigest b = second.segmentDigest(1);
        assertThat(a).isEqualTo(b);
        assertThat(a.keys()).isEqualTo(50);
        assertThat(a.revision()).isEqualTo(50);
        assertThat(a.segment()).isEqualTo(1);

        NodeStore missingOne = new NodeStore(2, FakeTime.followingMillis(() -> now));
        missingOne.installSnapshotChunk(1, true, true, 50, entries.subList(1, 50));
        assertThat(missingOne.segmentDigest(1).sameContentAs(a)).isFalse();
    }

    @Test
    void aReplicaThatAppliedEveryChangeMatchesItsActiveAndOneThatMissedTheLastDoesNot() {
        List<Change> shipped = new ArrayList<>();
        NodeStore active = new NodeStore(1, FakeTime.followingMillis(() -> now), 64, 1 << 20, (segment, changes) -> {
            shipped.addAll(changes);
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        });
        active.put(0, bytes("a"), bytes("1"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        active.put(0, bytes("b"), bytes("2"), 30_000, false, Request.ANY_VERSION, 1);
        active.increment(0, bytes("n"), 4, 1);
        active.put(0, bytes("a"), bytes("3"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        NodeStore replica = new NodeStore(1, FakeTime.followingMillis(() -> now));
        replica.applyReplicated(0, shipped);
        NodeStore behind = new NodeStore(1, FakeTime.followingMillis(() -> now));
        behind.applyReplicated(0, shipped.subList(0, shipped.size() - 1));

        assertThat(replica.segmentDigest(0)).isEqualTo(active.segmentDigest(0));
        // Same keys, but "a" holds an older value at an older version.
        assertThat(behind.segmentDigest(0).keys()).isEqualTo(active.segmentDigest(0).keys());
        assertThat(behind.segmentDigest(0).sameContentAs(active.segmentDigest(0))).isFalse();
    }

    @Test
    void anEmptySegmentHasDigestZero() {
        assertThat(new NodeStore(1, FakeTime.followingMillis(() -> now)).segmentDigest(0)).isEqualTo(new SegmentDigest(0, 0, 0, 0));
    }

    private static long digestOf(String key, String value, long version, long expiresAt) {
        return new ContentDigest().add(bytes(key), bytes(value), version, expiresAt).value();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
