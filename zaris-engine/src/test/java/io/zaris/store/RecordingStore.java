package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.time.FakeTime;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A test fixture for the values the hash frames carry (hashes, sets, and the types after them): one active
 * {@link NodeStore} on a clock the test moves, recording every change it ships; commands written as strings on
 * segment 0; and the replication runs every such type must pass: the shipped changes applied by a replica, a snapshot
 * installed one change per chunk, and the op-log tail passed on by a follower, each ending with the active's digest.
 *
 * <p>Used by one test thread: the active store calls its change sink on the writing thread, so {@link #shipped()} is
 * a plain list.
 */
final class RecordingStore {

    /** Changes the op log of the active store (and of a follower) keeps per segment: more than a test writes. */
    private static final int LOG_MAX_CHANGES = 10_000;
    /** Bytes that op log keeps per segment: more than a test writes, so a tail is never cut short. */
    private static final long LOG_MAX_BYTES = 1 << 24;

    private long now = 1_000_000;
    private final List<Change> shipped = new ArrayList<>();
    private final NodeStore active = new NodeStore(1, FakeTime.followingMillis(() -> now),
            LOG_MAX_CHANGES, LOG_MAX_BYTES, (segment, changes) -> {
                shipped.addAll(changes);
                return CompletableFuture.completedFuture(null);
            });

    /** The store the test writes to. */
    NodeStore active() {
        return active;
    }

    /** Every change the active store shipped, in order; the test may clear it. */
    List<Change> shipped() {
        return shipped;
    }

    /** Moves the clock of every store made here forward. */
    void advance(long millis) {
        now += millis;
    }

    /** A store on the same clock that ships nothing: a replica, or a store to compare with. */
    NodeStore newStore() {
        return new NodeStore(1, FakeTime.followingMillis(() -> now));
    }

    /** {@code op key args…} on the active store, segment 0. */
    HashReply run(HashOp op, String key, String... args) {
        return run(active, op, key, args);
    }

    /** {@code op key args…} on {@code store}, segment 0. */
    static HashReply run(NodeStore store, HashOp op, String key, String... args) {
        return store.hash(0, bytes(key), op, Arrays.stream(args).map(RecordingStore::bytes).toList(), 1);
    }

    /** What TYPE answers for {@code key} on the active store. */
    String type(String key) {
        return text(run(HashOp.TYPE, key).items().get(0));
    }

    /**
     * Applies every change shipped so far to a new store and asserts that it holds the same copy: no gap, the
     * active's digest and byte count.
     *
     * @return the replica, for the test's own reads
     */
    NodeStore assertShippedChangesMakeTheSameCopy() {
        NodeStore replica = newStore();

        assertThat(replica.applyReplicated(0, shipped).gap()).isFalse();

        assertThat(replica.segmentDigest(0)).isEqualTo(active.segmentDigest(0));
        assertThat(replica.segmentBytes(0)).isEqualTo(active.segmentBytes(0));
        return replica;
    }

    /** The active store's snapshot of segment 0, as a catch-up from nothing sends it. */
    SegmentSnapshot snapshot() {
        List<SegmentSnapshot> snapshots = new ArrayList<>();
        active.catchUp(0, -1, 1, tail -> { }, snapshots::add);
        return snapshots.get(0);
    }

    /**
     * Installs {@code snapshot} in a new store one change per chunk (so a value is split across chunks) and asserts
     * that it holds the active's digest.
     *
     * @return the replica, for the test's own reads
     */
    NodeStore assertSnapshotInstalledChunkByChunkMakesTheSameCopy(SegmentSnapshot snapshot) {
        List<Change> entries = snapshot.entries();
        NodeStore replica = newStore();

        for (int i = 0; i < entries.size(); i++) {
            replica.installSnapshotChunk(0, i == 0, i == entries.size() - 1, snapshot.revision(),
                    entries.subList(i, i + 1));
        }

        assertThat(replica.segmentDigest(0)).isEqualTo(active.segmentDigest(0));
        return replica;
    }

    /**
     * The active's op-log tail holds one change per shipped one (those changed again later as superseded); a follower
     * applying it holds the same copy and reads its own tail back, and a third store applying that holds it too.
     *
     * @param what what the follower reads back, in the assertion's message ("value", "member")
     */
    void assertTailShipsOnThroughAFollower(String what) {
        List<Change> tail = active.changesSince(0, 0);
        assertThat(tail).hasSameSizeAs(shipped);
        NodeStore follower = new NodeStore(1, FakeTime.followingMillis(() -> now), LOG_MAX_CHANGES, LOG_MAX_BYTES,
                ChangeSink.NONE);

        assertThat(follower.applyReplicated(0, tail).gap()).isFalse();
        assertThat(follower.segmentDigest(0)).isEqualTo(active.segmentDigest(0));

        List<Change> shippedOn = follower.changesSince(0, 0);
        assertThat(shippedOn).as("the follower reads every " + what + " back").isNotNull();
        NodeStore third = newStore();
        assertThat(third.applyReplicated(0, shippedOn).gap()).isFalse();
        assertThat(third.segmentDigest(0)).isEqualTo(active.segmentDigest(0));
    }

    static List<String> texts(List<byte[]> items) {
        return items.stream().map(RecordingStore::text).toList();
    }

    static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
