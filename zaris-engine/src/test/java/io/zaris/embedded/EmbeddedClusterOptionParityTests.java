package io.zaris.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.server.NodeConfig;
import io.zaris.server.ServerArguments;
import io.zaris.server.ServerOption;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The embedded cluster's builder covers the server's option catalog: every option either has a builder method and
 * the same default as a standalone server, or is listed below with the reason it has no place in an embedded
 * cluster (or defaults differently). A new option fails here until it is given one of the two.
 */
@Tag("unit")
class EmbeddedClusterOptionParityTests {

    /** Options an embedded cluster sets through the builder method named, with the server's default. */
    private static final Map<ServerOption, String> BUILDER_METHODS = Map.ofEntries(
            Map.entry(ServerOption.HOST, "host"),
            Map.entry(ServerOption.REPLICATION_FACTOR, "replicationFactor"),
            Map.entry(ServerOption.PARTITIONS, "layout"),
            Map.entry(ServerOption.SEGMENTS, "layout"),
            Map.entry(ServerOption.ACK_MODE, "replication"),
            Map.entry(ServerOption.MIN_SYNC_REPLICAS, "replication"),
            Map.entry(ServerOption.EVICTION_DELAY, "replication"),
            Map.entry(ServerOption.HEAL_COOLDOWN, "replication"),
            Map.entry(ServerOption.ASYNC_FLUSH_DELAY, "replication"),
            Map.entry(ServerOption.REPLICA_BACKLOG, "replication"),
            Map.entry(ServerOption.JOIN_SETTLE_DELAY, "joinSettleDelay"),
            Map.entry(ServerOption.MAX_CONCURRENT_MOVES, "maxConcurrentMoves"),
            Map.entry(ServerOption.RESP_MAX_BULK_BYTES, "respLimits"),
            Map.entry(ServerOption.RESP_MAX_ARGS, "respLimits"),
            Map.entry(ServerOption.RESP_MAX_INLINE_BYTES, "respLimits"),
            Map.entry(ServerOption.RESP_LINGER_QUIET, "respLinger"),
            Map.entry(ServerOption.RESP_LINGER_MAX, "respLinger"),
            Map.entry(ServerOption.EVICTION_POLICY, "memory"),
            Map.entry(ServerOption.LOGIN_TIMEOUT, "security"),
            Map.entry(ServerOption.MAX_KEY_BYTES, "limits"),
            Map.entry(ServerOption.MAX_VALUE_BYTES, "limits"),
            Map.entry(ServerOption.MAX_FRAME_BYTES, "limits"));

    /** A builder method that sets an option, and why its default differs from the server's. */
    private record OwnDefault(String method, String reason) {
    }

    /** Options set through a builder method, but whose embedded default (or form) differs from the server's on purpose. */
    private static final Map<ServerOption, OwnDefault> BUILDER_METHODS_WITH_OWN_DEFAULT = Map.of(
            ServerOption.CLUSTER_SIZE, new OwnDefault("nodes", "the embedded cluster's size is its node count (3),"
                    + " not a seed count"),
            ServerOption.RESP_PORT, new OwnDefault("resp", "RESP is off unless asked for, and then on ephemeral"
                    + " ports unless respPort gives a base"),
            ServerOption.MAX_MEMORY, new OwnDefault("memory", "the nodes share one heap, so each gets the default"
                    + " share divided by their number"),
            ServerOption.PASSWORD_FILE, new OwnDefault("security", "a SecurityOptions in code instead of a password"
                    + " file"),
            ServerOption.TLS_CERT, new OwnDefault("tls", "a TlsOptions in code (PEM or key store) instead of file"
                    + " options"),
            ServerOption.CLUSTER_SECRET_FILE, new OwnDefault("clusterSecret", "a ClusterSecret in code instead of a"
                    + " secret file"));

    /** Options that have no place in an embedded cluster. */
    private static final Map<ServerOption, String> NOT_EMBEDDED = Map.ofEntries(
            Map.entry(ServerOption.NODE_ID, "embedded nodes are named node-1, node-2, ... in start order"),
            Map.entry(ServerOption.CONFIG, "the builder is the configuration; there is no file"),
            Map.entry(ServerOption.PORT, "every embedded node binds an ephemeral data port"),
            Map.entry(ServerOption.ADVERTISE_HOST, "loopback only: nothing outside the JVM's host reaches the nodes"),
            Map.entry(ServerOption.ADVERTISE_PORT, "loopback only: nothing outside the JVM's host reaches the nodes"),
            Map.entry(ServerOption.CLUSTER_HOST, "membership runs inside the JVM: no membership port"),
            Map.entry(ServerOption.CLUSTER_PORT, "membership runs inside the JVM: no membership port"),
            Map.entry(ServerOption.CLUSTER_ADVERTISE_HOST, "membership runs inside the JVM: no membership port"),
            Map.entry(ServerOption.CLUSTER_ADVERTISE_PORT, "membership runs inside the JVM: no membership port"),
            Map.entry(ServerOption.SEEDS, "membership runs inside the JVM: the nodes find each other there"),
            Map.entry(ServerOption.DISCOVERY, "membership runs inside the JVM: the nodes find each other there"),
            Map.entry(ServerOption.DNS_SERVER, "membership runs inside the JVM: the nodes find each other there"),
            Map.entry(ServerOption.ESCALATION_TIMEOUT, "in-JVM membership has no failure detector to tune: a stopped"
                    + " node leaves at once"),
            Map.entry(ServerOption.CLUSTER_NAME, "each embedded cluster gets a unique name, so two in one JVM never"
                    + " merge"),
            Map.entry(ServerOption.RESP_HOST, "RESP listens on the cluster's host"),
            Map.entry(ServerOption.RESP_ADVERTISE_PORT, "loopback only: nothing to advertise"),
            Map.entry(ServerOption.HTTP_PORT, "the application serves health and metrics itself (Spring's actuator)"),
            Map.entry(ServerOption.HTTP_HOST, "the application serves health and metrics itself (Spring's actuator)"),
            Map.entry(ServerOption.USERS_FILE, "users come with the SecurityOptions given to security"),
            Map.entry(ServerOption.ALLOW_INSECURE, "loopback only: there is no insecure binding to allow"),
            Map.entry(ServerOption.TLS_KEY, "part of the TlsOptions given to tls"),
            Map.entry(ServerOption.TLS_KEYSTORE, "part of the TlsOptions given to tls"),
            Map.entry(ServerOption.TLS_KEYSTORE_PASSWORD_FILE, "part of the TlsOptions given to tls"),
            Map.entry(ServerOption.TLS_CA, "part of the TlsOptions given to tls"),
            Map.entry(ServerOption.TLS_TRUSTSTORE, "part of the TlsOptions given to tls"),
            Map.entry(ServerOption.TLS_TRUSTSTORE_PASSWORD_FILE, "part of the TlsOptions given to tls"),
            Map.entry(ServerOption.DRAIN_ON_STOP, "the application stops its nodes on close; drainNode drains one"
                    + " in code"),
            Map.entry(ServerOption.IO_THREADS, "the event loops are the JVM's, sized by ZARIS_IO_THREADS or the"
                    + " zaris.io-threads system property"));

    @Test
    void everyCatalogOptionIsCoveredByTheBuilderOrListedWithAReason() {
        Set<ServerOption> listed = EnumSet.noneOf(ServerOption.class);
        listed.addAll(BUILDER_METHODS.keySet());
        for (ServerOption option : BUILDER_METHODS_WITH_OWN_DEFAULT.keySet()) {
            assertThat(listed.add(option)).as("%s is listed once", option.flag()).isTrue();
        }
        for (ServerOption option : NOT_EMBEDDED.keySet()) {
            assertThat(listed.add(option)).as("%s is listed once", option.flag()).isTrue();
        }
        assertThat(listed).as("options the embedded builder neither covers nor excludes with a reason")
                .containsExactlyInAnyOrderElementsOf(ServerOption.current());
    }

    @Test
    void theBuilderHasAMethodForEveryOptionItCovers() {
        Set<String> methods = Arrays.stream(EmbeddedCluster.Builder.class.getMethods()).map(Method::getName)
                .collect(java.util.stream.Collectors.toSet());
        BUILDER_METHODS.forEach((option, method) ->
                assertThat(methods).as("EmbeddedCluster.Builder sets %s", option.flag()).contains(method));
        BUILDER_METHODS_WITH_OWN_DEFAULT.forEach((option, ownDefault) -> assertThat(methods)
                .as("EmbeddedCluster.Builder sets %s", option.flag()).contains(ownDefault.method()));
    }

    @Test
    void anEmbeddedNodeDefaultsToWhatAServerDefaultsTo() {
        NodeConfig server = ServerArguments.parse(new String[] {"--node-id", "n1"});
        // RESP on, so that its limits are there to compare; everything else as built by default.
        NodeConfig embedded = EmbeddedCluster.builder().resp(true).build().nodeConfig(1);
        BUILDER_METHODS.keySet().forEach(option -> {
            assertThat(option.landsOnNodeConfig()).as("%s can be compared", option.flag()).isTrue();
            assertThat(option.valueIn(embedded)).as("embedded default of %s", option.flag())
                    .isEqualTo(option.valueIn(server)).isPresent();
        });
    }
}
