package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.server.ZarisNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A client blocked in BLPOP on a slot's owner learns that the slot moved away while the owner keeps running (a planned
 * drain): it is answered {@code -MOVED <slot> <new owner>}, which a cluster client follows to block again there.
 */
@Tag("in-process-cluster")
class BlockingPopMoveIntegrationTests {

    @Test
    void aBlockedPopIsAnsweredMovedWhenItsSlotMovesAway() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).resp(true).build().start()) {
            ClusterView view = cluster.leader().currentView();
            SegmentMapper mapper = new SegmentMapper(view.layout().segmentCount());
            String leader = cluster.leader().nodeId();
            String key = null;
            for (int i = 0; key == null; i++) { // a key whose owner is not the leader, so the owner can be drained
                String candidate = "queue-" + i;
                if (!leader.equals(view.runtimeOfSegment(mapper.segmentOf(bytes(candidate))).activeNode())) {
                    key = candidate;
                }
            }
            ZarisNode owner = cluster.node(view.runtimeOfSegment(mapper.segmentOf(bytes(key))).activeNode());
            NodeAddress address = owner.respAddress();
            int slot = SegmentMapper.slot(bytes(key));
            try (Socket consumer = new Socket(address.host(), address.port())) {
                consumer.setSoTimeout(60_000);
                consumer.getOutputStream().write(("BLPOP " + key + " 0\r\n").getBytes(StandardCharsets.US_ASCII));
                Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                        assertThat(RedisCli.exchangeLines(address, "INFO clients\n")).contains("blocked_clients:1\r\n"));

                CompletableFuture<Void> drained = owner.drain();

                String reply = readLine(consumer.getInputStream());
                assertThat(reply).startsWith("-MOVED " + slot + " ").doesNotEndWith(":" + address.port());
                drained.get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new IOException("connection closed after " + line);
            }
            line.append((char) c);
        }
        in.read(); // the LF
        return line.toString();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
