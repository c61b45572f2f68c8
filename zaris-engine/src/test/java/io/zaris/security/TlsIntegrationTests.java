package io.zaris.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.model.VersionedValue;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.transport.NodeConnection;
import io.zaris.transport.ZarisTransportException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS end to end on loopback: an embedded cluster whose data ports, RESP ports and replication links all speak
 * TLS with keytool-made certificates; the Zaris client and Lettuce verify them; clients that trust another CA,
 * speak plaintext, or meet a certificate for another host are refused.
 */
@Tag("in-process-cluster")
class TlsIntegrationTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    static Path dir;
    private static TestCertificates.Pki pki;
    private static EmbeddedCluster cluster;
    private static ZarisClient client;

    @BeforeAll
    static void startCluster() throws Exception {
        pki = TestCertificates.create(dir.resolve("pki"), "ip:127.0.0.1,dns:localhost");
        cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2).layout(PartitionLayout.of(64, 8)).resp(true)
                .tls(pki.pemOptions()).build().start();
        client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).tls(pki.clientOptions())
                .environment(java.util.Map.of()).build());
    }

    @AfterAll
    static void stopCluster() {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void syncWritesAreReplicatedOverTlsAndReadBack() {
        // SYNC (the default) acknowledges only after a replica applied the write over its TLS link.
        for (int i = 0; i < 50; i++) {
            client.sync().put("tls:" + i, utf8("v" + i));
        }
        for (int i = 0; i < 50; i++) {
            assertThat(client.sync().get("tls:" + i)).map(TlsIntegrationTests::text).contains("v" + i);
        }
    }

    @Test
    void aClientTrustingAnotherCaIsRefusedWithATlsError() throws Exception {
        TlsOptions strangerTrust = TlsOptions.builder().trustedCertificates(TestCertificates.otherCa(dir.resolve("other")))
                .build();

        assertThatThrownBy(() -> open(cluster.seeds().get(0), strangerTrust).join())
                .isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(ZarisTransportException.class)
                .hasMessageContaining("TLS handshake with " + cluster.seeds().get(0) + " failed");
    }

    @Test
    void aPlaintextClientIsNotServed() {
        assertThatThrownBy(() -> open(cluster.seeds().get(0), null).join())
                .isInstanceOf(CompletionException.class);
    }

    @Test
    void aCertificateForAnotherHostIsRefused() throws Exception {
        TestCertificates.Pki elsewhere = TestCertificates.create(dir.resolve("elsewhere"), "dns:elsewhere.invalid");
        try (EmbeddedCluster single = EmbeddedCluster.builder().nodes(1).replicationFactor(1)
                .layout(PartitionLayout.of(16, 4)).tls(elsewhere.pemOptions()).build().start()) {
            assertThatThrownBy(() -> open(single.seeds().get(0), elsewhere.clientOptions()).join())
                    .cause().isInstanceOf(ZarisTransportException.class)
                    .hasMessageContaining("TLS handshake")
                    .hasMessageContaining("No subject alternative names matching IP address 127.0.0.1");
        }
    }

    @Test
    void replicationOverTlsSurvivesTheLossOfAnOwner() {
        // A cluster of its own, configured from PKCS12 stores this time.
        try (EmbeddedCluster own = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).tls(pki.keyStoreOptions()).build().start();
             ZarisClient ownClient = ZarisClient.connect(ZarisClientOptions.builder().seeds(own.seeds())
                     .tls(TlsOptions.builder().trustStore(pki.trustStore(), TestCertificates.PASSWORD).build())
                     .requestTimeout(Duration.ofSeconds(60)).environment(java.util.Map.of()).build())) {
            for (int i = 0; i < 40; i++) {
                ownClient.sync().put("failover:" + i, utf8("v" + i));
            }
            String victim = ownClient.ownerOf("failover:0");
            own.stopNode(victim);
            for (int i = 0; i < 40; i++) {
                assertThat(ownClient.sync().get("failover:" + i)).as("failover:" + i)
                        .map(TlsIntegrationTests::text).contains("v" + i);
            }
            assertThat(ownClient.ownerOf("failover:0")).isNotEqualTo(victim);
        }
    }

    @Test
    void lettuceSpeaksRespOverTlsAndVerifiesTheNodes() {
        List<RedisURI> seeds = new ArrayList<>();
        for (NodeAddress address : cluster.respSeeds()) {
            seeds.add(RedisURI.builder().withHost(address.host()).withPort(address.port()).withSsl(true)
                    .withVerifyPeer(true).build());
        }
        RedisClusterClient lettuce = RedisClusterClient.create(seeds);
        lettuce.setOptions(ClusterClientOptions.builder().sslOptions(SslOptions.builder().jdkSslProvider()
                .truststore(pki.trustStore().toFile(), TestCertificates.PASSWORD).build()).build());
        try (StatefulRedisClusterConnection<String, String> connection = lettuce.connect()) {
            RedisAdvancedClusterCommands<String, String> redis = connection.sync();
            for (int i = 0; i < 30; i++) {
                assertThat(redis.set("lettuce-tls:" + i, "v" + i)).isEqualTo("OK");
            }
            for (int i = 0; i < 30; i++) {
                assertThat(redis.get("lettuce-tls:" + i)).isEqualTo("v" + i);
            }
        } finally {
            lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static java.util.concurrent.CompletableFuture<NodeConnection> open(NodeAddress address, TlsOptions tls) {
        return NodeConnection.open(address, "tls-test", null, tls, TIMEOUT, TIMEOUT, 100,
                ProtocolLimits.DEFAULT_MAX_FRAME_BYTES, event -> { }, lost -> { });
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(VersionedValue value) {
        return new String(value.value(), StandardCharsets.UTF_8);
    }
}
