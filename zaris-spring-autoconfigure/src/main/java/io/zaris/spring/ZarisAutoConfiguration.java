package io.zaris.spring;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.NodeAddress;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;
import io.zaris.spring.ZarisProperties.Mode;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Auto-configuration of a {@link ZarisClient} and, in embedded mode, of the cluster it talks to.
 *
 * <p>Modes ({@link ZarisProperties#resolveMode()}):
 * <ul>
 * <li><b>Embedded</b> (default when {@code zaris.client.seeds} is empty): a
 * {@link ZarisEmbeddedClusterLifecycle} starts an in-process cluster of {@code zaris.embedded.nodes}
 * nodes on loopback ports, and the client bootstraps from its seeds.
 * <li><b>Client</b>: the client bootstraps from {@code zaris.client.seeds}; no node is ever started here.
 * {@code zaris.mode=client} without seeds fails start-up with a message naming that property.
 * </ul>
 *
 * <p>Every bean backs off when the application defines its own. A custom client in embedded mode can
 * take its seeds from the {@link ZarisEmbeddedClusterLifecycle} bean, which stays in place.
 */
@AutoConfiguration
@ConditionalOnClass(ZarisClient.class)
@EnableConfigurationProperties(ZarisProperties.class)
public final class ZarisAutoConfiguration {

    /** Client name announced to the nodes (shows in their logs). */
    static final String CLIENT_NAME = "zaris-spring";

    @Bean
    @ConditionalOnMissingBean
    @Conditional(OnEmbeddedModeCondition.class)
    ZarisEmbeddedClusterLifecycle zarisEmbeddedClusterLifecycle(ZarisProperties properties) {
        return new ZarisEmbeddedClusterLifecycle(embeddedCluster(properties.getEmbedded()));
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    ZarisClient zarisClient(ZarisProperties properties,
            ObjectProvider<ZarisEmbeddedClusterLifecycle> embeddedCluster) {
        List<NodeAddress> seeds = switch (properties.resolveMode()) {
            case EMBEDDED -> embeddedSeeds(embeddedCluster.getIfAvailable());
            case CLIENT -> configuredSeeds(properties.getClient());
        };
        return ZarisClient.connect(clientOptions(properties, seeds));
    }

    /** The (not yet started) cluster that {@code zaris.embedded.*} describes. */
    static EmbeddedCluster embeddedCluster(ZarisProperties.Embedded embedded) {
        return EmbeddedCluster.builder()
                .nodes(embedded.getNodes())
                .replicationFactor(embedded.getReplicationFactor())
                .layout(PartitionLayout.of(embedded.getSegments(), embedded.getPartitions()))
                .build();
    }

    /** Maps the binding bean to the engine's immutable options; the builder validates each value. */
    static ZarisClientOptions clientOptions(ZarisProperties properties, List<NodeAddress> seeds) {
        ZarisProperties.Client client = properties.getClient();
        return ZarisClientOptions.builder()
                .seeds(seeds)
                .clientName(CLIENT_NAME)
                .connectTimeout(client.getConnectTimeout())
                .bootstrapTimeout(client.getBootstrapTimeout())
                .mapRefreshInterval(client.getMapRefreshInterval())
                .requestTimeout(properties.getRequestTimeout())
                .build();
    }

    /**
     * Parses {@code zaris.client.seeds}, skipping blank entries.
     *
     * @throws IllegalStateException when no seed is configured, naming the property to set
     */
    static List<NodeAddress> configuredSeeds(ZarisProperties.Client client) {
        if (!client.hasSeeds()) {
            throw new IllegalStateException("zaris.mode is " + Mode.CLIENT + " but zaris.client.seeds is empty:"
                    + " set zaris.client.seeds to the host:port of at least one node's data port"
                    + " (e.g. zaris.client.seeds=10.0.0.1:7101,10.0.0.2:7101),"
                    + " or remove zaris.mode to run an embedded cluster");
        }
        return client.getSeeds().stream()
                .filter(seed -> seed != null && !seed.isBlank())
                .map(NodeAddress::parse)
                .toList();
    }

    private static List<NodeAddress> embeddedSeeds(ZarisEmbeddedClusterLifecycle embeddedCluster) {
        if (embeddedCluster == null) {
            throw new IllegalStateException("zaris.mode is " + Mode.EMBEDDED
                    + " but there is no ZarisEmbeddedClusterLifecycle bean to connect to");
        }
        return embeddedCluster.seeds();
    }
}
