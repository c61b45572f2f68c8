package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A blocking pop over several keys (one element, and a count of them: BLMPOP), a blocking move and a sorted set's
 * blocking pops (one member, and a count of them: BZMPOP), waiting on empty keys of one hash tag, keep waiting while their keys' owner stops (a clean leave of a node that is not the leader), their looks retried
 * across the failover, and take what a producer writes to the new owner afterwards, each element once.
 */
@Tag("in-process-cluster")
class ClientBlockingOpsFailoverIntegrationTests {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void blockingPopsAndMovesWaitAcrossTheStopOfTheirKeysOwner() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).build().start();
             ZarisClient consumer = client(cluster); ZarisClient producer = client(cluster)) {
            String leader = cluster.leader().nodeId();
            String tag = null;
            for (int i = 0; tag == null; i++) {
                String candidate = "{jobs-" + i + "}";
                if (!consumer.ownerOf(candidate).equals(leader)) {
                    tag = candidate;
                }
            }
            String urgent = tag + "urgent";
            String normal = tag + "normal";
            String source = tag + "incoming";
            String running = tag + "running";
            String victim = consumer.ownerOf(urgent);

            CompletableFuture<PoppedElement> popped = consumer.listBlockingPop(List.of(urgent, normal), ListEnd.HEAD, BOUND);
            CompletableFuture<byte[]> moved = consumer.listBlockingMove(source, running, ListEnd.HEAD, ListEnd.TAIL, BOUND);
            CompletableFuture<PoppedMember> due = consumer.sortedSetBlockingPopMin(List.of(tag + "timers"), BOUND);
            CompletableFuture<PoppedElements> batch = consumer.listBlockingPop(List.of(tag + "batch"), ListEnd.TAIL, 2, BOUND);
            CompletableFuture<PoppedMembers> best = consumer.sortedSetBlockingPopMax(List.of(tag + "board"), 2, BOUND);
            cluster.stopNode(victim);
            assertThat(popped).as("nothing was pushed yet").isNotDone();
            assertThat(moved).as("nothing was pushed yet").isNotDone();
            assertThat(due).as("nothing was added yet").isNotDone();
            assertThat(batch).as("nothing was pushed yet").isNotDone();
            assertThat(best).as("nothing was added yet").isNotDone();
            // A push is not repeated once it may have been applied: sent to the stopped node before its connection is
            // seen closed, it would fail as ambiguous. So the producer waits for the new owner.
            await().atMost(BOUND).until(() -> !producer.ownerOf(urgent).equals(victim));
            producer.listPush(normal, ListEnd.TAIL, bytes("n1")).join();
            producer.listPush(source, ListEnd.TAIL, bytes("i1")).join();
            producer.sortedSetAdd(tag + "timers", Map.of("t1", 10.0)).join();
            producer.listPush(tag + "batch", ListEnd.TAIL, bytes("b1"), bytes("b2"), bytes("b3")).join();
            producer.sortedSetAdd(tag + "board", Map.of("low", 1.0, "mid", 5.0, "top", 9.0)).join();

            await().atMost(BOUND).until(() -> popped.isDone() && moved.isDone() && due.isDone() && batch.isDone()
                    && best.isDone());
            assertThat(batch.join().key()).isEqualTo(tag + "batch");
            assertThat(batch.join().elements()).extracting(ClientBlockingOpsFailoverIntegrationTests::text)
                    .containsExactly("b3", "b2");
            assertThat(producer.listRange(tag + "batch", 0, -1).join()).extracting(ClientBlockingOpsFailoverIntegrationTests::text)
                    .as("each element once: the pop was made once").containsExactly("b1");
            assertThat(best.join()).isEqualTo(new PoppedMembers(tag + "board",
                    List.of(new ScoredMember("top", 9.0), new ScoredMember("mid", 5.0))));
            assertThat(producer.sortedSetRange(tag + "board", 0, -1).join()).containsExactly(new ScoredMember("low", 1.0));
            assertThat(due.join()).isEqualTo(new PoppedMember(tag + "timers", new ScoredMember("t1", 10.0)));
            assertThat(popped.join().key()).isEqualTo(normal);
            assertThat(text(popped.join().element())).isEqualTo("n1");
            assertThat(text(moved.join())).isEqualTo("i1");
            assertThat(producer.listRange(running, 0, -1).join()).extracting(ClientBlockingOpsFailoverIntegrationTests::text)
                    .containsExactly("i1");
            assertThat(producer.listLength(normal).join()).isZero();
            assertThat(producer.listLength(source).join()).isZero();
            assertThat(consumer.ownerOf(urgent)).isNotEqualTo(victim);
        }
    }

    private static ZarisClient client(EmbeddedCluster cluster) {
        return ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).environment(Map.of()).build());
    }

    private static String text(byte[] value) {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
