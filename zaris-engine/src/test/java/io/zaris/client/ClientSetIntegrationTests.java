package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.KvStatus;
import io.zaris.placement.PartitionLayout;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The native client's set operations against a real three-node cluster keeping two copies: routed to each key's
 * active owner like any key, answered as the RESP commands are, and refused on a string or a hash with
 * {@code WRONG_TYPE}.
 */
@Tag("in-process-cluster")
class ClientSetIntegrationTests {

    @Test
    void setOperationsAreRoutedAndAnswered() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).build())) {
            for (int s = 0; s < 20; s++) { // keys spread over every node
                assertThat(client.setAdd("tags:" + s, "red", "green", "red").join()).isEqualTo(2);
                assertThat(client.setAdd("tags:" + s, "green", "blue" + s).join()).isEqualTo(1);
            }
            for (int s = 0; s < 20; s++) {
                assertThat(client.setMembers("tags:" + s).join()).containsExactly("red", "green", "blue" + s);
                assertThat(client.setSize("tags:" + s).join()).isEqualTo(3);
                assertThat(client.setContains("tags:" + s, "blue" + s).join()).isTrue();
                assertThat(client.setContains("tags:" + s, "blue").join()).isFalse();
            }
            assertThat(client.setMembers("no-such-set").join()).isEmpty();
            assertThat(client.setSize("no-such-set").join()).isZero();
            assertThat(client.setRemove("tags:0", "red", "missing").join()).isEqualTo(1);
            assertThat(client.setRemove("tags:0", "green", "blue0").join()).isEqualTo(2);
            assertThat(client.get("tags:0").join()).as("the set left with its last member").isEmpty();
            assertThatThrownBy(() -> client.setAdd("tags:1")).isInstanceOf(IllegalArgumentException.class);

            client.put("plain", bytes("v")).join();
            client.hashSet("fields", Map.of("f", bytes("v"))).join();
            for (String other : new String[] {"plain", "fields"}) {
                assertThatThrownBy(() -> client.setAdd(other, "m").join()).isInstanceOf(CompletionException.class)
                        .cause().isInstanceOfSatisfying(ZarisStatusException.class,
                                e -> assertThat(e.status()).isEqualTo(KvStatus.WRONG_TYPE));
            }
            assertThatThrownBy(() -> client.hashGetAll("tags:1").join()).cause()
                    .isInstanceOfSatisfying(ZarisStatusException.class, e -> assertThat(e.getMessage()).contains("WRONGTYPE"));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
