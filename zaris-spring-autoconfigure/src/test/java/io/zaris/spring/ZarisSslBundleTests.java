package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.security.TlsOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code zaris.embedded.ssl.bundle} and {@code zaris.client.ssl.bundle} with real certificates (made by the
 * JDK's keytool) and real TLS connections.
 */
class ZarisSslBundleTests {

    private static final String PASSWORD = "bundle-test-secret";

    @TempDir
    static Path dir;
    /** A self-signed node certificate for 127.0.0.1, and a trust store holding just that certificate. */
    static Path nodeKeyStore;
    static Path trustStore;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, ZarisAutoConfiguration.class))
            .withPropertyValues("zaris.embedded.nodes=2", "zaris.embedded.partitions=8", "zaris.embedded.segments=64",
                    "zaris.embedded.replication-factor=1",
                    "spring.ssl.bundle.jks.nodes.keystore.location=file:" + nodeKeyStore,
                    "spring.ssl.bundle.jks.nodes.keystore.password=" + PASSWORD,
                    "spring.ssl.bundle.jks.nodes.truststore.location=file:" + trustStore,
                    "spring.ssl.bundle.jks.nodes.truststore.password=" + PASSWORD,
                    "spring.ssl.bundle.jks.clients.truststore.location=file:" + trustStore,
                    "spring.ssl.bundle.jks.clients.truststore.password=" + PASSWORD);

    @BeforeAll
    static void certificates() throws Exception {
        nodeKeyStore = dir.resolve("node.p12");
        trustStore = dir.resolve("trust.p12");
        Path certificate = dir.resolve("node.pem");
        keytool("-genkeypair", "-alias", "node", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=zaris-test",
                "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", "2", "-keystore", nodeKeyStore,
                "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-exportcert", "-alias", "node", "-keystore", nodeKeyStore, "-storepass", PASSWORD, "-rfc",
                "-file", certificate);
        keytool("-importcert", "-alias", "node", "-file", certificate, "-keystore", trustStore, "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-noprompt");
    }

    @Test
    void embeddedNodesShouldServeTlsFromTheBundleAndTheClientShouldTrustThemThroughIt() {
        runner.withPropertyValues("zaris.embedded.ssl.bundle=nodes").run(context -> {
            assertThat(context).hasNotFailed();
            ZarisClient client = context.getBean(ZarisClient.class);
            assertThat(client.options().tls()).hasToString(
                    "TlsOptions[key=managers:SSL bundle 'nodes', trust=managers:SSL bundle 'nodes']");
            long version = client.sync().put("bundle-greeting", "hello".getBytes(StandardCharsets.UTF_8));
            assertThat(client.sync().get("bundle-greeting")).hasValueSatisfying(value ->
                    assertThat(value.version()).isEqualTo(version));

            // The nodes really speak TLS only: a plaintext client cannot even bootstrap.
            List<NodeAddress> seeds = context.getBean(ZarisEmbeddedClusterLifecycle.class).seeds();
            assertThatThrownBy(() -> ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .bootstrapTimeout(Duration.ofSeconds(2)).build()).close())
                    .isInstanceOf(RuntimeException.class);
        });
    }

    @Test
    void clientModeShouldDialATlsClusterWithTheTrustOfItsBundle() {
        TlsOptions nodeTls = TlsOptions.builder().keyStore(nodeKeyStore, PASSWORD).trustStore(trustStore, PASSWORD)
                .build();
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(1).layout(PartitionLayout.of(64, 8))
                .tls(nodeTls).build().start()) {
            String seeds = cluster.seeds().stream().map(NodeAddress::toString).collect(Collectors.joining(","));
            runner.withPropertyValues("zaris.client.seeds=" + seeds, "zaris.client.ssl.bundle=clients").run(context -> {
                assertThat(context).hasNotFailed();
                ZarisClient client = context.getBean(ZarisClient.class);
                assertThat(client.options().tls().hasKeyMaterial()).isFalse();
                assertThat(client.sync().put("bundle-client", "ok".getBytes(StandardCharsets.UTF_8))).isPositive();
            });
        }
    }

    @Test
    void badBundleSettingsShouldFailNamingTheProperty() {
        runner.withPropertyValues("zaris.embedded.ssl.bundle=missing").run(context -> assertThat(context)
                .getFailure().hasStackTraceContaining("zaris.embedded.ssl.bundle is 'missing' but there is no SSL bundle"));
        runner.withPropertyValues("zaris.embedded.ssl.bundle=clients").run(context -> assertThat(context)
                .getFailure().hasStackTraceContaining("SSL bundle 'clients' needs a key store"));
        runner.withPropertyValues("zaris.embedded.ssl.bundle=nodes", "zaris.tls.trust-store=" + trustStore,
                "zaris.tls.trust-store-password=" + PASSWORD).run(context -> assertThat(context)
                .getFailure().hasStackTraceContaining("zaris.embedded.ssl.bundle and zaris.tls.* both configure TLS"));
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class))
                .withPropertyValues("zaris.client.seeds=127.0.0.1:1", "zaris.client.ssl.bundle=clients")
                .run(context -> assertThat(context).getFailure()
                        .hasStackTraceContaining("the application has no SslBundles bean"));
    }

    private static void keytool(Object... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        for (Object argument : arguments) {
            command.add(argument.toString());
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool " + command + " failed: " + output);
        }
    }
}
