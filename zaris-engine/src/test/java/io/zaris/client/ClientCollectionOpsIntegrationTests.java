package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.KvStatus;
import io.zaris.placement.PartitionLayout;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisWrongTypeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The native client's further collection operations (HMGET-like reads, list index/set/trim/remove/move, the blocking
 * pop, set pops, random members and algebra, sorted-set pops, counts, range removal and reverse ranges) against a
 * real three-node cluster keeping two copies: answered as the RESP commands are, refused with typed errors, and the
 * blocking pop waiting across the stop of its key's owner.
 */
@Tag("in-process-cluster")
class ClientCollectionOpsIntegrationTests {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void furtherCollectionOperationsAreRoutedAndAnswered() {
        try (EmbeddedCluster cluster = cluster(); ZarisClient client = client(cluster)) {
            // hashes
            Map<String, byte[]> fields = new LinkedHashMap<>();
            fields.put("name", bytes("ada"));
            fields.put("plan", bytes("pro"));
            client.hashSet("user:1", fields).join();
            assertThat(texts(client.hashGetMany("user:1", "plan", "nope", "name").join()))
                    .containsExactly(Map.entry("plan", "pro"), Map.entry("name", "ada"));
            assertThat(client.hashGetMany("no-such-hash", "name").join()).isEmpty();
            assertThat(client.hashContains("user:1", "name").join()).isTrue();
            assertThat(client.hashContains("user:1", "nope").join()).isFalse();
            assertThat(client.hashContains("no-such-hash", "name").join()).isFalse();
            assertThat(client.hashFields("user:1").join()).containsExactly("name", "plan");
            assertThat(client.hashSize("user:1").join()).isEqualTo(2);
            assertThat(client.hashSize("no-such-hash").join()).isZero();

            // lists
            client.listPush("{q}jobs", ListEnd.TAIL, bytes("a"), bytes("b"), bytes("a"), bytes("c"), bytes("a")).join();
            assertThat(text(client.listIndex("{q}jobs", 1).join())).isEqualTo("b");
            assertThat(text(client.listIndex("{q}jobs", -1).join())).isEqualTo("a");
            assertThat(client.listIndex("{q}jobs", 99).join()).isNull();
            assertThat(client.listIndex("no-such-list", 0).join()).isNull();
            client.listSet("{q}jobs", -2, bytes("C")).join();
            assertThat(client.listRemove("{q}jobs", -1, bytes("a")).join()).as("the last 'a' only").isEqualTo(1);
            assertThat(texts(client.listRange("{q}jobs", 0, -1).join())).containsExactly("a", "b", "a", "C");
            assertThat(client.listRemove("{q}jobs", 0, bytes("a")).join()).isEqualTo(2);
            client.listPush("{q}jobs", ListEnd.HEAD, bytes("z")).join();
            client.listTrim("{q}jobs", 1, -1).join();
            assertThat(texts(client.listRange("{q}jobs", 0, -1).join())).containsExactly("b", "C");
            assertThat(text(client.listMove("{q}jobs", "{q}done", ListEnd.HEAD, ListEnd.TAIL).join())).isEqualTo("b");
            assertThat(text(client.listMove("{q}jobs", "{q}done", ListEnd.TAIL, ListEnd.HEAD).join())).isEqualTo("C");
            assertThat(client.listMove("{q}jobs", "{q}done", ListEnd.HEAD, ListEnd.HEAD).join())
                    .as("the source went with its last element").isNull();
            assertThat(texts(client.listRange("{q}done", 0, -1).join())).containsExactly("C", "b");
            assertBadRequest(client.listSet("{q}jobs", 0, bytes("x")), "no such key");
            assertBadRequest(client.listSet("{q}done", 5, bytes("x")), "index out of range");
            assertThat(client.listBlockingPop("{q}empty", ListEnd.HEAD, Duration.ofMillis(300)).join())
                    .as("the timeout passed with nothing to pop").isNull();
            assertThat(text(client.listBlockingPop("{q}done", ListEnd.TAIL, Duration.ofSeconds(5)).join())).isEqualTo("b");

            // sets
            client.setAdd("{t}a", "x", "y", "z").join();
            client.setAdd("{t}b", "y", "z", "w").join();
            assertThat(client.setIntersection("{t}a", "{t}b").join()).containsExactly("y", "z");
            assertThat(client.setUnion("{t}a", "{t}b", "{t}none").join()).containsExactlyInAnyOrder("x", "y", "z", "w");
            assertThat(client.setDifference("{t}a", "{t}b").join()).containsExactly("x");
            assertThat(client.setIntersection("{t}a", "{t}none").join()).isEmpty();
            client.put("{t}dest", bytes("a string, replaced")).join();
            assertThat(client.setUnionStore("{t}dest", "{t}a", "{t}b").join()).isEqualTo(4);
            assertThat(client.setMembers("{t}dest").join()).containsExactlyInAnyOrder("x", "y", "z", "w");
            assertThat(client.setDifferenceStore("{t}dest", "{t}a", "{t}a").join()).isZero();
            assertThat(client.get("{t}dest").join()).as("an empty result leaves the destination absent").isEmpty();
            assertThat(client.setIntersectionStore("{t}dest", "{t}a", "{t}b").join()).isEqualTo(2);
            assertThat(client.setRandomMembers("{t}a", 2).join()).hasSize(2).doesNotHaveDuplicates()
                    .isSubsetOf("x", "y", "z");
            assertThat(client.setRandomMembers("{t}a", -7).join()).as("a negative count may repeat").hasSize(7)
                    .isSubsetOf("x", "y", "z");
            assertThat(client.setRandomMembers("no-such-set", 3).join()).isEmpty();
            assertThat(client.setPop("{t}a", 2).join()).hasSize(2).isSubsetOf("x", "y", "z");
            assertThat(client.setSize("{t}a").join()).isEqualTo(1);
            assertThat(client.setPop("{t}a", 5).join()).hasSize(1);
            assertThat(client.get("{t}a").join()).as("the set left with its last member").isEmpty();
            assertThat(client.setPop("{t}a", 1).join()).isEmpty();

            // sorted sets
            Map<String, Double> scores = new LinkedHashMap<>();
            scores.put("a", 1.0);
            scores.put("b", 2.0);
            scores.put("c", 3.0);
            scores.put("d", 4.0);
            scores.put("e", Double.POSITIVE_INFINITY);
            client.sortedSetAdd("board", scores).join();
            assertThat(client.sortedSetCount("board", 2, 4).join()).isEqualTo(3);
            assertThat(client.sortedSetCount("board", 5, Double.POSITIVE_INFINITY).join()).isEqualTo(1);
            assertThat(client.sortedSetCount("no-such-board", 0, 1).join()).isZero();
            assertThat(client.sortedSetReverseRange("board", 0, 1).join())
                    .containsExactly(new ScoredMember("e", Double.POSITIVE_INFINITY), new ScoredMember("d", 4.0));
            assertThat(client.sortedSetReverseRangeByScore("board", 2, 3).join()).extracting(ScoredMember::member)
                    .containsExactly("c", "b");
            assertThat(client.sortedSetPopMin("board", 1).join()).containsExactly(new ScoredMember("a", 1.0));
            assertThat(client.sortedSetPopMax("board", 2).join()).containsExactly(
                    new ScoredMember("e", Double.POSITIVE_INFINITY), new ScoredMember("d", 4.0));
            assertThat(client.sortedSetRemoveRangeByScore("board", 2.5, 10).join()).isEqualTo(1);
            assertThat(client.sortedSetRange("board", 0, -1).join()).containsExactly(new ScoredMember("b", 2.0));
            assertThat(client.sortedSetPopMin("board", 3).join()).hasSize(1);
            assertThat(client.get("board").join()).as("the sorted set left with its last member").isEmpty();
            assertThat(client.sortedSetPopMax("board", 1).join()).isEmpty();

            // typed errors
            client.put("plain", bytes("v")).join();
            List<CompletableFuture<?>> wrongType = List.of(client.hashGetMany("plain", "f"), client.hashFields("plain"),
                    client.hashSize("plain"), client.listIndex("plain", 0), client.listTrim("plain", 0, 1),
                    client.listBlockingPop("plain", ListEnd.HEAD, Duration.ofSeconds(1)), client.setPop("plain", 1),
                    client.setRandomMembers("plain", 1), client.setIntersection("plain"),
                    client.sortedSetCount("plain", 0, 1), client.sortedSetPopMin("plain", 1),
                    client.sortedSetReverseRange("plain", 0, -1), client.sortedSetRemoveRangeByScore("plain", 0, 1));
            for (CompletableFuture<?> operation : wrongType) {
                assertThatThrownBy(operation::join).cause().isInstanceOf(ZarisWrongTypeException.class);
            }
            client.listPush("{t}list", ListEnd.TAIL, bytes("x")).join();
            assertThatThrownBy(() -> client.setUnion("{t}b", "{t}list").join()).as("one source of another type")
                    .cause().isInstanceOf(ZarisWrongTypeException.class);
            assertThatThrownBy(() -> client.setUnionStore("{t}dest", "{t}none", "{t}list").join())
                    .cause().isInstanceOf(ZarisWrongTypeException.class);
            assertThat(client.setMembers("{t}dest").join()).as("a failed store leaves the destination alone")
                    .containsExactlyInAnyOrder("y", "z");
        }
    }

    /**
     * A consumer blocked on an empty list keeps waiting while the list's owner stops (a clean leave of a node that is
     * not the leader), its looks retried across the failover, and receives the elements a producer pushes to the new
     * owner afterwards, each once and in order.
     */
    @Test
    void aBlockingPopWaitsAcrossTheStopOfItsKeysOwner() {
        try (EmbeddedCluster cluster = cluster(); ZarisClient consumer = client(cluster); ZarisClient producer = client(cluster)) {
            String leader = cluster.leader().nodeId();
            String queue = null;
            for (int i = 0; queue == null; i++) {
                String candidate = "queue:" + i;
                if (!consumer.ownerOf(candidate).equals(leader)) {
                    queue = candidate;
                }
            }
            String victim = consumer.ownerOf(queue);
            producer.listPush(queue, ListEnd.TAIL, bytes("before")).join();
            assertThat(text(consumer.listBlockingPop(queue, ListEnd.HEAD, BOUND).join())).isEqualTo("before");

            CompletableFuture<byte[]> first = consumer.listBlockingPop(queue, ListEnd.HEAD, BOUND);
            cluster.stopNode(victim);
            assertThat(first).as("nothing was pushed yet").isNotDone();
            // The push is not repeated once it may have been applied: sent on the producer's connection to the stopped
            // node before that connection is seen closed, it would fail as ambiguous. So it waits for the new owner.
            String stoppedOwner = victim;
            String waitedKey = queue;
            await().atMost(BOUND).until(() -> !producer.ownerOf(waitedKey).equals(stoppedOwner));
            producer.listPush(queue, ListEnd.TAIL, bytes("after-1"), bytes("after-2")).join();

            await().atMost(BOUND).until(first::isDone);
            assertThat(text(first.join())).isEqualTo("after-1");
            assertThat(text(consumer.listBlockingPop(queue, ListEnd.HEAD, BOUND).join())).isEqualTo("after-2");
            assertThat(consumer.ownerOf(queue)).isNotEqualTo(victim);
            assertThat(producer.listLength(queue).join()).isZero();
        }
    }

    private static void assertBadRequest(CompletableFuture<?> operation, String message) {
        assertThatThrownBy(operation::join).cause().isInstanceOfSatisfying(ZarisStatusException.class, e -> {
            assertThat(e.status()).isEqualTo(KvStatus.BAD_REQUEST);
            assertThat(e.getMessage()).contains(message);
        });
    }

    private static EmbeddedCluster cluster() {
        return EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8)).build().start();
    }

    private static ZarisClient client(EmbeddedCluster cluster) {
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).environment(Map.of()).build());
    }

    private static Map<String, String> texts(Map<String, byte[]> values) {
        Map<String, String> out = new LinkedHashMap<>();
        values.forEach((key, value) -> out.put(key, text(value)));
        return out;
    }

    private static List<String> texts(List<byte[]> items) {
        return items.stream().map(ClientCollectionOpsIntegrationTests::text).toList();
    }

    private static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
