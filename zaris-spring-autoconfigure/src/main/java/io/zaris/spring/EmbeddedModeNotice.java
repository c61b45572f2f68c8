package io.zaris.spring;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.server.ZarisNode;
import java.util.Locale;

/**
 * The one line the starter logs when it has started an embedded cluster, so that nobody mistakes the
 * zero-configuration default for a shared cache: the cluster lives inside this JVM, how many nodes and copies
 * of every entry it holds, how much of the heap its memory budget may take, and the property that points the
 * application at a standalone cluster instead.
 *
 * <p>A pure function of the figures ({@link #text}) and a reader of a started cluster ({@link #of}); it holds
 * no state.
 */
final class EmbeddedModeNotice {

    /** The property that switches the starter from embedded mode to a standalone cluster. */
    static final String SEEDS_PROPERTY = "zaris.client.seeds";

    private static final String[] BINARY_UNITS = {"bytes", "KiB", "MiB", "GiB", "TiB"};

    private EmbeddedModeNotice() {
    }

    /** The notice for a started cluster: its running nodes' budgets, and the copies its settings give them. */
    static String of(EmbeddedCluster cluster, long maxHeapBytes) {
        int nodes = 0;
        long budget = 0;
        long largestNodeBudget = 0;
        for (ZarisNode node : cluster.nodes()) {
            if (node.isRunning()) {
                long nodeBudget = node.memoryStats().maxBytes();
                nodes++;
                budget += nodeBudget;
                largestNodeBudget = Math.max(largestNodeBudget, nodeBudget);
            }
        }
        // The planner gives a partition min(replication factor, members) owners: more copies than nodes cannot be.
        int copies = Math.min(cluster.settings().replicationFactor(), Math.max(1, nodes));
        return text(nodes, copies, largestNodeBudget, budget, maxHeapBytes);
    }

    /**
     * @param nodes          running nodes of the embedded cluster
     * @param copies         copies of every entry (the owners of each partition)
     * @param nodeBudget     the memory budget of one node, in bytes
     * @param totalBudget    the budgets of all nodes together, in bytes
     * @param maxHeapBytes   the JVM's max heap, which the nodes share with the application
     */
    static String text(int nodes, int copies, long nodeBudget, long totalBudget, long maxHeapBytes) {
        String cluster = nodes == 1 ? "1 node" : nodes + " nodes";
        String held = copies == 1 ? "1 copy of every entry" : copies + " copies of every entry";
        String budget = nodes == 1
                ? "memory budget " + bytes(nodeBudget)
                : "memory budget " + bytes(nodeBudget) + " per node, " + bytes(totalBudget) + " in all";
        return "Zaris embedded mode: a private cluster of " + cluster + " inside this JVM, " + held + ", "
                + budget + " of this JVM's " + bytes(maxHeapBytes) + " max heap. No other process or instance"
                + " of this application shares it, and its entries end with this JVM. To share one cache between"
                + " instances, run a standalone cluster and set " + SEEDS_PROPERTY + " to its nodes' addresses.";
    }

    /** {@code bytes} in the largest binary unit that keeps it at least 1, with at most one decimal. */
    static String bytes(long bytes) {
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        if (unit == 0) {
            return bytes + " bytes";
        }
        String number = String.format(Locale.ROOT, "%.1f", value);
        return (number.endsWith(".0") ? number.substring(0, number.length() - 2) : number) + " " + BINARY_UNITS[unit];
    }
}
