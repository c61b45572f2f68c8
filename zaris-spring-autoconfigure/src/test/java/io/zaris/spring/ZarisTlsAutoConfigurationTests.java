package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.client.ClientMetrics;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.NodeAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code zaris.tls.*}, {@code zaris.cluster.secret} and {@code zaris.security.login-timeout}. */
class ZarisTlsAutoConfigurationTests {

    /** The JVM's own trust store: a real store to read without generating certificates. */
    private static final Path JVM_TRUST_STORE = Path.of(System.getProperty("java.home"), "lib", "security", "cacerts");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ZarisAutoConfiguration.class))
            .withPropertyValues("zaris.embedded.nodes=1", "zaris.embedded.partitions=8", "zaris.embedded.segments=64");

    @Test
    void clientOptionsCarryTheConfiguredTrust() {
        ZarisProperties properties = new ZarisProperties();
        properties.getTls().setTrustStore(JVM_TRUST_STORE);
        properties.getTls().setTrustStorePassword("changeit");

        ZarisClientOptions options = ZarisAutoConfiguration.clientOptions(properties,
                List.of(NodeAddress.parse("127.0.0.1:7101")), ClientMetrics.disabled());

        assertThat(options.tls()).isNotNull();
        assertThat(options.tls().hasKeyMaterial()).isFalse();
    }

    @Test
    void withoutTlsPropertiesTheClientIsPlaintext() {
        ZarisClientOptions options = ZarisAutoConfiguration.clientOptions(new ZarisProperties(),
                List.of(NodeAddress.parse("127.0.0.1:7101")), ClientMetrics.disabled());

        assertThat(options.tls()).isNull();
    }

    @Test
    void aWrongTrustStorePasswordNamesThePrefix() {
        ZarisProperties.Tls tls = new ZarisProperties.Tls();
        tls.setTrustStore(JVM_TRUST_STORE);
        tls.setTrustStorePassword("not-changeit");

        assertThatThrownBy(() -> ZarisAutoConfiguration.tlsOptions(tls))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("zaris.tls: trust store " + JVM_TRUST_STORE + " cannot be opened: wrong password");
    }

    @Test
    void halfAPemPairIsRefused() {
        ZarisProperties.Tls tls = new ZarisProperties.Tls();
        tls.setCertificateChain(Path.of("chain.pem"));

        assertThatThrownBy(() -> ZarisAutoConfiguration.tlsOptions(tls))
                .hasMessage("zaris.tls: certificate-chain and private-key go together: set both");
    }

    @Test
    void runInEmbeddedModeWithTrustButNoKeyMaterialShouldFail() {
        runner.withPropertyValues("zaris.tls.trust-store=" + JVM_TRUST_STORE, "zaris.tls.trust-store-password=changeit")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("embedded nodes serve TLS"));
    }

    @Test
    void runWithAShortClusterSecretShouldFailNamingTheProperty() {
        runner.withPropertyValues("zaris.cluster.secret=short").run(context -> assertThat(context).hasFailed()
                .getFailure().hasStackTraceContaining("zaris.cluster.secret: the cluster secret must have"));
    }

    @Test
    void runWithAClusterSecretAndLoginTimeoutShouldStartTheEmbeddedCluster() {
        runner.withPropertyValues("zaris.cluster.secret=an embedded cluster secret", "zaris.security.password=p4ss",
                "zaris.security.login-timeout=3s").run(context -> {
                    assertThat(context).hasNotFailed();
                    ZarisProperties properties = context.getBean(ZarisProperties.class);
                    assertThat(ZarisAutoConfiguration.embeddedSecurity(properties.getSecurity()).loginTimeout())
                            .isEqualTo(Duration.ofSeconds(3));
                    assertThat(context.getBean(ZarisEmbeddedClusterLifecycle.class).seeds()).hasSize(1);
                });
    }
}
