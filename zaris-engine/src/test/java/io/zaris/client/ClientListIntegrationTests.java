package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.KvStatus;
import io.zaris.placement.PartitionLayout;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The native client's list operations against a real three-node cluster keeping two copies: routed to each key's
 * active owner like any key, answered as the RESP commands are, and refused on another type with {@code WRONG_TYPE}.
 */
@Tag("in-process-cluster")
class ClientListIntegrationTests {

    @Test
    void listOperationsAreRoutedAndAnswered() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).build())) {
            for (int l = 0; l < 20; l++) { // keys spread over every node
                assertThat(client.listPush("queue:" + l, ListEnd.TAIL, bytes("b"), bytes("c")).join()).isEqualTo(2);
                assertThat(client.listPush("queue:" + l, ListEnd.HEAD, bytes("a" + l)).join()).isEqualTo(3);
            }
            for (int l = 0; l < 20; l++) {
                assertThat(texts(client.listRange("queue:" + l, 0, -1).join())).containsExactly("a" + l, "b", "c");
                assertThat(texts(client.listRange("queue:" + l, -1, -1).join())).containsExactly("c");
                assertThat(client.listLength("queue:" + l).join()).isEqualTo(3);
            }
            assertThat(texts(client.listPop("queue:0", ListEnd.TAIL, 2).join())).containsExactly("c", "b");
            assertThat(texts(client.listPop("queue:0", ListEnd.HEAD, 5).join())).containsExactly("a0");
            assertThat(client.get("queue:0").join()).as("the list left with its last element").isEmpty();
            assertThat(client.listPop("no-such-list", ListEnd.HEAD, 1).join()).isEmpty();
            assertThat(client.listRange("no-such-list", 0, -1).join()).isEmpty();
            assertThat(client.listLength("no-such-list").join()).isZero();
            assertThatThrownBy(() -> client.listPush("queue:1", ListEnd.HEAD)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> client.listPop("queue:1", ListEnd.HEAD, -1)).isInstanceOf(IllegalArgumentException.class);

            client.put("plain", bytes("v")).join();
            client.setAdd("members", "m").join();
            for (String other : new String[] {"plain", "members"}) {
                assertThatThrownBy(() -> client.listPush(other, ListEnd.TAIL, bytes("x")).join())
                        .isInstanceOf(CompletionException.class).cause()
                        .isInstanceOfSatisfying(ZarisStatusException.class, e -> assertThat(e.status()).isEqualTo(KvStatus.WRONG_TYPE));
            }
            assertThatThrownBy(() -> client.setMembers("queue:1").join()).cause()
                    .isInstanceOfSatisfying(ZarisStatusException.class, e -> assertThat(e.getMessage()).contains("WRONGTYPE"));
        }
    }

    private static List<String> texts(List<byte[]> items) {
        return items.stream().map(item -> new String(item, StandardCharsets.UTF_8)).toList();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
