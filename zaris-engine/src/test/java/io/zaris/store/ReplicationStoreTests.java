package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.protocol.Request;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The store's half of replication: changes leave in revision order, replicas apply in order, catch-up. */
class ReplicationStoreTests {

    private final long now = 1_000_000;
    private final List<Change> shipped = new ArrayList<>();
    private final NodeStore active = new NodeStore(2, () -> now, 4, 1 << 20, (segment, changes) -> {
        shipped.addAll(changes);
        return CompletableFuture.completedFuture(null);
    });
    private final NodeStore replica = new NodeStore(2, () -> now);

    @Test
    void everyWriteShipsItsEffectWithRevisionAndEpoch() {
        active.put(0, key("a"), value("1"), Request.NO_TTL, false, Request.ANY_VERSION, 7);
        active.increment(0, key("n"), 5, 7);
        active.delete(0, key("a"), Request.ANY_VERSION, 7);
        assertThat(shipped).extracting(Change::revision).containsExactly(1L, 2L, 3L);
        assertThat(shipped).extracting(Change::epoch).containsOnly(7L);
        assertThat(new String(shipped.get(1).value(), StandardCharsets.US_ASCII)).isEqualTo("5");
        assertThat(shipped.get(2).isRemoval()).isTrue();
    }

    @Test
    void replicaAppliesInOrderSkipsDuplicatesAndStopsAtAGap() {
        active.put(0, key("a"), value("1"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        active.put(0, key("b"), value("2"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        active.put(0, key("c"), value("3"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        assertThat(replica.applyReplicated(0, shipped.subList(0, 2))).isEqualTo(new ApplyResult(false, 2));
        assertThat(replica.applyReplicated(0, shipped.subList(0, 2))).isEqualTo(new ApplyResult(false, 2));
        assertThat(replica.get(0, key("b")).version()).isEqualTo(2);

        NodeStore lagging = new NodeStore(2, () -> now);
        assertThat(lagging.applyReplicated(0, shipped.subList(2, 3))).isEqualTo(new ApplyResult(true, 0));
        assertThat(lagging.get(0, key("c"))).isNull();
    }

    @Test
    void catchUpSendsTheLogTailWhileItReachesBackAndASnapshotOtherwise() {
        for (int i = 0; i < 6; i++) {
            active.put(0, key("k" + i), value("v" + i), Request.NO_TTL, false, Request.ANY_VERSION, 2);
        }
        List<List<Change>> tails = new ArrayList<>();
        List<SegmentSnapshot> snapshots = new ArrayList<>();
        active.catchUp(0, 4, 2, tails::add, snapshots::add);
        assertThat(tails).hasSize(1);
        assertThat(tails.get(0)).extracting(Change::revision).containsExactly(5L, 6L);
        active.catchUp(0, 1, 2, tails::add, snapshots::add); // the log keeps 4 changes: revision 2 is gone
        assertThat(snapshots).hasSize(1);
        assertThat(snapshots.get(0).revision()).isEqualTo(6);
        assertThat(snapshots.get(0).entries()).hasSize(6);
    }

    @Test
    void aTailReadsValuesBackFromTheStoreAndShipsAKeyChangedAgainLaterAsSuperseded() {
        NodeStore roomy = new NodeStore(2, () -> now, 16, 1 << 20, ChangeSink.NONE);
        roomy.put(0, key("a"), value("a1"), Request.NO_TTL, false, Request.ANY_VERSION, 2);
        roomy.put(0, key("b"), value("b1"), 60_000, false, Request.ANY_VERSION, 2);
        roomy.put(0, key("a"), value("a2"), Request.NO_TTL, false, Request.ANY_VERSION, 2);
        roomy.put(0, key("c"), value("c1"), Request.NO_TTL, false, Request.ANY_VERSION, 2);
        roomy.delete(0, key("c"), Request.ANY_VERSION, 2);

        List<Change> tail = roomy.changesSince(0, 0);

        assertThat(tail).extracting(Change::revision).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(tail.get(0).superseded()).as("a1 was overwritten by revision 3").isTrue();
        assertThat(tail.get(0).value()).isNull();
        assertThat(new String(tail.get(1).value(), StandardCharsets.UTF_8)).isEqualTo("b1");
        assertThat(tail.get(1).expiresAtMillis()).isEqualTo(now + 60_000);
        assertThat(new String(tail.get(2).value(), StandardCharsets.UTF_8)).isEqualTo("a2");
        assertThat(tail.get(3).superseded()).as("c1 was removed by revision 5").isTrue();
        assertThat(tail.get(4).isRemoval()).isTrue();
        assertThat(roomy.changesSince(0, 3)).as("c1 is superseded by the removal, which is in the tail too")
                .extracting(Change::superseded).containsExactly(true, false);
    }

    @Test
    void aReplicaAppliesSupersededChangesAsRevisionsOnlyAndCanShipThemOnAfterATakeover() {
        NodeStore roomy = new NodeStore(2, () -> now, 16, 1 << 20, ChangeSink.NONE);
        roomy.put(0, key("a"), value("a1"), Request.NO_TTL, false, Request.ANY_VERSION, 2);
        roomy.put(0, key("b"), value("b1"), Request.NO_TTL, false, Request.ANY_VERSION, 2);
        roomy.put(0, key("a"), value("a2"), Request.NO_TTL, false, Request.ANY_VERSION, 2);
        NodeStore follower = new NodeStore(2, () -> now, 16, 1 << 20, ChangeSink.NONE);

        assertThat(follower.applyReplicated(0, roomy.changesSince(0, 0))).isEqualTo(new ApplyResult(false, 3));

        assertThat(follower.get(0, key("a")).version()).isEqualTo(3);
        assertThat(new String(follower.get(0, key("a")).value(), StandardCharsets.UTF_8)).isEqualTo("a2");
        assertThat(follower.get(0, key("b")).version()).isEqualTo(2);
        List<Change> shippedOn = follower.changesSince(0, 0);
        assertThat(shippedOn).extracting(Change::superseded).containsExactly(true, false, false);
        NodeStore third = new NodeStore(2, () -> now);
        assertThat(third.applyReplicated(0, shippedOn)).isEqualTo(new ApplyResult(false, 3));
        assertThat(new String(third.get(0, key("a")).value(), StandardCharsets.UTF_8)).isEqualTo("a2");
    }

    @Test
    void theOpLogHoldsNoValues() {
        NodeStore roomy = new NodeStore(1, () -> now, 16, 1 << 20, ChangeSink.NONE);
        roomy.put(0, key("k"), new byte[10_000], Request.NO_TTL, false, Request.ANY_VERSION, 2);

        assertThat(roomy.opLogBytes(0)).isEqualTo(LoggedChange.OVERHEAD_BYTES + 1);
    }

    @Test
    void snapshotChunksReplaceTheReplicaSegmentAndSetItsRevision() {
        replica.put(0, key("stale"), value("x"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        active.put(0, key("a"), value("1"), Request.NO_TTL, false, Request.ANY_VERSION, 3);
        active.put(0, key("b"), value("2"), Request.NO_TTL, false, Request.ANY_VERSION, 3);
        List<SegmentSnapshot> snapshots = new ArrayList<>();
        active.catchUp(0, -1, 3, tail -> { }, snapshots::add);
        SegmentSnapshot snapshot = snapshots.get(0);
        replica.installSnapshotChunk(0, true, false, snapshot.revision(), snapshot.entries().subList(0, 1));
        replica.installSnapshotChunk(0, false, true, snapshot.revision(), snapshot.entries().subList(1, 2));
        assertThat(replica.get(0, key("stale"))).isNull();
        assertThat(replica.get(0, key("a"))).isNotNull();
        assertThat(replica.segmentRevision(0)).isEqualTo(2);
        active.put(0, key("c"), value("3"), Request.NO_TTL, false, Request.ANY_VERSION, 3);
        assertThat(replica.applyReplicated(0, shipped.subList(shipped.size() - 1, shipped.size())).gap()).isFalse();
        assertThat(replica.get(0, key("c")).version()).isEqualTo(3);
    }

    @Test
    void opLogIsBoundedByCountAndBytes() {
        OpLog log = new OpLog(3, 1000);
        for (int i = 1; i <= 5; i++) {
            log.append(i, 1, new ByteKey(new byte[10]), LoggedChange.Kind.PUT, 0);
        }
        assertThat(log.size()).isEqualTo(3);
        OpLog small = new OpLog(100, 300);
        for (int i = 1; i <= 5; i++) {
            small.append(i, 1, new ByteKey(new byte[150]), LoggedChange.Kind.PUT, 0);
        }
        assertThat(small.bytes()).isLessThanOrEqualTo(300);
        assertThat(small.since(4, 5)).extracting(LoggedChange::revision).containsExactly(5L);
        assertThat(small.since(1, 5)).isNull();
    }

    private static byte[] key(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
