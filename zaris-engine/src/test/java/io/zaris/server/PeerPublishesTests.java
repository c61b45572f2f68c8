package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.time.TimeSource;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Relays to a peer that cannot be reached are dropped and counted (the count INFO reports), never queued without
 * bound: over real loopback TCP, against a port nothing listens on.
 */
class PeerPublishesTests {

    private static final byte[] CHANNEL = "news".getBytes(StandardCharsets.UTF_8);

    @Test
    void relaysToAnUnreachablePeerAreDroppedAndCounted() throws IOException {
        ClusterView view = view(closedLoopbackPort());
        try (PeerPublishes publishes = new PeerPublishes("n1", () -> view, null, null, TimeSource.system())) {
            assertThat(publishes.dropped()).isZero();

            for (int i = 0; i < 3; i++) {
                publishes.publish(CHANNEL, ("m" + i).getBytes(StandardCharsets.UTF_8));
            }

            // The three waited for the connection; its refusal drops them all.
            await().atMost(Duration.ofSeconds(30)).until(() -> publishes.dropped() == 3);
            publishes.publish(CHANNEL, "m3".getBytes(StandardCharsets.UTF_8));
            assertThat(publishes.dropped()).as("dropped at once while the failed peer is left alone").isEqualTo(4);
        }
    }

    @Test
    void aLoneNodeRelaysNothingAndDropsNothing() {
        ClusterView view = view(7102);
        try (PeerPublishes publishes = new PeerPublishes("n1", () -> lone(view), null, null, TimeSource.system())) {
            publishes.publish(CHANNEL, "m".getBytes(StandardCharsets.UTF_8));
            assertThat(publishes.dropped()).isZero();
        }
    }

    private static int closedLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** n1 (this node) and n2 at {@code peerPort} on loopback. */
    private static ClusterView view(int peerPort) {
        PartitionLayout layout = PartitionLayout.of(2, 2);
        PartitionMap owners = new PartitionMap(3, 2, List.of(List.of("n1", "n2"), List.of("n2", "n1")));
        return new ClusterView(layout, owners, new RuntimeMap(List.of(
                new PartitionRuntime("n1", 1, PartitionHealth.HEALTHY),
                new PartitionRuntime("n2", 1, PartitionHealth.HEALTHY))),
                Map.of("n1", new NodeAddress("127.0.0.1", 7101), "n2", new NodeAddress("127.0.0.1", peerPort)));
    }

    private static ClusterView lone(ClusterView view) {
        return new ClusterView(view.layout(), view.partitionMap(), view.runtimeMap(), Map.of("n1", new NodeAddress("127.0.0.1", 7101)));
    }
}
