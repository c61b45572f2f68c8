package io.zaris.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.KvStatus;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Size limits given to an embedded cluster reach every node's data port. */
@Tag("in-process-cluster")
class EmbeddedClusterLimitsIntegrationTests {

    private static final int MAX_KEY = 100;
    private static final int MAX_VALUE = 64 * 1024;

    @Test
    void everyNodeEnforcesTheLimitsTheClusterWasBuiltWith() {
        ProtocolLimits limits = new ProtocolLimits(ProtocolLimits.MIN_NODE_FRAME_BYTES, MAX_KEY, MAX_VALUE, 50);
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).limits(limits).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.create(cluster.seeds()))) {
            // Keys spread over every node, so each node's own limit is exercised.
            for (int i = 0; i < 30; i++) {
                String key = "limit-" + i;
                client.sync().put(key, new byte[MAX_VALUE]);
                assertThat(client.sync().get(key)).get().satisfies(v -> assertThat(v.value()).hasSize(MAX_VALUE));
                assertThatThrownBy(() -> client.sync().put(key, new byte[MAX_VALUE + 1]))
                        .isInstanceOfSatisfying(ZarisStatusException.class,
                                e -> assertThat(e.status()).isEqualTo(KvStatus.TOO_LARGE));
            }
            String longKey = "k".repeat(MAX_KEY + 1);
            assertThatThrownBy(() -> client.sync().put(longKey, "v".getBytes(StandardCharsets.UTF_8)))
                    .isInstanceOfSatisfying(ZarisStatusException.class,
                            e -> assertThat(e.status()).isEqualTo(KvStatus.TOO_LARGE));
            assertThat(cluster.nodes()).allSatisfy(node -> assertThat(node.stats().rejectedRequests()).isPositive());
        }
    }

    @Test
    void aFrameLimitTooSmallForTheLargestKeyAndValueIsRefusedByTheBuilder() {
        ProtocolLimits tooSmall = new ProtocolLimits(ProtocolLimits.MIN_NODE_FRAME_BYTES, 1024, 4 * 1024 * 1024, 50);
        assertThatThrownBy(() -> EmbeddedCluster.builder().limits(tooSmall))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("give at least " + (4 * 1024 * 1024 + 1024 + ProtocolLimits.FRAME_HEADROOM_BYTES));
        ProtocolLimits belowNodeFrames = new ProtocolLimits(64 * 1024, 16, 256, 8);
        assertThatThrownBy(() -> EmbeddedCluster.builder().limits(belowNodeFrames))
                .hasMessageContaining("give at least " + ProtocolLimits.MIN_NODE_FRAME_BYTES);
    }
}
