package io.zaris.server;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * A standalone node's meters in a Prometheus registry, for its {@code /metrics} endpoint: the node's {@code
 * zaris.node.*} meters (the names the Spring starter gives an embedded node's, tagged {@code node}) and the JVM's
 * (memory, collections, threads, classes, CPU, uptime). Only the server jar, which carries Micrometer, loads this
 * class. Meters read the node's thread-safe counters when scraped; the registry is Micrometer's, safe for any
 * thread.
 */
final class NodeMeters implements AutoCloseable {

    /** The registry class; the server offers {@code /metrics} only when it is on the class path. */
    static final String REGISTRY_CLASS = "io.micrometer.prometheusmetrics.PrometheusMeterRegistry";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();

    NodeMeters(ZarisNode node) {
        bindNode(registry, node);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** Whether the class path has the Prometheus registry (the server jar has). */
    static boolean available() {
        try {
            Class.forName(REGISTRY_CLASS, false, NodeMeters.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Every meter in Prometheus' text format. */
    String scrape() {
        return registry.scrape();
    }

    static void bindNode(MeterRegistry registry, ZarisNode node) {
        Tags tags = Tags.of("node", node.nodeId());
        gauge(registry, "zaris.node.keys", node, ZarisNode::storedEntries, tags, "entries this node holds");
        counter(registry, "zaris.node.requests.served", node, n -> n.stats().requestsServed(), tags);
        counter(registry, "zaris.node.requests.wrong.node", node, n -> n.stats().wrongNodeReplies(), tags);
        counter(registry, "zaris.node.requests.rejected", node, n -> n.stats().rejectedRequests(), tags);
        counter(registry, "zaris.node.requests.expired", node, n -> n.stats().expiredRequests(), tags);
        gauge(registry, "zaris.node.memory.used", node, n -> n.memoryStats().usedBytes(), tags,
                "bytes charged against the memory budget");
        gauge(registry, "zaris.node.memory.budget", node, n -> n.memoryStats().maxBytes(), tags, "the memory budget");
        counter(registry, "zaris.node.evictions", node, n -> n.memoryStats().evictions(), tags);
        counter(registry, "zaris.node.expirations", node, n -> n.memoryStats().expirations(), tags);
        counter(registry, "zaris.node.writes.refused.memory", node, n -> n.memoryStats().outOfMemoryRefusals(), tags);
        counter(registry, "zaris.node.snapshot.bytes.sent", node, ZarisNode::snapshotBytesSent, tags);
        counter(registry, "zaris.node.replica.segments.carried.over", node, ZarisNode::segmentsCarriedOver, tags);
        counter(registry, "zaris.node.replica.segments.audited.out.of.sync", node, ZarisNode::segmentsAuditedOutOfSync, tags);
        counter(registry, "zaris.node.writes.reduced.redundancy", node, ZarisNode::reducedRedundancyWrites, tags);
        gauge(registry, "zaris.node.partitions.active", node, NodeMeters::activePartitions, tags,
                "partitions this node serves as active owner");
        gauge(registry, "zaris.node.ready", node, n -> n.readiness().ready() ? 1 : 0, tags,
                "1 when the readiness probe answers 200");
        gauge(registry, "zaris.node.leader", node, n -> n.isLeader() ? 1 : 0, tags, "1 while this node leads the cluster");
    }

    private static int activePartitions(ZarisNode node) {
        io.zaris.model.ClusterView view = node.currentView();
        if (view == null) {
            return 0;
        }
        int active = 0;
        for (int p = 0; p < view.runtimeMap().partitionCount(); p++) {
            active += view.runtimeMap().get(p).isServedBy(node.nodeId()) ? 1 : 0;
        }
        return active;
    }

    private static void gauge(MeterRegistry registry, String name, ZarisNode node, ToDoubleFunction<ZarisNode> read,
                              Tags tags, String description) {
        Gauge.builder(name, node, n -> n.isRunning() ? read.applyAsDouble(n) : Double.NaN)
                .tags(tags).description(description).register(registry);
    }

    private static void counter(MeterRegistry registry, String name, ZarisNode node, ToDoubleFunction<ZarisNode> read,
                                Tags tags) {
        FunctionCounter.builder(name, node, read).tags(tags).register(registry);
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
