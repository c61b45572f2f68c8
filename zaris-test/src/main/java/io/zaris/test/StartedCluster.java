package io.zaris.test;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import java.util.List;

/** A running {@link ZarisCluster}, whichever way it was launched: what the registry and the Spring side need. */
sealed interface StartedCluster permits StartedCluster.InThisJvm, ZarisServerProcesses {

    /** The data addresses of the nodes, for a client's seeds. */
    List<NodeAddress> seeds();

    /** What a test method's parameter receives: the {@link EmbeddedCluster} or the {@link ZarisServerProcesses}. */
    Object handle();

    /** Stops every node. */
    void close();

    /** Nodes in the test JVM. */
    record InThisJvm(EmbeddedCluster cluster) implements StartedCluster {

        @Override
        public List<NodeAddress> seeds() {
            return cluster.seeds();
        }

        @Override
        public Object handle() {
            return cluster;
        }

        @Override
        public void close() {
            cluster.close();
        }
    }
}
