package io.zaris.spring;

import io.zaris.client.RequestTimeout;
import io.zaris.model.AckMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

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
 *
 * <p>The environment variables {@code ZARIS_REQUEST_TIMEOUT}, {@code ZARIS_DISABLE_RETRIES} and
 * {@code ZARIS_CLIENT_MAP_REFRESH_WAIT} (or its deprecated {@code _MS} spelling) land on {@code zaris.request-timeout},
 * {@code zaris.client.disable-retries} and {@code zaris.client.map-refresh-wait} (see
 * {@link ZarisEnvironmentPostProcessor}), so they override {@code application.yml}.
 */
@ConfigurationProperties("zaris")
public class ZarisProperties {

    /**
     * How the application reaches a cluster. When unset, CLIENT if zaris.client.seeds is set, otherwise
     * EMBEDDED.
     */
    private Mode mode;

    /**
     * Deadline of one operation across all its attempts: a duration (60s, 1500ms, 2m, or plain
     * milliseconds) or 'infinite'. Overridden by the ZARIS_REQUEST_TIMEOUT environment variable.
     */
    private RequestTimeout requestTimeout = RequestTimeout.DEFAULT;

    private final Embedded embedded = new Embedded();

    private final Client client = new Client();

    private final Cache cache = new Cache();

    private final Serialization serialization = new Serialization();

    private final Security security = new Security();

    private final Tls tls = new Tls();

    private final Cluster cluster = new Cluster();

    private final Observation observation = new Observation();

    public Mode getMode() {
        return mode;
    }

    public void setMode(Mode mode) {
        this.mode = mode;
    }

    public RequestTimeout getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(RequestTimeout requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public Embedded getEmbedded() {
        return embedded;
    }

    public Client getClient() {
        return client;
    }

    public Cache getCache() {
        return cache;
    }

    public Serialization getSerialization() {
        return serialization;
    }

    public Security getSecurity() {
        return security;
    }

    public Tls getTls() {
        return tls;
    }

    public Cluster getCluster() {
        return cluster;
    }

    public Observation getObservation() {
        return observation;
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

    /**
     * Logging in to the cluster. In client mode the nodes must know the user; in embedded mode a password
     * makes the in-process nodes require it too.
     */
    public static class Security {

        /**
         * User to log in as ("default" is the cluster's shared password). Environment variable: ZARIS_USER.
         */
        private String username = "default";

        /**
         * Password to log in with; no login when unset. Environment variable: ZARIS_PASSWORD.
         */
        private String password;

        /**
         * Embedded mode with a password: connections that have not logged in this long after connecting are closed.
         */
        private Duration loginTimeout = Duration.ofSeconds(10);

        public String getUsername() {
            return username;
        }

        public void setUsername(String username) {
            this.username = username;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }

        public Duration getLoginTimeout() {
            return loginTimeout;
        }

        public void setLoginTimeout(Duration loginTimeout) {
            this.loginTimeout = loginTimeout;
        }
    }

    /**
     * TLS on connections to the cluster's data ports (client mode), or on the embedded nodes' data ports, RESP
     * ports and links between them (embedded mode; needs key material). Off unless a certificate, key store,
     * CA file or trust store is set. Give PEM files or stores, not both.
     */
    public static class Tls {

        /**
         * PEM file with the node's certificate chain (embedded mode). Goes with private-key.
         */
        private Path certificateChain;

        /**
         * PEM file with the node's unencrypted PKCS#8 private key (embedded mode). Goes with certificate-chain.
         */
        private Path privateKey;

        /**
         * PKCS12 (or .jks) key store with the node's key and certificate (embedded mode), instead of PEM files.
         */
        private Path keyStore;

        /**
         * Password of the key store and of the key in it. Environment variable: ZARIS_TLS_KEYSTOREPASSWORD.
         */
        private String keyStorePassword;

        /**
         * PEM file with the CA certificates the nodes' certificates must chain to.
         */
        private Path trustedCertificates;

        /**
         * PKCS12 (or .jks) trust store, instead of trusted-certificates. Without either, the JVM's trust store.
         */
        private Path trustStore;

        /**
         * Password of the trust store. Environment variable: ZARIS_TLS_TRUSTSTOREPASSWORD.
         */
        private String trustStorePassword;

        /** Whether any TLS setting is given (TLS is then on). */
        public boolean isConfigured() {
            return certificateChain != null || privateKey != null || keyStore != null || trustedCertificates != null
                    || trustStore != null;
        }

        public Path getCertificateChain() {
            return certificateChain;
        }

        public void setCertificateChain(Path certificateChain) {
            this.certificateChain = certificateChain;
        }

        public Path getPrivateKey() {
            return privateKey;
        }

        public void setPrivateKey(Path privateKey) {
            this.privateKey = privateKey;
        }

        public Path getKeyStore() {
            return keyStore;
        }

        public void setKeyStore(Path keyStore) {
            this.keyStore = keyStore;
        }

        public String getKeyStorePassword() {
            return keyStorePassword;
        }

        public void setKeyStorePassword(String keyStorePassword) {
            this.keyStorePassword = keyStorePassword;
        }

        public Path getTrustedCertificates() {
            return trustedCertificates;
        }

        public void setTrustedCertificates(Path trustedCertificates) {
            this.trustedCertificates = trustedCertificates;
        }

        public Path getTrustStore() {
            return trustStore;
        }

        public void setTrustStore(Path trustStore) {
            this.trustStore = trustStore;
        }

        public String getTrustStorePassword() {
            return trustStorePassword;
        }

        public void setTrustStorePassword(String trustStorePassword) {
            this.trustStorePassword = trustStorePassword;
        }
    }

    /** Micrometer Observations of client operations (a timer, and a span when tracing is set up). */
    public static class Observation {

        /**
         * Whether every client operation of the template and the caches is observed
         * (zaris.client.operation). Off by default: a cache call is often too small to be worth a span.
         * Needs an ObservationRegistry bean (spring-boot-micrometer-observation).
         */
        private boolean enabled;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Membership of the embedded nodes. */
    public static class Cluster {

        /**
         * Secret the embedded nodes authenticate and encrypt their membership traffic with (at least 16
         * characters); off when unset. Environment variable: ZARIS_CLUSTER_SECRET.
         */
        private String secret;

        public String getSecret() {
            return secret;
        }

        public void setSecret(String secret) {
            this.secret = secret;
        }
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

        /**
         * When the embedded nodes acknowledge a write: SYNC (after every live replica applied it; a partition
         * whose replicas are gone acknowledges on its owner alone while it gets new ones) or ASYNC (once the
         * owner applied it; a write can be lost if the owner dies first).
         */
        private AckMode ackMode = AckMode.SYNC;

        /**
         * The strict SYNC option: refuse writes (retryable UNAVAILABLE) while fewer replicas than this are
         * connected (0 to replication factor - 1). 0 waits for every live replica and acknowledges on the owner
         * alone when none is left, so losing a node never makes its partitions unwritable.
         */
        // A literal, so the configuration metadata shows it; ZarisPropertiesTests holds it equal to the engine's default.
        private int minSyncReplicas = 0;

        /**
         * How long a node that joins the running embedded cluster waits before the leader gives it partitions
         * (0 or more; 0 gives it its share at once). A node that leaves again within the delay moves nothing.
         */
        private Duration joinSettleDelay = Duration.ofSeconds(10);

        /**
         * How many partitions a rebalance (a node joining or draining) moves at once (at least 1). Each moving
         * partition shows as DEGRADED until its new owners are in sync and it is handed over.
         */
        private int maxConcurrentMoves = 8;

        private final Resp resp = new Resp();

        private final Ssl ssl = new Ssl();

        public Resp getResp() {
            return resp;
        }

        /** TLS of the embedded nodes from a Boot SSL bundle. */
        public Ssl getSsl() {
            return ssl;
        }

        /**
         * Memory budget of each embedded node: a size (bytes, or 512KB, 64MB, 2GB; k, m, g and KiB-style units
         * work too) or a percentage of this JVM's max heap (e.g. 10%). The nodes share one heap, so keep nodes
         * times budget well below it. Unset: 40% of the max heap divided evenly among the nodes.
         */
        private String maxMemory;

        /**
         * What a node over its memory budget does: allkeys-lru (evict the least recently used keys), volatile-lru
         * (the least recently used keys that have a TTL), volatile-ttl (the keys closest to expiry) or
         * noeviction (refuse writes that add data with OUT_OF_MEMORY).
         */
        private String evictionPolicy = "allkeys-lru";

        public String getMaxMemory() {
            return maxMemory;
        }

        public void setMaxMemory(String maxMemory) {
            this.maxMemory = maxMemory;
        }

        public String getEvictionPolicy() {
            return evictionPolicy;
        }

        public void setEvictionPolicy(String evictionPolicy) {
            this.evictionPolicy = evictionPolicy;
        }

        public Duration getJoinSettleDelay() {
            return joinSettleDelay;
        }

        public void setJoinSettleDelay(Duration joinSettleDelay) {
            this.joinSettleDelay = joinSettleDelay;
        }

        public int getMaxConcurrentMoves() {
            return maxConcurrentMoves;
        }

        public void setMaxConcurrentMoves(int maxConcurrentMoves) {
            this.maxConcurrentMoves = maxConcurrentMoves;
        }

        public AckMode getAckMode() {
            return ackMode;
        }

        public void setAckMode(AckMode ackMode) {
            this.ackMode = ackMode;
        }

        public int getMinSyncReplicas() {
            return minSyncReplicas;
        }

        public void setMinSyncReplicas(int minSyncReplicas) {
            this.minSyncReplicas = minSyncReplicas;
        }

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

    /** The Redis protocol (RESP) listeners of the embedded nodes, for Redis clients and tools on this host. */
    public static class Resp {

        /**
         * Whether every embedded node listens for the Redis protocol (RESP) on loopback, so that Redis Cluster
         * clients (Lettuce, Jedis, redis-cli -c) reach the embedded cluster.
         */
        private boolean enabled = false;

        /**
         * RESP port of the first embedded node; node k listens on this port + k - 1. 0 gives every node an
         * ephemeral port. Needs zaris.embedded.resp.enabled=true.
         */
        private int port = 0;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getPort() {
            return port;
        }

        public void setPort(int port) {
            this.port = port;
        }
    }

    /** TLS from one of Boot's SSL bundles ({@code spring.ssl.bundle.*}). */
    public static class Ssl {

        /**
         * Name of the SSL bundle (spring.ssl.bundle.jks.NAME or spring.ssl.bundle.pem.NAME) to use instead of the
         * zaris.tls.* files (set one or the other). Under zaris.embedded: the nodes' key store (required) and trust
         * store; under zaris.client: the trust store the client checks the nodes against (in embedded mode the
         * client falls back to the nodes' bundle).
         */
        private String bundle;

        public String getBundle() {
            return bundle;
        }

        public void setBundle(String bundle) {
            this.bundle = bundle;
        }

        /** Whether a bundle is named. */
        public boolean isConfigured() {
            return bundle != null && !bundle.isBlank();
        }
    }

    /** The connection to a cluster, and in {@link Mode#CLIENT} mode, where that cluster is. */
    public static class Client {

        private final Ssl ssl = new Ssl();

        /** TLS of the client's connections from a Boot SSL bundle (its trust store decides which nodes it trusts). */
        public Ssl getSsl() {
            return ssl;
        }

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

        /**
         * How long a request waits for a shared cluster-map refresh before retrying with the map it has.
         * Overridden by the ZARIS_CLIENT_MAP_REFRESH_WAIT environment variable (e.g. 5s).
         */
        private Duration mapRefreshWait = Duration.ofMillis(15_000);

        /**
         * Attempts per operation, the first included (1 to 100). Conditional writes and increments whose
         * outcome is unknown are never repeated, whatever this says.
         */
        private int maxAttempts = 3;

        /**
         * Linear retry backoff unit: attempt n waits n times this (capped by the client).
         */
        private Duration retryBackoff = Duration.ofMillis(100);

        /**
         * Whether every operation makes exactly one attempt. Overridden by the ZARIS_DISABLE_RETRIES
         * environment variable.
         */
        private boolean disableRetries;

        /**
         * Connections the client keeps to each node (1 to 64). Every segment is bound to one of them, so the
         * requests of one segment keep their order; more connections let a node serve one client on more
         * event-loop threads, which pays off only when the nodes have cores to spare.
         */
        private int connectionsPerNode = 1;

        /**
         * Blocking sockets per node (0 to 256) on which a blocking single-key read or unconditional write (a cache
         * hit, fill or evict; values up to 64 KiB) is written and answered by the calling thread itself, saving two
         * thread hand-offs; callers beyond this many at once, and every other request, use the pipelined
         * connections; 0 turns them off. Not used with TLS.
         */
        private int directReadConnectionsPerNode = 4;

        public int getDirectReadConnectionsPerNode() {
            return directReadConnectionsPerNode;
        }

        public void setDirectReadConnectionsPerNode(int directReadConnectionsPerNode) {
            this.directReadConnectionsPerNode = directReadConnectionsPerNode;
        }

        public int getConnectionsPerNode() {
            return connectionsPerNode;
        }

        public void setConnectionsPerNode(int connectionsPerNode) {
            this.connectionsPerNode = connectionsPerNode;
        }

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

        public Duration getMapRefreshWait() {
            return mapRefreshWait;
        }

        public void setMapRefreshWait(Duration mapRefreshWait) {
            this.mapRefreshWait = mapRefreshWait;
        }

        public int getMaxAttempts() {
            return maxAttempts;
        }

        public void setMaxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
        }

        public Duration getRetryBackoff() {
            return retryBackoff;
        }

        public void setRetryBackoff(Duration retryBackoff) {
            this.retryBackoff = retryBackoff;
        }

        public boolean isDisableRetries() {
            return disableRetries;
        }

        public void setDisableRetries(boolean disableRetries) {
            this.disableRetries = disableRetries;
        }

        /** Whether at least one non-blank seed is configured. */
        boolean hasSeeds() {
            return seeds != null && seeds.stream().anyMatch(seed -> seed != null && !seed.isBlank());
        }
    }

    /** The Spring cache abstraction ({@code @Cacheable} and friends) backed by Zaris. */
    public static class Cache {

        /**
         * Whether to auto-configure a Zaris CacheManager (also requires @EnableCaching).
         */
        private boolean enabled = true;

        /**
         * Caches created at start-up (so that metrics and the caches endpoint see them before first
         * use). Other names are created on first use.
         */
        private List<String> cacheNames = new ArrayList<>();

        /**
         * Prepended to every cache key: the stored key is {prefix}{cache name}::{key}. Must not contain '::'.
         */
        private String keyPrefix = "";

        /**
         * Default settings of every cache; a cache listed under zaris.cache.caches overrides them.
         */
        private final CacheSpec defaults = CacheSpec.withDefaults();

        /**
         * Per-cache overrides of zaris.cache.defaults, by cache name: ttl (or time-to-live), ttl-function,
         * time-to-idle, ttl-jitter, cache-null-values, cluster-wide-sync, loader-lease-time, serializer. Any other
         * key fails start-up.
         */
        private Map<String, CacheSpec> caches = new LinkedHashMap<>();

        /**
         * What a cached method does when a Zaris cache operation still fails once the client's retries and
         * deadline (zaris.request-timeout) are spent. fall-through: a failed read is a miss and a failed write is
         * skipped, so the method runs and its result is returned; each is logged and counted
         * (zaris.cache.fallthroughs). fail: the failure goes to Spring's cache error handling like any other
         * cache's, which by default throws it to the caller. In both modes a failed eviction or clear goes to
         * Spring's handling (by default: the caller), so a possibly stale entry is not left unnoticed. Other
         * caches of the application keep their own handling.
         */
        private OnError onError = OnError.FALL_THROUGH;

        /**
         * The client's near cache: values read, kept in the application's memory and answered without a round
         * trip while their owner can vouch for them. Applies to every read of the Zaris client (caches and
         * ZarisTemplate alike).
         */
        private final NearCache nearCache = new NearCache();

        public NearCache getNearCache() {
            return nearCache;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public List<String> getCacheNames() {
            return cacheNames;
        }

        public void setCacheNames(List<String> cacheNames) {
            this.cacheNames = cacheNames;
        }

        public String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        public CacheSpec getDefaults() {
            return defaults;
        }

        public Map<String, CacheSpec> getCaches() {
            return caches;
        }

        public void setCaches(Map<String, CacheSpec> caches) {
            this.caches = caches;
        }

        public OnError getOnError() {
            return onError;
        }

        public void setOnError(OnError onError) {
            this.onError = onError;
        }

        /** The client's near cache (see {@code NearCacheOptions}); off unless enabled. */
        public static class NearCache {

            /**
             * Whether the Zaris client keeps the values it reads in the application's memory and answers repeated
             * reads from there. A value is served only while the node it was read from still owns the key under
             * the same epoch over an open connection; other clients' changes are pushed to it.
             */
            private boolean enabled = false;

            /**
             * Values the near cache keeps at most; the least recently used goes first.
             */
            private int maxEntries = 10_000;

            /**
             * Bytes the near cache keeps at most, counting keys, values and about 96 bytes of bookkeeping per
             * entry.
             */
            private DataSize maxBytes = DataSize.ofMegabytes(64);

            public boolean isEnabled() {
                return enabled;
            }

            public void setEnabled(boolean enabled) {
                this.enabled = enabled;
            }

            public int getMaxEntries() {
                return maxEntries;
            }

            public void setMaxEntries(int maxEntries) {
                this.maxEntries = maxEntries;
            }

            public DataSize getMaxBytes() {
                return maxBytes;
            }

            public void setMaxBytes(DataSize maxBytes) {
                this.maxBytes = maxBytes;
            }
        }

        /**
         * What becomes of a Zaris cache operation that fails. The default is {@link #FALL_THROUGH}: a cache
         * holds copies of data that lives elsewhere, so while the cluster cannot answer, the application can
         * still answer by running the cached method, only slower; failing the call would turn a cache outage
         * into an outage of every endpoint that reads through the cache. Evictions are the exception in both
         * modes: an eviction that fails may leave an entry older than the data it copies, which readers would
         * be served once the cluster answers again, so Zaris never swallows it: it goes to Spring's cache
         * error handling, which by default throws it to the caller.
         */
        public enum OnError {

            /**
             * A failed read is a miss, a failed write (a {@code @Cacheable} fill, a {@code @CachePut}, the store
             * after a {@code sync = true} load) is skipped; each is logged and counted. Failed evictions and
             * clears still reach the caller.
             */
            FALL_THROUGH,

            /**
             * Every failure goes to Spring's cache error handling, as for any other cache: by default the
             * exception reaches the caller.
             */
            FAIL
        }
    }

    /**
     * Settings of one cache. Under zaris.cache.defaults every field has a value; under
     * zaris.cache.caches.{name} an unset field falls back to the default.
     *
     * <p>{@code ttl} and {@code time-to-live} are one setting under two names (the short one is what most
     * users type); {@link #setsTimeToLiveTwice()} tells when a configuration names both.
     */
    public static class CacheSpec {

        /**
         * How long an entry lives after it is written; 0 means no expiry. Same setting as ttl: set one of them.
         */
        private Duration timeToLive;

        /** Whether ttl, respectively time-to-live, was set: the binder calls only the setters it has values for. */
        private boolean ttlSet;
        private boolean timeToLiveSet;

        /**
         * How long an entry lives after it was last written or read (every hit extends it); 0 means no idle
         * expiry. With a time to live (or TTL function) too, an entry ends at whichever comes first.
         */
        private Duration timeToIdle;

        /**
         * Name of a ZarisCacheTtlFunction bean that computes each entry's time to live from its key and value;
         * replaces ttl (set one of them).
         */
        private String ttlFunction;

        /**
         * This cache's value format: jdk, json, or the name of a ZarisSerializer bean. Unset, the cache uses
         * zaris.serialization.format (or the application's ZarisSerializer bean).
         */
        private String serializer;

        /**
         * Fraction (0 to 1) of the time to live added at random to each entry's TTL, so that entries
         * written together do not all expire together.
         */
        private Double ttlJitter;

        /**
         * Whether null results are cached (as a marker) rather than recomputed on every call.
         */
        private Boolean cacheNullValues;

        /**
         * Whether @Cacheable(sync = true) holds across all application instances: one loader per key
         * in the whole cluster, through a loader lease, instead of one per JVM.
         */
        private Boolean clusterWideSync;

        /**
         * Time to live of a cluster-wide loader lease: a loader that dies is replaced after this long.
         */
        private Duration loaderLeaseTime;

        static CacheSpec withDefaults() {
            CacheSpec spec = new CacheSpec();
            spec.timeToLive = Duration.ZERO;
            spec.timeToIdle = Duration.ZERO;
            spec.ttlJitter = 0.0;
            spec.cacheNullValues = true;
            spec.clusterWideSync = false;
            spec.loaderLeaseTime = Duration.ofSeconds(30);
            return spec;
        }

        public Duration getTimeToLive() {
            return timeToLive;
        }

        public void setTimeToLive(Duration timeToLive) {
            this.timeToLive = timeToLive;
            this.timeToLiveSet = true;
        }

        /** The short name of {@link #getTimeToLive()}. */
        public Duration getTtl() {
            return timeToLive;
        }

        public void setTtl(Duration ttl) {
            this.timeToLive = ttl;
            this.ttlSet = true;
        }

        /** Whether both names of the time to live were set, so one silently replaced the other. */
        public boolean setsTimeToLiveTwice() {
            return ttlSet && timeToLiveSet;
        }

        public Duration getTimeToIdle() {
            return timeToIdle;
        }

        public void setTimeToIdle(Duration timeToIdle) {
            this.timeToIdle = timeToIdle;
        }

        public Double getTtlJitter() {
            return ttlJitter;
        }

        public void setTtlJitter(Double ttlJitter) {
            this.ttlJitter = ttlJitter;
        }

        public Boolean getCacheNullValues() {
            return cacheNullValues;
        }

        public void setCacheNullValues(Boolean cacheNullValues) {
            this.cacheNullValues = cacheNullValues;
        }

        public Boolean getClusterWideSync() {
            return clusterWideSync;
        }

        public void setClusterWideSync(Boolean clusterWideSync) {
            this.clusterWideSync = clusterWideSync;
        }

        public Duration getLoaderLeaseTime() {
            return loaderLeaseTime;
        }

        public void setLoaderLeaseTime(Duration loaderLeaseTime) {
            this.loaderLeaseTime = loaderLeaseTime;
        }

        public String getTtlFunction() {
            return ttlFunction;
        }

        public void setTtlFunction(String ttlFunction) {
            this.ttlFunction = ttlFunction;
        }

        public String getSerializer() {
            return serializer;
        }

        public void setSerializer(String serializer) {
            this.serializer = serializer;
        }
    }

    /** How values are turned into bytes, for the cache and for {@code ZarisTemplate}. */
    public static class Serialization {

        /**
         * Value format: JDK serialization (any Serializable) or JSON (Jackson, must be on the classpath).
         */
        private Format format = Format.JDK;

        /**
         * Classes that may be read back, as ObjectInputFilter patterns: com.acme.Product (one class),
         * com.acme.* (a package), com.acme.** (a package and its subpackages). java.lang, java.util,
         * java.time, java.math and the application's @SpringBootApplication package are always allowed.
         */
        private List<String> allowedClasses = new ArrayList<>();

        public Format getFormat() {
            return format;
        }

        public void setFormat(Format format) {
            this.format = format;
        }

        public List<String> getAllowedClasses() {
            return allowedClasses;
        }

        public void setAllowedClasses(List<String> allowedClasses) {
            this.allowedClasses = allowedClasses;
        }

        /** Value formats. */
        public enum Format {

            /** Java serialization, restricted by an ObjectInputFilter allow-list. */
            JDK,

            /** JSON through Jackson, with the value's class recorded and checked against the allow-list. */
            JSON
        }
    }
}
