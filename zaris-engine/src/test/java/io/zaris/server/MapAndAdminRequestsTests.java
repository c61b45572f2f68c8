package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.MapFingerprint;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.Request;
import io.zaris.protocol.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The requests about the node rather than a key: each answered whole, and only these taken. */
@Tag("unit")
class MapAndAdminRequestsTests {

    private final AtomicReference<ClusterView> held = new AtomicReference<>();
    private final NodeStats stats = new NodeStats();
    private final RecordingAdmin admin = new RecordingAdmin();
    private final MapAndAdminRequests requests = new MapAndAdminRequests("n1", held::get, stats, admin);
    private final ByteBuf out = Unpooled.buffer();

    @AfterEach
    void release() {
        out.release();
    }

    @Test
    void theClusterMapIsAnsweredWithTheHeldViewAndCounted() throws Exception {
        held.set(view());

        assertThat(requests.handle(new Request.ClusterMap(7), out)).isTrue();

        assertThat(header(7)).isEqualTo(KvStatus.OK);
        assertThat(ClusterViewCodec.decode(out)).isEqualTo(view());
        assertThat(stats.mapRequests()).isEqualTo(1);
    }

    @Test
    void theMapVersionIsTheHeldViewsFingerprint() throws Exception {
        held.set(view());

        assertThat(requests.handle(new Request.MapVersion(8), out)).isTrue();

        assertThat(header(8)).isEqualTo(KvStatus.OK);
        assertThat(MapFingerprint.decode(out)).isEqualTo(MapFingerprint.of(view()));
    }

    @Test
    void withoutAMapEveryOneIsUnavailableAndNoOperatorCommandRuns() throws Exception {
        for (Request request : List.of(new Request.ClusterMap(1), new Request.MapVersion(2),
                new Request.AdminDrain(3), new Request.AdminRebalance(4))) {
            out.clear();
            assertThat(requests.handle(request, out)).isTrue();
            assertThat(header(request.id())).isEqualTo(KvStatus.UNAVAILABLE);
            assertThat(Wire.readString(out, request.id(), "message")).startsWith("node n1 has no cluster map yet");
        }
        assertThat(admin.calls).isEmpty();
    }

    @Test
    void aDrainIsAskedOfTheNodeAndItsRefusalAnswered() throws Exception {
        held.set(view());

        requests.handle(new Request.AdminDrain(5), out);
        assertThat(header(5)).isEqualTo(KvStatus.OK);

        admin.drainRefusal = "no other node is present";
        out.clear();
        requests.handle(new Request.AdminDrain(6), out);
        assertThat(header(6)).isEqualTo(KvStatus.UNAVAILABLE);
        assertThat(Wire.readString(out, 6, "message")).isEqualTo("no other node is present");
        assertThat(admin.calls).containsExactly("drain", "drain");
    }

    @Test
    void aRebalanceIsAskedOfTheNode() throws Exception {
        held.set(view());

        requests.handle(new Request.AdminRebalance(9), out);

        assertThat(header(9)).isEqualTo(KvStatus.OK);
        assertThat(admin.calls).containsExactly("rebalance");
    }

    @Test
    void aKeyedRequestIsLeftToTheDataPathUntouched() {
        held.set(view());

        assertThat(requests.handle(new Request.Get(1, "k".getBytes()), out)).isFalse();

        assertThat(out.readableBytes()).isZero();
        assertThat(stats.mapRequests()).isZero();
    }

    /** Reads a response header, checking it answers {@code id}; returns its status. */
    private KvStatus header(long id) {
        assertThat(out.readUnsignedByte()).isEqualTo((short) OpCode.RESPONSE_FRAME);
        assertThat(out.readLong()).isEqualTo(id);
        return KvStatus.fromCode(out.readUnsignedByte());
    }

    private static ClusterView view() {
        PartitionLayout layout = PartitionLayout.of(2, 2);
        PartitionMap owners = new PartitionMap(3, 2, List.of(List.of("n1", "n2"), List.of("n2", "n1")));
        return new ClusterView(layout, owners, new RuntimeMap(List.of(
                new PartitionRuntime("n1", 1, PartitionHealth.HEALTHY),
                new PartitionRuntime("n2", 1, PartitionHealth.HEALTHY))),
                Map.of("n1", new NodeAddress("127.0.0.1", 7101), "n2", new NodeAddress("127.0.0.1", 7102)));
    }

    /** The node's side of the operator commands, recording what was asked. */
    private static final class RecordingAdmin implements AdminActions {
        private final List<String> calls = new ArrayList<>();
        private String drainRefusal;

        @Override
        public String drain() {
            calls.add("drain");
            return drainRefusal;
        }

        @Override
        public void rebalance() {
            calls.add("rebalance");
        }
    }
}
