package io.zaris.spring.actuate;

import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import io.zaris.server.ZarisNode;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the cluster for the {@code zaris} actuator endpoint: every {@link #SAMPLE_INTERVAL} it takes the
 * authoritative view (the leading embedded node's, else the client's), records each partition whose active
 * node changed since the last sample, and, in embedded mode, turns each node's served-request count into
 * operations per second. Changes between two samples that cancel out (a move and its move back within one
 * interval) are not seen.
 *
 * <p><b>Threads.</b> {@link #sample()} runs on the {@code zaris-cluster-monitor} thread (and in tests on the
 * caller's); it and the readers synchronize on this monitor for {@code previous}, {@code changes} and
 * {@code opsPerSecond}. The change history is bounded to {@link #MAX_CHANGES} entries, oldest dropped first.
 */
public final class ZarisClusterMonitor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ZarisClusterMonitor.class);

    static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);
    static final int MAX_CHANGES = 200;

    /** One partition's change of active node; {@code failover} when the old one had left the cluster. */
    public record OwnershipChange(Instant at, int partition, String from, String to, long epoch, String kind) {
    }

    private final ZarisClient client;
    private final ZarisEmbeddedClusterLifecycle embeddedCluster;
    private final Clock clock;
    private ClusterView previous;
    private final ArrayDeque<OwnershipChange> changes = new ArrayDeque<>();
    private final Map<String, long[]> servedSamples = new HashMap<>();
    private Map<String, Double> opsPerSecond = Map.of();
    private ScheduledExecutorService sampler;

    /** @param embeddedCluster the embedded cluster, or {@code null} in client mode */
    public ZarisClusterMonitor(ZarisClient client, ZarisEmbeddedClusterLifecycle embeddedCluster, Clock clock) {
        this.client = client;
        this.embeddedCluster = embeddedCluster;
        this.clock = clock;
    }

    /** Starts sampling on a daemon thread; idempotent. */
    public synchronized void start() {
        if (sampler != null) {
            return;
        }
        sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "zaris-cluster-monitor");
            thread.setDaemon(true);
            return thread;
        });
        sampler.scheduleWithFixedDelay(() -> {
            try {
                sample();
            } catch (RuntimeException e) {
                log.debug("cluster sample failed: {}", e.toString());
            }
        }, 0, SAMPLE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void close() {
        if (sampler != null) {
            sampler.shutdownNow();
        }
    }

    /** Takes one sample now. */
    synchronized void sample() {
        Instant now = clock.instant();
        ClusterView view = view();
        if (previous != null && view.partitionMap().partitionCount() == previous.partitionMap().partitionCount()) {
            List<PartitionRuntime> before = previous.runtimeMap().partitions();
            List<PartitionRuntime> after = view.runtimeMap().partitions();
            for (int partition = 0; partition < after.size(); partition++) {
                String from = before.get(partition).activeNode();
                String to = after.get(partition).activeNode();
                if (from != null && !from.equals(to)) {
                    boolean fromGone = !view.addresses().containsKey(from) || !isRunning(from);
                    changes.addLast(new OwnershipChange(now, partition, from, to, after.get(partition).epoch(),
                            fromGone ? "failover" : "move"));
                    if (changes.size() > MAX_CHANGES) {
                        changes.removeFirst();
                    }
                }
            }
        }
        previous = view;
        sampleOps(now);
    }

    /** The view of the last sample (sampling now if there is none yet). */
    synchronized ClusterView latestView() {
        if (previous == null) {
            sample();
        }
        return previous;
    }

    /** Recent ownership changes, oldest first. */
    synchronized List<OwnershipChange> recentChanges() {
        return new ArrayList<>(changes);
    }

    /** Requests each embedded node served per second over the last sample interval; empty in client mode. */
    synchronized Map<String, Double> opsPerSecond() {
        return opsPerSecond;
    }

    /** The view the health indicator trusts too: the leading embedded node's map, else the client's. */
    ClusterView view() {
        if (embeddedCluster != null && embeddedCluster.isRunning()) {
            return EmbeddedNodes.leader(embeddedCluster).map(ZarisNode::currentView).orElseGet(client::clusterView);
        }
        return client.clusterView();
    }

    private boolean isRunning(String nodeId) {
        if (embeddedCluster == null) {
            return true;
        }
        return embeddedCluster.cluster().nodes().stream()
                .anyMatch(node -> node.nodeId().equals(nodeId) && node.isRunning());
    }

    private void sampleOps(Instant now) {
        if (embeddedCluster == null || !embeddedCluster.isRunning()) {
            return;
        }
        Map<String, Double> rates = new HashMap<>();
        for (ZarisNode node : embeddedCluster.cluster().nodes()) {
            long served = node.stats().requestsServed();
            long[] last = servedSamples.put(node.nodeId(), new long[] {now.toEpochMilli(), served});
            if (last != null && now.toEpochMilli() > last[0] && served >= last[1]) {
                rates.put(node.nodeId(), (served - last[1]) * 1000.0 / (now.toEpochMilli() - last[0]));
            } else {
                rates.put(node.nodeId(), 0.0);
            }
        }
        opsPerSecond = Map.copyOf(rates);
    }
}
