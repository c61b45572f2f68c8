package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.KvStatus;
import io.zaris.placement.PartitionLayout;
import io.zaris.transport.ZarisWrongTypeException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The native client's hash operations against a real three-node cluster keeping two copies: routed to each key's
 * active owner like any key, answered as the RESP commands are, and refused on a string with {@code WRONG_TYPE}.
 */
@Tag("in-process-cluster")
class ClientHashIntegrationTests {

    @Test
    void hashOperationsAreRoutedAndAnswered() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).build())) {
            for (int h = 0; h < 20; h++) { // keys spread over every node
                Map<String, byte[]> fields = new LinkedHashMap<>();
                fields.put("name", bytes("user-" + h));
                fields.put("visits", bytes("1"));
                assertThat(client.hashSet("user:" + h, fields).join()).isEqualTo(2);
                assertThat(client.hashIncrement("user:" + h, "visits", h).join()).isEqualTo(1 + h);
                CounterValue first = client.hashIncrementVersioned("user:" + h, "visits", 1).join();
                CounterValue second = client.hashIncrementVersioned("user:" + h, "visits", -1).join();
                assertThat(first.value()).isEqualTo(2 + h);
                assertThat(second.value()).isEqualTo(1 + h);
                assertThat(second.version()).as("each change names its own, later version")
                        .isGreaterThan(first.version());
                assertThat(first.version()).isPositive();
            }
            for (int h = 0; h < 20; h++) {
                Map<String, byte[]> all = client.hashGetAll("user:" + h).join();
                assertThat(all.keySet()).containsExactly("name", "visits");
                assertThat(text(all.get("name"))).isEqualTo("user-" + h);
                assertThat(text(client.hashGet("user:" + h, "visits").join())).isEqualTo(Integer.toString(1 + h));
            }
            assertThat(client.hashGet("user:0", "missing").join()).isNull();
            assertThat(client.hashGetAll("no-such-hash").join()).isEmpty();
            assertThat(client.hashDelete("user:0", "name", "missing").join()).isEqualTo(1);
            assertThat(client.hashDelete("user:0", "visits").join()).isEqualTo(1);
            assertThat(client.get("user:0").join()).as("the hash left with its last field").isEmpty();

            client.put("plain", bytes("v")).join();
            assertThatThrownBy(() -> client.hashGet("plain", "f").join()).isInstanceOf(CompletionException.class)
                    .cause().isInstanceOfSatisfying(ZarisWrongTypeException.class,
                            e -> assertThat(e.status()).isEqualTo(KvStatus.WRONG_TYPE));
            assertThatThrownBy(() -> client.get("user:1").join()).cause()
                    .isInstanceOfSatisfying(ZarisWrongTypeException.class, e -> assertThat(e.getMessage()).contains("WRONGTYPE"));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
