package io.zaris.test;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;

/** What a {@link ZarisCluster} annotation asks for; equal specs share one cluster. */
record ZarisClusterSpec(int nodes, int replicationFactor, int segments, int partitions) {

    static ZarisClusterSpec of(ZarisCluster annotation) {
        return new ZarisClusterSpec(annotation.nodes(), annotation.replicationFactor(), annotation.segments(),
                annotation.partitions());
    }

    /** A cluster as the spec describes it, not yet started; the engine's builder checks each value. */
    EmbeddedCluster build() {
        return EmbeddedCluster.builder()
                .nodes(nodes)
                .replicationFactor(replicationFactor)
                .layout(PartitionLayout.of(segments, partitions))
                .build();
    }
}
