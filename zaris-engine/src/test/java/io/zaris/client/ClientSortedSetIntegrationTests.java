package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.KvStatus;
import io.zaris.placement.PartitionLayout;
import io.zaris.transport.ZarisStatusException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The native client's sorted-set operations against a real three-node cluster keeping two copies: routed to each
 * key's active owner like any key, answered as the RESP commands are (scores exact, infinities included), and
 * refused on another type with {@code WRONG_TYPE}.
 */
@Tag("in-process-cluster")
class ClientSortedSetIntegrationTests {

    @Test
    void sortedSetOperationsAreRoutedAndAnswered() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).build())) {
            for (int b = 0; b < 20; b++) { // keys spread over every node
                Map<String, Double> scores = new LinkedHashMap<>();
                scores.put("alice", 0.1);
                scores.put("bob", 20.0 + b);
                scores.put("carol", Double.NEGATIVE_INFINITY);
                assertThat(client.sortedSetAdd("board:" + b, scores).join()).isEqualTo(3);
                assertThat(client.sortedSetAdd("board:" + b, Map.of("bob", 1e20, "dave", 5.0)).join()).isEqualTo(1);
            }
            for (int b = 0; b < 20; b++) {
                assertThat(client.sortedSetRange("board:" + b, 0, -1).join()).containsExactly(
                        new ScoredMember("carol", Double.NEGATIVE_INFINITY), new ScoredMember("alice", 0.1),
                        new ScoredMember("dave", 5.0), new ScoredMember("bob", 1e20));
                assertThat(client.sortedSetScore("board:" + b, "alice").join()).as("exact").isEqualTo(0.1);
                assertThat(client.sortedSetSize("board:" + b).join()).isEqualTo(4);
            }
            assertThat(client.sortedSetIncrement("board:0", "alice", 0.2).join()).isEqualTo(0.1 + 0.2);
            assertThat(client.sortedSetRank("board:0", "alice", false).join()).isEqualTo(1);
            assertThat(client.sortedSetRank("board:0", "bob", true).join()).isZero();
            assertThat(client.sortedSetRank("board:0", "nobody", false).join()).isNull();
            assertThat(client.sortedSetRangeByScore("board:0", 0, 10).join()).extracting(ScoredMember::member)
                    .containsExactly("alice", "dave");
            assertThat(client.sortedSetScore("board:0", "nobody").join()).isNull();
            assertThat(client.sortedSetRange("no-such-board", 0, -1).join()).isEmpty();
            assertThat(client.sortedSetRemove("board:0", "alice", "bob", "carol", "dave", "nobody").join()).isEqualTo(4);
            assertThat(client.get("board:0").join()).as("the sorted set left with its last member").isEmpty();
            assertThatThrownBy(() -> client.sortedSetAdd("board:1", Map.of("x", Double.NaN)))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> client.sortedSetIncrement("board:1", "carol", Double.POSITIVE_INFINITY).join())
                    .cause().isInstanceOfSatisfying(ZarisStatusException.class,
                            e -> assertThat(e.status()).isEqualTo(KvStatus.BAD_REQUEST));

            client.put("plain", "v".getBytes(StandardCharsets.UTF_8)).join();
            client.setAdd("tags", "m").join();
            for (String other : new String[] {"plain", "tags"}) {
                assertThatThrownBy(() -> client.sortedSetAdd(other, Map.of("m", 1.0)).join())
                        .isInstanceOf(CompletionException.class).cause()
                        .isInstanceOfSatisfying(ZarisStatusException.class,
                                e -> assertThat(e.status()).isEqualTo(KvStatus.WRONG_TYPE));
            }
            assertThatThrownBy(() -> client.setMembers("board:1").join()).cause()
                    .isInstanceOfSatisfying(ZarisStatusException.class, e -> assertThat(e.getMessage()).contains("WRONGTYPE"));
        }
    }
}
