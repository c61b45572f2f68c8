package io.zaris.spring.actuate;

import io.zaris.server.ZarisNode;
import io.zaris.spring.ZarisEmbeddedClusterLifecycle;
import java.util.Optional;

/**
 * What the health indicator and the meters read from the embedded nodes, in one place. Every method looks
 * at the nodes as they are now (nodes added or stopped since start-up included) and is safe to call from
 * any thread.
 */
final class EmbeddedNodes {

    private EmbeddedNodes() {
    }

    /** The running embedded node that leads; empty while the cluster is stopped or no running node leads. */
    static Optional<ZarisNode> leader(ZarisEmbeddedClusterLifecycle embeddedCluster) {
        if (!embeddedCluster.isRunning()) {
            return Optional.empty();
        }
        return embeddedCluster.cluster().nodes().stream()
                .filter(node -> node.isRunning() && node.isLeader())
                .findFirst();
    }

    /**
     * Bytes of segment snapshots the running embedded nodes sent to replicas since each started (a stopped
     * node's count is left out, so the sum can drop when a node stops).
     */
    static long snapshotBytesSent(ZarisEmbeddedClusterLifecycle embeddedCluster) {
        if (!embeddedCluster.isRunning()) {
            return 0;
        }
        long bytes = 0;
        for (ZarisNode node : embeddedCluster.cluster().nodes()) {
            if (node.isRunning()) {
                bytes += node.snapshotBytesSent();
            }
        }
        return bytes;
    }
}
