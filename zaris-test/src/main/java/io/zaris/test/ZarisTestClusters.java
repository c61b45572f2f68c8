package io.zaris.test;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The clusters of the JVM's {@link ZarisCluster} tests, one per spec, started on first use and closed together
 * by one shutdown hook. The map is bounded by the specs the test sources spell out.
 *
 * <p>Threads: every access holds the class's lock, so two test classes running in parallel that ask for the
 * same spec get the same cluster, started once.
 */
final class ZarisTestClusters {

    /** Guarded by the class lock. */
    private static final Map<ZarisClusterSpec, StartedCluster> CLUSTERS = new LinkedHashMap<>();

    /** Guarded by the class lock. */
    private static boolean hookAdded;

    private ZarisTestClusters() {
    }

    /** The running cluster for {@code spec}, started now if it is the first ask. */
    static synchronized StartedCluster obtain(ZarisClusterSpec spec) {
        StartedCluster cluster = CLUSTERS.get(spec);
        if (cluster == null) {
            cluster = spec.start();
            CLUSTERS.put(spec, cluster);
            if (!hookAdded) {
                Runtime.getRuntime().addShutdownHook(new Thread(ZarisTestClusters::closeAll, "zaris-test-clusters-stop"));
                hookAdded = true;
            }
        }
        return cluster;
    }

    private static synchronized void closeAll() {
        CLUSTERS.values().forEach(StartedCluster::close);
        CLUSTERS.clear();
    }
}
