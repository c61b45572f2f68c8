package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.transport.NodeConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Copy-on-write retargeting of one partition, on real connections to two stub nodes. */
class RoutingTableTests {

    private static final PartitionLayout LAYOUT = PartitionLayout.of(64, 8);
    private static final int MOVED_PARTITION = 3;

    private StubNode a;
    private StubNode b;
    private StripedNodeConnections toA;
    private StripedNodeConnections toB;
    private ClusterView allOnA;

    @BeforeEach
    void connect() throws Exception {
        a = StubNode.start("a");
        b = StubNode.start("b");
        allOnA = StubNode.view(LAYOUT, Map.of("a", a.address(), "b", b.address()),
                p -> new PartitionRuntime("a", 1, PartitionHealth.HEALTHY));
        a.serve(allOnA);
        b.serve(allOnA);
        toA = open(a);
        toB = open(b);
    }

    @AfterEach
    void close() throws Exception {
        toA.close();
        toB.close();
        a.close();
        b.close();
    }

    @Test
    void withPartitionRetargetsOnlyThatPartitionsSegmentsAndLeavesTheOldTableAlone() {
        RoutingTable table = RoutingTable.build(allOnA, Map.of("a", toA, "b", toB));
        ClusterView updated = withRuntime(allOnA, MOVED_PARTITION, new PartitionRuntime("b", 2, PartitionHealth.HEALTHY));

        RoutingTable moved = table.withPartition(MOVED_PARTITION, updated);

        for (int segment = 0; segment < LAYOUT.segmentCount(); segment++) {
            if (LAYOUT.partitionOf(segment) == MOVED_PARTITION) {
                assertThat(moved.connectionFor(segment)).as("segment %d", segment).isSameAs(toB.forSegment(segment));
                assertThat(moved.epochOf(segment)).isEqualTo(2);
                assertThat(table.connectionFor(segment)).as("the old table is unchanged").isSameAs(toA.forSegment(segment));
            } else {
                assertThat(moved.connectionFor(segment)).as("segment %d", segment).isSameAs(table.connectionFor(segment));
            }
        }
        assertThat(moved.view()).isSameAs(updated);
        assertThat(moved.connections()).isSameAs(table.connections());
        assertThat(moved.liveOwnerOf(MOVED_PARTITION)).isEqualTo("b");
    }

    @Test
    void aPartitionWithoutAServingOwnerRoutesNowhere() {
        RoutingTable table = RoutingTable.build(allOnA, Map.of("a", toA, "b", toB));
        ClusterView updated = withRuntime(allOnA, MOVED_PARTITION, new PartitionRuntime(null, 2, PartitionHealth.UNAVAILABLE));

        RoutingTable moved = table.withPartition(MOVED_PARTITION, updated);

        assertThat(moved.connectionFor(LAYOUT.firstSegmentOf(MOVED_PARTITION))).isNull();
        assertThat(moved.connectionFor(LAYOUT.lastSegmentOf(MOVED_PARTITION))).isNull();
        assertThat(moved.liveOwnerOf(MOVED_PARTITION)).isNull();
        assertThat(moved.liveOwnerOf(MOVED_PARTITION + 1)).isEqualTo("a");
        assertThat(moved.liveOwnerOf(LAYOUT.partitionCount())).as("no such partition").isNull();
    }

    @Test
    void anOwnerWhoseConnectionClosedIsNotALiveOwner() {
        RoutingTable table = RoutingTable.build(allOnA, Map.of("a", toA, "b", toB));
        toA.close();
        assertThat(table.liveOwnerOf(0)).isNull();
    }

    private static ClusterView withRuntime(ClusterView view, int partition, PartitionRuntime runtime) {
        List<PartitionRuntime> runtimes = new ArrayList<>(view.runtimeMap().partitions());
        runtimes.set(partition, runtime);
        return view.withRuntimeMap(new RuntimeMap(runtimes));
    }

    private static StripedNodeConnections open(StubNode node) throws Exception {
        return StripedNodeConnections.open(2, () -> NodeConnection.open(node.address(), "routing-table-test",
                Duration.ofSeconds(5), Duration.ofSeconds(5), 100, ProtocolLimits.DEFAULT_MAX_FRAME_BYTES,
                event -> { }, lost -> { })).get(10, TimeUnit.SECONDS);
    }
}
