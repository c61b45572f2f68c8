package io.zaris.spring;

import io.zaris.client.ClientMetrics;
import io.zaris.client.NearCacheOptions;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.replication.ReplicationSettings;
import io.zaris.security.ClusterSecret;
import io.zaris.security.Credentials;
import io.zaris.security.SecurityOptions;
import io.zaris.security.TlsOptions;
import io.zaris.spring.ZarisProperties.Mode;
import io.zaris.spring.aot.ZarisRuntimeHints;
import io.zaris.spring.observation.ZarisOperationObserver;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import io.zaris.spring.serialization.JsonZarisSerializer;
import io.zaris.spring.serialization.ZarisSerializer;
import io.zaris.spring.template.ZarisTemplate;
import io.zaris.store.EvictionPolicy;
import io.zaris.store.MemoryOptions;
import io.zaris.transport.ZarisException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;
import tools.jackson.databind.json.JsonMapper;

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
 * <li><b>Connection details</b>: a {@link ZarisConnectionDetails} bean (e.g. from the test-support module) wins
 * over both: the client bootstraps from its seeds with its login and SSL bundle, and no node is started here.
 * </ul>
 *
 * <p>TLS comes from a Boot SSL bundle ({@code zaris.embedded.ssl.bundle}, {@code zaris.client.ssl.bundle}) or
 * from the {@code zaris.tls.*} files ({@link ZarisSslBundles}).
 *
 * <p>{@link ZarisClientOptionsCustomizer} and {@link EmbeddedClusterCustomizer} beans adjust the client's
 * options and the embedded cluster in code, on top of the properties.
 *
 * <p>Every bean backs off when the application defines its own. A custom client in embedded mode can
 * take its seeds from the {@link ZarisEmbeddedClusterLifecycle} bean, which stays in place. Every client
 * bean, the application's included, is closed before the embedded nodes (see
 * {@link ZarisEmbeddedClusterLifecycle}).
 *
 * <p>The client's environment variables are applied by {@link ZarisEnvironmentPostProcessor} to the
 * properties; the options builder is given an empty environment so they are not applied twice. Client
 * meters are recorded through a {@link ClientMetrics} bean when one exists (the metrics
 * auto-configuration defines it when Micrometer and a {@code MeterRegistry} are present), wrapped in a
 * {@link ZarisRoutingTableWatch} that the health indicator reads and in the {@link ZarisOperationObserver}
 * (when observations are on) that counts each operation's attempts.
 */
@AutoConfiguration(afterName = "org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration")
@ConditionalOnClass(ZarisClient.class)
@EnableConfigurationProperties(ZarisProperties.class)
@ImportRuntimeHints(ZarisRuntimeHints.class)
public final class ZarisAutoConfiguration {

    /** Client name announced to the nodes (shows in their logs). */
    static final String CLIENT_NAME = "zaris-spring";

    @Bean
    @ConditionalOnMissingBean({ ZarisEmbeddedClusterLifecycle.class, ZarisConnectionDetails.class })
    @Conditional(OnEmbeddedModeCondition.class)
    ZarisEmbeddedClusterLifecycle zarisEmbeddedClusterLifecycle(ZarisProperties properties,
            ObjectProvider<EmbeddedClusterCustomizer> customizers, ObjectProvider<SslBundles> sslBundles) {
        EmbeddedCluster.Builder builder = embeddedClusterBuilder(properties,
                new ZarisSslBundles(properties, sslBundles.getIfAvailable()).embeddedTls());
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return new ZarisEmbeddedClusterLifecycle(builder.build());
    }

    @Bean
    @ConditionalOnMissingBean
    ZarisRoutingTableWatch zarisRoutingTableWatch() {
        return new ZarisRoutingTableWatch(Clock.systemUTC());
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    ZarisClient zarisClient(ZarisProperties properties,
            ObjectProvider<ZarisEmbeddedClusterLifecycle> embeddedCluster, ZarisRoutingTableWatch routingTableWatch,
            ObjectProvider<ClientMetrics> metrics, ObjectProvider<ZarisClientOptionsCustomizer> customizers,
            ObjectProvider<SslBundles> sslBundles, ObjectProvider<ZarisOperationObserver> observer,
            ObjectProvider<ZarisConnectionDetails> connectionDetails) {
        ZarisConnectionDetails connection = connectionDetails.getIfAvailable();
        boolean embedded = connection == null && properties.resolveMode() == Mode.EMBEDDED;
        ClientMetrics clientMetrics = observer.getIfUnique(ZarisOperationObserver::none)
                .hearingAttempts(routingTableWatch.observing(metrics.getIfUnique(ClientMetrics::disabled)));
        ZarisClientOptions.Builder builder;
        if (connection != null) {
            builder = clientOptionsBuilder(properties, connectedSeeds(connection), clientMetrics,
                    connectedTls(connection, new ZarisSslBundles(properties, sslBundles.getIfAvailable())));
            builder.credentials(credentials(connection));
        } else {
            List<NodeAddress> seeds = switch (properties.resolveMode()) {
                case EMBEDDED -> embeddedSeeds(embeddedCluster.getIfAvailable());
                case CLIENT -> new PropertiesZarisConnectionDetails(properties).getSeeds();
            };
            builder = clientOptionsBuilder(properties, seeds, clientMetrics,
                    new ZarisSslBundles(properties, sslBundles.getIfAvailable()).clientTls());
        }
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        ZarisClientOptions options = builder.build();
        try {
            return ZarisClient.connect(options);
        } catch (ZarisException e) {
            if (embedded) {
                throw e;
            }
            String source = connection != null ? "the ZarisConnectionDetails bean " + connection.getClass().getName()
                    : "zaris.client.seeds";
            throw new ZarisClusterUnreachableException(source, options.seeds(), e);
        }
    }

    /**
     * JDK serialization with an allow-list of the JDK value types, the application's
     * {@code @SpringBootApplication} packages and {@code zaris.serialization.allowed-classes}. The JSON
     * format is defined by {@link JsonSerializerConfiguration} when Jackson is present.
     */
    @Bean
    @ConditionalOnMissingBean
    ZarisSerializer zarisSerializer(ZarisProperties properties, BeanFactory beanFactory) {
        ZarisProperties.Serialization serialization = properties.getSerialization();
        if (serialization.getFormat() == ZarisProperties.Serialization.Format.JSON) {
            throw new InvalidZarisPropertyException("zaris.serialization.format", "zaris.serialization.format is JSON"
                    + " but Jackson 3 (tools.jackson.core:jackson-databind) is not on the classpath",
                    "Add Jackson 3 to the application (e.g. spring-boot-starter-json) or set"
                    + " zaris.serialization.format=jdk.");
        }
        return new JdkZarisSerializer(allowList(serialization, beanFactory), classLoader(beanFactory));
    }

    @Bean
    @ConditionalOnMissingBean
    ZarisTemplate zarisTemplate(ZarisClient client, ZarisSerializer serializer, EntrySizeSample entrySizes,
            ObjectProvider<ZarisOperationObserver> observer) {
        return new ZarisTemplate(client, serializer, entrySizes, observer.getIfUnique(ZarisOperationObserver::none));
    }

    @Bean
    @ConditionalOnMissingBean
    EntrySizeSample zarisEntrySizeSample() {
        return new EntrySizeSample();
    }

    static ClassLoader classLoader(BeanFactory beanFactory) {
        ClassLoader loader = beanFactory instanceof ConfigurableBeanFactory configurable
                ? configurable.getBeanClassLoader() : null;
        return loader != null ? loader : ZarisAutoConfiguration.class.getClassLoader();
    }

    /** The allow-list: built-in JDK types, the auto-configuration packages and the configured patterns. */
    static ClassAllowList allowList(ZarisProperties.Serialization serialization, BeanFactory beanFactory) {
        List<String> patterns = new ArrayList<>();
        if (AutoConfigurationPackages.has(beanFactory)) {
            AutoConfigurationPackages.get(beanFactory).forEach(pkg -> patterns.add(pkg + ".**"));
        }
        patterns.addAll(serialization.getAllowedClasses());
        try {
            return ClassAllowList.of(patterns);
        } catch (IllegalArgumentException e) {
            throw InvalidZarisPropertyException.badValue("zaris.serialization.allowed-classes", e.getMessage(), e);
        }
    }

    /** The (not yet started) cluster that {@code zaris.embedded.*} describes. */
    static EmbeddedCluster embeddedCluster(ZarisProperties properties) {
        return embeddedClusterBuilder(properties, tlsOptions(properties.getTls())).build();
    }

    /** A builder holding what {@code zaris.embedded.*} describes, for the customizers to adjust. */
    static EmbeddedCluster.Builder embeddedClusterBuilder(ZarisProperties properties, TlsOptions tls) {
        ZarisProperties.Embedded embedded = properties.getEmbedded();
        if (tls != null && !tls.hasKeyMaterial()) {
            throw new InvalidZarisPropertyException("zaris.tls", "zaris.tls: embedded nodes serve TLS, so set"
                    + " zaris.tls.certificate-chain and zaris.tls.private-key, or zaris.tls.key-store",
                    "Give the embedded nodes key material: zaris.tls.certificate-chain and zaris.tls.private-key (PEM)"
                    + " or zaris.tls.key-store, or use zaris.embedded.ssl.bundle with a bundle that has a key store.");
        }
        String secret = properties.getCluster().getSecret();
        ClusterSecret clusterSecret = null;
        if (secret != null && !secret.isEmpty()) {
            try {
                clusterSecret = ClusterSecret.of(secret);
            } catch (IllegalArgumentException e) {
                throw InvalidZarisPropertyException.badValue("zaris.cluster.secret", e.getMessage(), e);
            }
        }
        EmbeddedCluster.Builder builder = EmbeddedCluster.builder();
        set("zaris.embedded.nodes", () -> builder.nodes(embedded.getNodes()));
        set("zaris.embedded.replication-factor", () -> builder.replicationFactor(embedded.getReplicationFactor()));
        // Segments alone first, so that a bad count is blamed on the property that holds it.
        set("zaris.embedded.segments", () -> PartitionLayout.of(embedded.getSegments(), 1));
        set("zaris.embedded.partitions",
                () -> builder.layout(PartitionLayout.of(embedded.getSegments(), embedded.getPartitions())));
        return builder
                .security(embeddedSecurity(properties.getSecurity()))
                .tls(tls)
                .clusterSecret(clusterSecret)
                .replication(replication(embedded))
                .joinSettleDelay(joinSettleDelay(embedded))
                .maxConcurrentMoves(maxConcurrentMoves(embedded))
                .resp(embedded.getResp().isEnabled())
                .respPort(respPort(embedded))
                .memory(memory(embedded, Runtime.getRuntime().maxMemory()));
    }

    /**
     * {@code zaris.embedded.resp.port}, checked here so that the error names the properties: 0..65535, room
     * for a port per node, and only with {@code zaris.embedded.resp.enabled}.
     */
    static int respPort(ZarisProperties.Embedded embedded) {
        int port = embedded.getResp().getPort();
        if (port == 0) {
            return 0;
        }
        if (!embedded.getResp().isEnabled()) {
            throw new InvalidZarisPropertyException("zaris.embedded.resp.port", "zaris.embedded.resp.port is " + port
                    + " but zaris.embedded.resp.enabled is false",
                    "Set zaris.embedded.resp.enabled=true, or remove zaris.embedded.resp.port.");
        }
        if (port < 0 || port + embedded.getNodes() - 1 > 65535) {
            throw InvalidZarisPropertyException.outOfRange("zaris.embedded.resp.port", "zaris.embedded.resp.port must"
                    + " leave a port in 1..65535 for each of the " + embedded.getNodes() + " nodes (node k listens on"
                    + " port + k - 1) but was " + port, null);
        }
        return port;
    }

    /**
     * {@code zaris.embedded.max-memory} and {@code zaris.embedded.eviction-policy}, checked here so that an error
     * names the property. A percentage is of {@code maxHeapBytes}, per node; unset, the nodes split the engine's
     * default share of the heap.
     */
    static MemoryOptions memory(ZarisProperties.Embedded embedded, long maxHeapBytes) {
        MemoryOptions.Builder memory = MemoryOptions.builder();
        try {
            memory.maxBytes(embedded.getMaxMemory() == null ? MemoryOptions.defaultMaxBytes(embedded.getNodes())
                    : MemoryOptions.parseSize(embedded.getMaxMemory(), maxHeapBytes));
        } catch (IllegalArgumentException e) {
            throw InvalidZarisPropertyException.badValue("zaris.embedded.max-memory", e.getMessage(), e);
        }
        try {
            memory.policy(EvictionPolicy.parse(embedded.getEvictionPolicy()));
        } catch (IllegalArgumentException e) {
            throw InvalidZarisPropertyException.badValue("zaris.embedded.eviction-policy", e.getMessage(), e);
        }
        return memory.build();
    }

    /** {@code zaris.embedded.join-settle-delay}, checked here so that the error names the property. */
    static Duration joinSettleDelay(ZarisProperties.Embedded embedded) {
        Duration delay = embedded.getJoinSettleDelay();
        if (delay == null || delay.isNegative()) {
            throw InvalidZarisPropertyException.outOfRange("zaris.embedded.join-settle-delay",
                    "zaris.embedded.join-settle-delay must be 0 or more (e.g. 10s) but was "
                    + (delay == null ? "empty" : delay), null);
        }
        return delay;
    }

    /** {@code zaris.embedded.max-concurrent-moves}, checked here so that the error names the property. */
    static int maxConcurrentMoves(ZarisProperties.Embedded embedded) {
        int moves = embedded.getMaxConcurrentMoves();
        if (moves < 1) {
            throw InvalidZarisPropertyException.outOfRange("zaris.embedded.max-concurrent-moves",
                    "zaris.embedded.max-concurrent-moves must be at least 1 but was " + moves, null);
        }
        return moves;
    }

    /** The engine's replication settings with the configured acknowledgement; the rest stay at their defaults. */
    static ReplicationSettings replication(ZarisProperties.Embedded embedded) {
        if (embedded.getAckMode() == null) {
            throw InvalidZarisPropertyException.outOfRange("zaris.embedded.ack-mode",
                    "zaris.embedded.ack-mode must be SYNC or ASYNC", null);
        }
        ReplicationSettings defaults = ReplicationSettings.defaults();
        try {
            return new ReplicationSettings(embedded.getAckMode(), embedded.getMinSyncReplicas(), defaults.ackTimeout(),
                    defaults.healCooldown(), defaults.evictionDelay(), defaults.asyncFlushDelay());
        } catch (IllegalArgumentException e) {
            throw InvalidZarisPropertyException.badValue("zaris.embedded.min-sync-replicas", e.getMessage(), e);
        }
    }

    /**
     * With a password the embedded nodes require it: the shared password, plus {@code zaris.security.username}
     * as a read-write user when it is not the default user.
     */
    static SecurityOptions embeddedSecurity(ZarisProperties.Security security) {
        String password = security.getPassword();
        if (password == null || password.isEmpty()) {
            return SecurityOptions.none();
        }
        String user = security.getUsername();
        boolean namedUser = user != null && !user.equals(Credentials.DEFAULT_USER);
        SecurityOptions options = SecurityOptions.of(password, namedUser ? List.of(user + " read-write " + password)
                : List.of());
        try {
            return options.withLoginTimeout(security.getLoginTimeout());
        } catch (IllegalArgumentException e) {
            throw InvalidZarisPropertyException.badValue("zaris.security.login-timeout", e.getMessage(), e);
        }
    }

    /** {@code zaris.tls.*} as engine options, or {@code null} when none is set; file and password errors name the prefix. */
    static TlsOptions tlsOptions(ZarisProperties.Tls tls) {
        if (!tls.isConfigured()) {
            return null;
        }
        TlsOptions.Builder builder = TlsOptions.builder();
        try {
            if (tls.getCertificateChain() != null || tls.getPrivateKey() != null) {
                if (tls.getCertificateChain() == null || tls.getPrivateKey() == null) {
                    throw new IllegalArgumentException("certificate-chain and private-key go together: set both");
                }
                builder.pem(tls.getCertificateChain(), tls.getPrivateKey());
            }
            if (tls.getKeyStore() != null) {
                builder.keyStore(tls.getKeyStore(), tls.getKeyStorePassword());
            }
            if (tls.getTrustedCertificates() != null) {
                builder.trustedCertificates(tls.getTrustedCertificates());
            }
            if (tls.getTrustStore() != null) {
                builder.trustStore(tls.getTrustStore(), tls.getTrustStorePassword());
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw InvalidZarisPropertyException.badValue("zaris.tls", e.getMessage(), e);
        }
    }

    /**
     * Maps the binding bean to the engine's immutable options; the builder validates each value. The
     * environment is empty: {@link ZarisEnvironmentPostProcessor} already folded the variables into the
     * properties.
     */
    static ZarisClientOptions clientOptions(ZarisProperties properties, List<NodeAddress> seeds, ClientMetrics metrics) {
        return clientOptionsBuilder(properties, seeds, metrics, tlsOptions(properties.getTls())).build();
    }

    /** A builder holding what the properties describe, for the customizers to adjust. */
    static ZarisClientOptions.Builder clientOptionsBuilder(ZarisProperties properties, List<NodeAddress> seeds,
            ClientMetrics metrics, TlsOptions tls) {
        ZarisProperties.Client client = properties.getClient();
        if (properties.getRequestTimeout() == null) {
            throw InvalidZarisPropertyException.outOfRange("zaris.request-timeout",
                    "zaris.request-timeout must be set (e.g. 60s or infinite)", null);
        }
        ZarisClientOptions.Builder builder = ZarisClientOptions.builder().seeds(seeds).clientName(CLIENT_NAME)
                .metrics(metrics).environment(Map.of());
        set("zaris.client.connect-timeout", () -> builder.connectTimeout(client.getConnectTimeout()));
        set("zaris.client.bootstrap-timeout", () -> builder.bootstrapTimeout(client.getBootstrapTimeout()));
        set("zaris.client.map-refresh-interval", () -> builder.mapRefreshInterval(client.getMapRefreshInterval()));
        set("zaris.client.map-refresh-wait", () -> builder.mapRefreshWait(client.getMapRefreshWait()));
        set("zaris.client.max-attempts", () -> builder.maxAttempts(client.getMaxAttempts()));
        set("zaris.client.retry-backoff", () -> builder.retryBackoff(client.getRetryBackoff()));
        set("zaris.client.connections-per-node", () -> builder.connectionsPerNode(client.getConnectionsPerNode()));
        set("zaris.client.direct-read-connections-per-node",
                () -> builder.directReadConnectionsPerNode(client.getDirectReadConnectionsPerNode()));
        ZarisProperties.Cache.NearCache near = properties.getCache().getNearCache();
        if (near.isEnabled()) {
            NearCacheOptions.Builder nearCache = NearCacheOptions.builder();
            set("zaris.cache.near-cache.max-entries", () -> nearCache.maxEntries(near.getMaxEntries()));
            set("zaris.cache.near-cache.max-bytes", () -> nearCache.maxBytes(near.getMaxBytes() == null ? 0
                    : near.getMaxBytes().toBytes()));
            builder.nearCache(nearCache.build());
        }
        builder.disableRetries(client.isDisableRetries());
        builder.requestTimeout(properties.getRequestTimeout());
        ZarisProperties.Security security = properties.getSecurity();
        if (security.getPassword() != null && !security.getPassword().isEmpty()) {
            set("zaris.security", () -> builder.credentials(new Credentials(security.getUsername(), security.getPassword())));
        }
        builder.tls(tls);
        return builder;
    }

    /** Applies one setting, naming its property when the builder rejects the value. */
    private static void set(String property, Runnable setter) {
        try {
            setter.run();
        } catch (IllegalArgumentException e) {
            throw InvalidZarisPropertyException.badValue(property, e.getMessage(), e);
        }
    }

    /**
     * Parses {@code zaris.client.seeds}, skipping blank entries.
     *
     * @throws InvalidZarisPropertyException when no seed is configured or one is malformed
     */
    static List<NodeAddress> configuredSeeds(ZarisProperties.Client client) {
        if (!client.hasSeeds()) {
            throw new InvalidZarisPropertyException("zaris.client.seeds", "zaris.mode is " + Mode.CLIENT
                    + " but zaris.client.seeds is empty",
                    "Set zaris.client.seeds to the host:port of at least one node's data port"
                    + " (e.g. zaris.client.seeds=10.0.0.1:7101,10.0.0.2:7101),"
                    + " or remove zaris.mode to run an embedded cluster.");
        }
        return client.getSeeds().stream()
                .filter(seed -> seed != null && !seed.isBlank())
                .map(ZarisAutoConfiguration::seed)
                .toList();
    }

    private static NodeAddress seed(String seed) {
        try {
            return NodeAddress.parse(seed);
        } catch (IllegalArgumentException e) {
            throw new InvalidZarisPropertyException("zaris.client.seeds", "zaris.client.seeds: '" + seed
                    + "' is not a node address: " + e.getMessage(), "Write each seed as host:port of a node's data"
                    + " port, separated by commas (e.g. zaris.client.seeds=10.0.0.1:7101,10.0.0.2:7101).", e);
        }
    }

    /** The seeds of a connection-details bean, which must name at least one. */
    static List<NodeAddress> connectedSeeds(ZarisConnectionDetails connection) {
        List<NodeAddress> seeds = connection.getSeeds();
        if (seeds == null || seeds.isEmpty()) {
            throw new IllegalStateException("the ZarisConnectionDetails bean " + connection.getClass().getName()
                    + " names no seed; it must give the data address of at least one node");
        }
        return List.copyOf(seeds);
    }

    /** A connection-details bean's SSL bundle, or else the TLS properties as without one. */
    private static TlsOptions connectedTls(ZarisConnectionDetails connection, ZarisSslBundles properties) {
        return connection.getSslBundle() != null
                ? ZarisSslBundles.tlsOptions(connection.getSslBundle(), "the ZarisConnectionDetails' SSL bundle")
                : properties.clientTls();
    }

    /** A connection-details bean's login; {@code null} when it has no password. */
    static Credentials credentials(ZarisConnectionDetails connection) {
        String password = connection.getPassword();
        if (password == null || password.isEmpty()) {
            return null;
        }
        String user = connection.getUsername();
        return new Credentials(user == null || user.isBlank() ? Credentials.DEFAULT_USER : user, password);
    }

    private static List<NodeAddress> embeddedSeeds(ZarisEmbeddedClusterLifecycle embeddedCluster) {
        if (embeddedCluster == null) {
            throw new IllegalStateException("zaris.mode is " + Mode.EMBEDDED
                    + " but there is no ZarisEmbeddedClusterLifecycle bean to connect to");
        }
        return embeddedCluster.seeds();
    }

    /** The JSON serializer, when {@code zaris.serialization.format=json} and Jackson 3 is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JsonMapper.class)
    @ConditionalOnProperty(name = "zaris.serialization.format", havingValue = "json")
    static class JsonSerializerConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ZarisSerializer zarisSerializer(ZarisProperties properties, BeanFactory beanFactory,
                ObjectProvider<JsonMapper> jsonMapper) {
            return new JsonZarisSerializer(jsonMapper.getIfUnique(() -> JsonMapper.builder().build()),
                    allowList(properties.getSerialization(), beanFactory), classLoader(beanFactory));
        }
    }
}
