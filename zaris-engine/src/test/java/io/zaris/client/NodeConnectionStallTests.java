package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.model.KvStatus;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.transport.NodeConnection;
import io.zaris.transport.ZarisTransportException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A connection whose requests get no response probes the node, and closes when not even the probe is answered: TCP
 * keeps a connection to a hung node, or across a path that drops everything, open for minutes, and requests on it
 * would wait out their whole timeout.
 */
class NodeConnectionStallTests {

    private static final long NO_DEADLINE = Long.MAX_VALUE;

    @Test
    void aNodeThatAnswersTheProbeKeepsTheConnectionWhileARequestWaits() throws Exception {
        try (StubNode node = servingStub();
             NodeConnection connection = open(node)) {
            node.script(StubNode.silence());
            CompletableFuture<KvStatus> held = get(connection, "held");

            await().atMost(Duration.ofSeconds(30)).until(() -> node.mapVersionRequests() >= 2);
            assertThat(connection.isOpen()).as("the node answered its probes: it is alive, the request is just slow").isTrue();
            assertThat(held).isNotDone();
        }
    }

    @Test
    void aNodeThatAnswersNothingLosesTheConnectionAndItsRequestsFailAsTransportErrors() throws Exception {
        try (StubNode node = servingStub();
             NodeConnection connection = open(node)) {
            node.freeze();
            CompletableFuture<KvStatus> held = get(connection, "held");

            ExecutionException failure = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> held.get(30, TimeUnit.SECONDS));
            assertThat(failure.getCause()).isInstanceOf(ZarisTransportException.class)
                    .hasMessageContaining("not even to a liveness probe");
            assertThat(connection.isOpen()).isFalse();
        }
    }

    @Test
    void nothingIsProbedWhileResponsesArrive() throws Exception {
        try (StubNode node = servingStub();
             NodeConnection connection = open(node)) {
            node.fallback(StubNode.notFound());
            long until = System.nanoTime() + Duration.ofMillis(2500).toNanos(); // the probe would come after 1 s
            while (System.nanoTime() - until < 0) {
                assertThat(get(connection, "k").get(10, TimeUnit.SECONDS)).isEqualTo(KvStatus.NOT_FOUND);
            }
            assertThat(node.mapVersionRequests()).isZero();
        }
    }

    private static StubNode servingStub() throws Exception {
        StubNode node = StubNode.start("n1");
        node.serve(StubNode.view(PartitionLayout.of(4, 1), Map.of("n1", node.address()),
                p -> new PartitionRuntime("n1", 1, PartitionHealth.HEALTHY)));
        return node;
    }

    private static CompletableFuture<KvStatus> get(NodeConnection connection, String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        return connection.send(id -> new Request.Get(id, bytes), (status, body) -> status, 0, 0, NO_DEADLINE);
    }

    private static NodeConnection open(StubNode node) throws Exception {
        return NodeConnection.open(node.address(), "stall-test", Duration.ofSeconds(5), Duration.ofSeconds(5), 100,
                ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, event -> { }, lost -> { }).get(10, TimeUnit.SECONDS);
    }
}
