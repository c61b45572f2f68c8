package io.zaris.client;

import static io.zaris.client.ClusterScenario.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.model.Change;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.Request;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.protocol.SegmentTrackAnswer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A key watch across a takeover whose new owner's history went another way, against stub nodes over loopback TCP
 * that script the wire exactly: the old owner pushes changes it applied but never replicated (it hung or died just
 * then), and the new owner writes other changes under the same revisions. This is the sequence behind the chaos
 * run's silently skipped change ('w1:23852', revision 534, issue 35): the partition's active was paused, its
 * partition failed over, and the new owner acknowledged that write under a revision the watch had already passed
 * with a change of the paused owner's. Real nodes cannot be made to stop between a push and its replication on
 * demand; the stubs can.
 */
@Tag("unit")
class KeyWatchTakeoverTests {

    private static final PartitionLayout LAYOUT = PartitionLayout.of(64, 8);
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String KEY = "watched-key";

    private final List<AutoCloseable> closeAfter = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closeAfter.size() - 1; i >= 0; i--) {
            closeAfter.get(i).close();
        }
    }

    /** What a watch heard, changes and notices in delivery order. */
    private static final class Heard implements KeyWatchListener {
        final List<Object> events = new CopyOnWriteArrayList<>();

        @Override
        public void onChange(KeyChange change) {
            events.add(change);
        }

        @Override
        public void onFellBehind(WatchGap gap) {
            events.add(gap);
        }
    }

    @Test
    void aWatchPastChangesItsOldOwnerNeverReplicatedIsToldEveryChangeUpToTheNewOwnersRevisionMayBeMissing()
            throws Exception {
        SegmentMapper mapper = new SegmentMapper(LAYOUT.segmentCount());
        int segment = mapper.segmentOf(bytes(KEY));
        int partition = LAYOUT.partitionOf(segment);
        byte[] other = bytes(keyOfSegment(mapper, segment));
        StubNode a = start("a");
        StubNode b = start("b");
        Map<String, NodeAddress> addresses = Map.of("a", a.address(), "b", b.address());
        ClusterView onA = StubNode.view(LAYOUT, addresses, p -> new PartitionRuntime("a", 3, PartitionHealth.HEALTHY));
        a.serve(onA);
        b.serve(onA);
        // a serves the segment under epoch 3; a fresh stream starts at its revision 1
        a.fallback(StubNode.tracked(new SegmentTrackAnswer(false, 1, 3, List.of())));
        // b took the partition over under epoch 4 at revision 1, the last change a had replicated, then wrote under its
        // own epoch: 2 another key, 3 KEY (acknowledged to its writer), 4 another key. Its change at 3 is not a's.
        b.fallback(StubNode.tracked(new SegmentTrackAnswer(false, 4, 4, List.of())));
        ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(List.of(a.address()))
                .environment(Map.of()).mapRefreshInterval(Duration.ofHours(1)).build());
        closeAfter.add(client);
        Heard heard = new Heard();
        KeyWatch watch = client.watch(KEY, heard);
        closeAfter.add(watch);
        await().atMost(BOUND).until(watch::isLive);

        // a applies KEY at 2 and another key at 3 and pushes both, then hangs before replicating them
        a.pushChanges(segment, List.of(new Change(2, 3, bytes(KEY), utf8("never replicated"), 0),
                new Change(3, 3, other, utf8("never replicated"), 0)));
        await().atMost(BOUND).until(() -> !heard.events.isEmpty());
        // the partition fails over to b
        ClusterView onB = StubNode.view(LAYOUT, addresses,
                p -> p == partition ? new PartitionRuntime("b", 4, PartitionHealth.HEALTHY)
                        : new PartitionRuntime("a", 3, PartitionHealth.HEALTHY));
        a.serve(onB);
        b.serve(onB);
        a.push(new RuntimeOwnershipChangedEvent(partition, new PartitionRuntime("b", 4, PartitionHealth.HEALTHY),
                b.address()));
        await().atMost(BOUND).until(() -> heard.events.size() >= 2 && watch.isLive());
        b.pushChanges(segment, List.of(new Change(5, 4, bytes(KEY), utf8("after the takeover"), 0)));
        await().atMost(BOUND).until(() -> heard.events.size() >= 3);

        assertThat(heard.events.get(1)).isInstanceOfSatisfying(WatchGap.class, notice -> assertThat(covers(notice, 3))
                .as("the notice " + notice + " covers b's acknowledged write of the key at 3, which the watch never "
                        + "heard: it passed revision 3 with a's change of another key").isTrue());
        assertThat(heard.events).containsExactly(new KeyChange(KEY, 2, false),
                new WatchGap(WatchGap.Reason.HISTORY_LOST, segment, -1, 4, -1), new KeyChange(KEY, 5, false));
        // b was asked to resume from a's position: revision 3, written under epoch 3
        assertThat(b.received()).singleElement().satisfies(track -> assertThat(track.request()).isEqualTo(
                new Request.TrackSegment(track.request().id(), segment, 3, 3)));
    }

    /** Whether a notice of the segment says the change at {@code revision} may be missing (see {@link WatchGap}). */
    private static boolean covers(WatchGap gap, long revision) {
        return revision <= gap.upToRevision() && (gap.afterRevision() < 0 || revision > gap.afterRevision());
    }

    private StubNode start(String nodeId) throws Exception {
        StubNode node = StubNode.start(nodeId);
        closeAfter.add(node);
        return node;
    }

    /** A key other than {@link #KEY} in {@code segment}. */
    private static String keyOfSegment(SegmentMapper mapper, int segment) {
        for (int i = 0; ; i++) {
            String candidate = "other-" + i;
            if (mapper.segmentOf(bytes(candidate)) == segment) {
                return candidate;
            }
        }
    }

    private static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }
}
