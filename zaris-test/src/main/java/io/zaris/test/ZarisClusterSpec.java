package io.zaris.test;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;

/** What a {@link ZarisCluster} annotation asks for; equal specs share one cluster. */
record ZarisClusterSpec(int nodes, int replicationFactor, int segments, int partitions, ZarisCluster.Launch launch,
                        String serverJar, boolean resp) {

    static ZarisClusterSpec of(ZarisCluster annotation) {
        return new ZarisClusterSpec(annotation.nodes(), annotation.replicationFactor(), annotation.segments(),
                annotation.partitions(), annotation.launch(), annotation.serverJar(), annotation.resp());
    }

    /** The cluster as the spec describes it, started; the engine (or the server's parser) checks each value. */
    StartedCluster start() {
        return switch (launch) {
            case EMBEDDED -> new StartedCluster.InThisJvm(EmbeddedCluster.builder()
                    .nodes(nodes)
                    .replicationFactor(replicationFactor)
                    .layout(PartitionLayout.of(segments, partitions))
                    .resp(resp)
                    .build()
                    .start());
            case SERVER_PROCESSES -> ZarisServerProcesses.start(this);
        };
    }
}
