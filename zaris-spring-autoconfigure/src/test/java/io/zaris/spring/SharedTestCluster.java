package io.zaris.spring;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import java.util.stream.Collectors;

/**
 * One small real cluster (two nodes, 64 segments, 16 partitions) shared by every test class in the JVM that
 * needs "a cluster" rather than a specific one, and a client connected to it. Started on first use, stopped
 * by a shutdown hook. Tests keep their keys apart with unique names.
 */
public final class SharedTestCluster {

    private static EmbeddedCluster cluster;
    private static ZarisClient client;

    private SharedTestCluster() {
    }

    public static synchronized EmbeddedCluster cluster() {
        if (cluster == null) {
            cluster = EmbeddedCluster.builder().nodes(2).layout(PartitionLayout.of(64, 16)).build().start();
            client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).build());
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                client.close();
                cluster.close();
            }, "shared-test-cluster-stop"));
        }
        return cluster;
    }

    public static synchronized ZarisClient client() {
        cluster();
        return client;
    }

    /** The cluster's seeds as a {@code zaris.client.seeds} value. */
    public static String seedsProperty() {
        return "zaris.client.seeds=" + cluster().seeds().stream().map(NodeAddress::toString)
                .collect(Collectors.joining(","));
    }
}
