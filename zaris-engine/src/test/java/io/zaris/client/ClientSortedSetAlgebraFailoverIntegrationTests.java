package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The sorted-set algebra, its stores, a range store, TYPE and RENAME across the stop of their keys' owner (a clean
 * leave of a node that is not the leader): reads and idempotent stores sent as the owner stops are retried by the one
 * retry brain and answered by the new owner, and what was stored or renamed before the stop is there after it.
 */
@Tag("in-process-cluster")
class ClientSortedSetAlgebraFailoverIntegrationTests {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void algebraStoresAndRenamesAreServedByTheNewOwnerAfterTheOldOneStops() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).build().start();
             ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds())
                     .environment(Map.of()).build())) {
            String leader = cluster.leader().nodeId();
            String tag = null;
            for (int i = 0; tag == null; i++) {
                String candidate = "{board-" + i + "}";
                if (!client.ownerOf(candidate).equals(leader)) {
                    tag = candidate;
                }
            }
            String monday = tag + "mon";
            String tuesday = tag + "tue";
            client.sortedSetAdd(monday, Map.of("ada", 3.0, "alan", 1.0, "grace", 2.0)).join();
            client.sortedSetAdd(tuesday, Map.of("ada", 4.0, "grace", 5.0, "linus", 7.0)).join();
            assertThat(client.sortedSetUnionStore(tag + "week", monday, tuesday).join()).isEqualTo(4);
            client.rename(tag + "week", tag + "archive").join();
            List<ScoredMember> union = client.sortedSetUnion(monday, tuesday).join();
            String victim = client.ownerOf(monday);

            cluster.stopNode(victim);
            CompletableFuture<List<ScoredMember>> unionAfter = client.sortedSetUnion(monday, tuesday);
            CompletableFuture<Long> stored = client.sortedSetIntersectionStore(tag + "both", monday, tuesday);
            CompletableFuture<Optional<KeyType>> archived = client.type(tag + "archive");

            assertThat(unionAfter.join()).isEqualTo(union);
            assertThat(stored.join()).isEqualTo(2);
            assertThat(archived.join()).as("the rename made before the stop").contains(KeyType.SORTED_SET);
            await().atMost(BOUND).until(() -> !client.ownerOf(monday).equals(victim));
            assertThat(client.sortedSetRange(tag + "archive", 0, -1).join()).isEqualTo(union);
            assertThat(client.exists(tag + "week").join()).isFalse();
            assertThat(client.sortedSetRange(tag + "both", 0, -1).join()).containsExactly(
                    new ScoredMember("ada", 7.0), new ScoredMember("grace", 7.0));
            assertThat(client.sortedSetRangeStore(tag + "top", tag + "archive", -1, -1).join()).isEqualTo(1);
            assertThat(client.sortedSetRange(tag + "top", 0, -1).join()).containsExactly(new ScoredMember("linus", 7.0));
            client.rename(tag + "top", tag + "best").join();
            assertThat(client.type(tag + "best").join()).contains(KeyType.SORTED_SET);
            assertThat(client.ownerOf(monday)).isNotEqualTo(victim);
        }
    }
}
