package io.zaris.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClusterViewCodecTests {

    @Test
    void viewWithLeaderRoundTrips() throws MalformedRequestException {
        ClusterView view = view().withLeader("b");

        ClusterView decoded = ClusterViewCodec.decode(encode(view));

        assertThat(decoded).isEqualTo(view);
        assertThat(decoded.leader()).isEqualTo("b");
    }

    @Test
    void viewWithoutLeaderRoundTripsAsUnknownLeader() throws MalformedRequestException {
        ClusterView decoded = ClusterViewCodec.decode(encode(view()));

        assertThat(decoded.leader()).isNull();
        assertThat(decoded).isEqualTo(view());
    }

    @Test
    void viewFromANodeThatDoesNotWriteTheLeaderStillDecodes() throws MalformedRequestException {
        ByteBuf full = encode(view());
        // Drop the trailing leader field (an empty string: its length prefix only) and the voters after it, as
        // an older node would.
        ByteBuf legacy = full.slice(0, full.readableBytes() - NO_SUSPENDED_LENGTH - votersLength(view()) - emptyStringLength());

        ClusterView decoded = ClusterViewCodec.decode(legacy);

        assertThat(decoded.leader()).isNull();
        assertThat(decoded.addresses()).isEqualTo(view().addresses());
    }

    @Test
    void viewFromANodeThatDoesNotWriteVotersDecodesWithTheMapsNodesAsVoters() throws MalformedRequestException {
        ClusterView view = withVoters(view(), Set.of("gone"));
        ByteBuf full = encode(view);
        ByteBuf legacy = full.slice(0, full.readableBytes() - NO_SUSPENDED_LENGTH - votersLength(view));

        ClusterView decoded = ClusterViewCodec.decode(legacy);

        assertThat(decoded.voters()).isEqualTo(view().partitionMap().nodes());
    }

    @Test
    void votersRoundTripAndAlwaysIncludeTheMapsNodes() throws MalformedRequestException {
        ClusterView view = withVoters(view(), Set.of("gone"));

        ClusterView decoded = ClusterViewCodec.decode(encode(view));

        assertThat(decoded).isEqualTo(view);
        assertThat(decoded.voters()).contains("gone").containsAll(view().partitionMap().nodes());
        assertThat(decoded.withLeader("b").withAddresses(Map.of()).voters()).isEqualTo(decoded.voters());
    }

    private static ClusterView withVoters(ClusterView view, Set<String> extra) {
        return view.withMapAndVoters(view.partitionMap(), view.runtimeMap(), extra);
    }

    /** Encoded length of an empty suspended field: its count. */
    private static final int NO_SUSPENDED_LENGTH = 4;

    @Test
    void suspendedMembersRoundTripAndAViewThatPredatesThemHasNone() throws MalformedRequestException {
        ClusterView view = view();
        ClusterView suspended = view.withSuspended(view.partitionMap(), view.runtimeMap(), Set.of("b"));
        ClusterView decoded = ClusterViewCodec.decode(encode(suspended));
        assertThat(decoded.suspended()).containsExactly("b");
        assertThat(decoded.serves("b", Set.of("a", "b"))).isFalse();
        assertThat(decoded.serves("a", Set.of("a", "b"))).isTrue();
        assertThat(decoded.withLeader("a").suspended()).containsExactly("b");

        ByteBuf full = encode(view);
        ClusterView older = ClusterViewCodec.decode(full.slice(0, full.readableBytes() - NO_SUSPENDED_LENGTH));
        assertThat(older.suspended()).isEmpty();
        assertThat(older.voters()).isEqualTo(view.voters());
    }

    /** Encoded length of the voters field: a count and one string per voter. */
    private static int votersLength(ClusterView view) {
        ByteBuf out = Unpooled.buffer();
        out.writeInt(view.voters().size());
        for (String voter : view.voters()) {
            Wire.writeString(out, voter);
        }
        return out.readableBytes();
    }

    @Test
    void foundersRoundTripAndSurviveEveryCopy() throws MalformedRequestException {
        ClusterView base = view();
        ClusterView view = new ClusterView(base.layout(), base.partitionMap(), base.runtimeMap(), base.addresses(), "a",
                Map.of("a", "incarnation-1", "b", "incarnation-2"));

        assertThat(ClusterViewCodec.decode(encode(view))).isEqualTo(view);
        assertThat(view.withLeader("b").withAddresses(Map.of()).withRuntimeMap(view.runtimeMap()).founders())
                .isEqualTo(view.founders());
        assertThat(view.isFoundingIncarnation("a", "incarnation-1")).isTrue();
        assertThat(view.isFoundingIncarnation("a", "incarnation-9")).isFalse();
        assertThat(base.isFoundingIncarnation("a", "anything")).as("a view without founders").isTrue();
    }

    @Test
    void withRuntimeMapAndWithAddressesKeepTheLeader() {
        ClusterView view = view().withLeader("a");

        assertThat(view.withRuntimeMap(view.runtimeMap()).leader()).isEqualTo("a");
        assertThat(view.withAddresses(Map.of()).leader()).isEqualTo("a");
        assertThat(view.withLeader("").leader()).isNull();
    }

    private static int emptyStringLength() {
        ByteBuf probe = Unpooled.buffer();
        Wire.writeString(probe, "");
        return probe.readableBytes();
    }

    private static ByteBuf encode(ClusterView view) {
        ByteBuf out = Unpooled.buffer();
        ClusterViewCodec.encode(view, out);
        return out;
    }

    private static ClusterView view() {
        PartitionMap map = new PartitionMap(3, 2, List.of(List.of("a", "b"), List.of("b", "a")));
        RuntimeMap runtime = new RuntimeMap(List.of(new PartitionRuntime("a", 4, PartitionHealth.HEALTHY),
                new PartitionRuntime("a", 7, PartitionHealth.DEGRADED)));
        return new ClusterView(PartitionLayout.of(4, 2), map, runtime,
                Map.of("a", new NodeAddress("127.0.0.1", 1001), "b", new NodeAddress("127.0.0.1", 1002)));
    }
}
