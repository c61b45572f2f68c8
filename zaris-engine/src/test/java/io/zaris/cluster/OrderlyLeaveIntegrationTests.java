package io.zaris.cluster;

import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;
import io.zaris.server.ZarisNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A node that stops in order does not act on the views JGroups delivers while it leaves. */
@Tag("in-process-cluster")
class OrderlyLeaveIntegrationTests {

    /**
     * Processes stopped together (a whole cluster shut down at once): each leaver gets the others' departures
     * while its own channel closes, and before it logged a lost majority and failed broadcasts for them.
     */
    @Test
    void nodesStoppingTogetherLogNoLostMajorityAndNoFailedBroadcast() throws Exception {
        Logger memberLog = (Logger) LoggerFactory.getLogger(ClusterMember.class);
        ListAppender<ILoggingEvent> captured = new ListAppender<>();
        captured.start();
        memberLog.addAppender(captured);
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(16, 4)).build().start()) {
            String survivor = cluster.nodes().get(1).nodeId();
            List<String> leavers = List.of(cluster.nodes().get(0).nodeId(), cluster.nodes().get(2).nodeId());
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<Void>> stops = leavers.stream().map(leaver -> CompletableFuture.runAsync(() -> {
                awaitQuietly(go);
                cluster.stopNode(leaver);
            })).toList();

            go.countDown();
            CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

            await().atMost(Duration.ofSeconds(30)).until(() -> viewLogged(captured, survivor, "with 1 member(s)"));
            for (String leaver : leavers) {
                await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                        .until(() -> warningsOf(captured, leaver).isEmpty());
            }
        } finally {
            memberLog.detachAppender(captured);
        }
    }

    /** A drain cut short by the node's own stop ends (exceptionally) rather than leaving its waiter hanging. */
    @Test
    void aDrainStillRunningWhenTheNodeStopsEnds() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(16, 4)).build().start()) {
            ZarisNode leaver = cluster.nodes().get(2);
            CompletableFuture<Void> drained = leaver.drain();

            cluster.stopNode(leaver.nodeId());

            await().atMost(Duration.ofSeconds(10)).until(drained::isDone);
            // cut short, not finished: the stop came long before 16 partitions could have moved away
            org.assertj.core.api.Assertions.assertThat(drained).isCompletedExceptionally();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What was logged so far; the appender adds events under its own monitor (logback's AppenderBase). */
    private static List<ILoggingEvent> logged(ListAppender<ILoggingEvent> captured) {
        synchronized (captured) {
            return List.copyOf(captured.list);
        }
    }

    private static List<String> warningsOf(ListAppender<ILoggingEvent> captured, String nodeId) {
        return logged(captured).stream()
                .filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
                .map(ILoggingEvent::getFormattedMessage)
                .filter(message -> message.startsWith("node " + nodeId + ":"))
                .toList();
    }

    private static boolean viewLogged(ListAppender<ILoggingEvent> captured, String nodeId, String fragment) {
        return logged(captured).stream().map(ILoggingEvent::getFormattedMessage)
                .anyMatch(message -> message.startsWith("node " + nodeId + ": membership view") && message.contains(fragment));
    }
}
