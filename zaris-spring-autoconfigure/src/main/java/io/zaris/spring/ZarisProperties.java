package io.zaris.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of Zaris under the {@code zaris} prefix.
 *
 * <p>A mutable binding bean and nothing more: {@link ZarisAutoConfiguration} maps it to the engine's
 * immutable {@code EmbeddedCluster.Builder} and {@code ZarisClientOptions}, which validate every value.
 * The defaults below repeat the engine's {@code DEFAULT_*} constants as literals so that the configuration
 * processor can record them in the generated metadata; {@code ZarisPropertiesTests} keeps the two in step.
 *
 * <p>Mode selection ({@link #resolveMode()}):
 * <pre>
 * zaris.mode   zaris.client.seeds   effective mode
 * (unset)      empty                EMBEDDED
 * (unset)      non-empty            CLIENT
 * EMBEDDED     anything             EMBEDDED (seeds ignored)
 * CLIENT       non-empty            CLIENT
 * CLIENT       empty                CLIENT, and the context fails to start
 * </pre>
 */
@ConfigurationProperties("zaris")
public class ZarisProperties {

    /**
     * How the application reaches a cluster. When unset, CLIENT if zaris.client.seeds is set, otherwise
     * EMBEDDED.
     */
    private Mode mode;

    /**
     * How long one request may wait for its answer.
     */
    private Duration requestTimeout = Duration.ofSeconds(60);

    private final Embedded embedded = new Embedded();

    private final Client client = new Client();

    public Mode getMode() {
        return mode;
    }

    public void setMode(Mode mode) {
        this.mode = mode;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public Embedded getEmbedded() {
        return embedded;
    }

    public Client getClient() {
        return client;
    }

    /** The mode in effect: {@link #getMode()} if set, else CLIENT when seeds are configured, else EMBEDDED. */
    public Mode resolveMode() {
        if (mode != null) {
            return mode;
        }
        return client.hasSeeds() ? Mode.CLIENT : Mode.EMBEDDED;
    }

    /** How the application reaches a Zaris cluster. */
    public enum Mode {

        /** Start an in-process cluster with the application and stop it with the application context. */
        EMBEDDED,

        /** Connect to an existing cluster through {@code zaris.client.seeds}; never start nodes. */
        CLIENT
    }

    /** The in-process cluster started in {@link Mode#EMBEDDED} mode. */
    public static class Embedded {

        /**
         * Number of nodes of the embedded cluster (1 to 64).
         */
        private int nodes = 3;

        /**
         * Copies of each partition (primary plus replicas); fewer nodes than this means one copy per node.
         */
        private int replicationFactor = 2;

        /**
         * Number of partitions, the unit of ownership and replication; between 1 and zaris.embedded.segments.
         */
        private int partitions = 128;

        /**
         * Number of hash segments that keys map to and partitions group; between zaris.embedded.partitions
         * and 16384.
         */
        private int segments = 1024;

        public int getNodes() {
            return nodes;
        }

        public void setNodes(int nodes) {
            this.nodes = nodes;
        }

        public int getReplicationFactor() {
            return replicationFactor;
        }

        public void setReplicationFactor(int replicationFactor) {
            this.replicationFactor = replicationFactor;
        }

        public int getPartitions() {
            return partitions;
        }

        public void setPartitions(int partitions) {
            this.partitions = partitions;
        }

        public int getSegments() {
            return segments;
        }

        public void setSegments(int segments) {
            this.segments = segments;
        }
    }

    /** The connection to a cluster, and in {@link Mode#CLIENT} mode, where that cluster is. */
    public static class Client {

        /**
         * Data addresses (host:port) of one or more cluster nodes to bootstrap from. Setting them switches
         * an unset zaris.mode to CLIENT.
         */
        private List<String> seeds = new ArrayList<>();

        /**
         * TCP connect timeout per node.
         */
        private Duration connectTimeout = Duration.ofSeconds(5);

        /**
         * How long start-up waits for a seed to hand out the cluster map.
         */
        private Duration bootstrapTimeout = Duration.ofSeconds(30);

        /**
         * Interval of the background poll of the full cluster map.
         */
        private Duration mapRefreshInterval = Duration.ofSeconds(10);

        public List<String> getSeeds() {
            return seeds;
        }

        public void setSeeds(List<String> seeds) {
            this.seeds = seeds;
        }

        public Duration getConnectTimeout() {
            return connectTimeout;
        }

        public void setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
        }

        public Duration getBootstrapTimeout() {
            return bootstrapTimeout;
        }

        public void setBootstrapTimeout(Duration bootstrapTimeout) {
            this.bootstrapTimeout = bootstrapTimeout;
        }

        public Duration getMapRefreshInterval() {
            return mapRefreshInterval;
        }

        public void setMapRefreshInterval(Duration mapRefreshInterval) {
            this.mapRefreshInterval = mapRefreshInterval;
        }

        /** Whether at least one non-blank seed is configured. */
        boolean hasSeeds() {
            return seeds != null && seeds.stream().anyMatch(seed -> seed != null && !seed.isBlank());
        }
    }
}
