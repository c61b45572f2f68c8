package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.security.TestCertificates;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standalone server's TLS, cluster secret and login timeout options (secret files and environment injected). */
@Tag("unit")
class ServerTlsArgumentsTests {

    private static final String SECRET = "a cluster secret of enough length";
    private static final Map<String, List<String>> FILES = Map.of(
            "store-pass.txt", List.of(TestCertificates.PASSWORD),
            "secret.txt", List.of(SECRET),
            "short-secret.txt", List.of("too short"));

    @TempDir
    static Path dir;
    static TestCertificates.Pki pki;

    @BeforeAll
    static void certificates() throws Exception {
        pki = TestCertificates.create(dir.resolve("pki"), "ip:127.0.0.1");
    }

    @Test
    void withoutTlsOrSecretOptionsNothingChanges() {
        NodeConfig config = parse(Map.of(), "--node-id", "n1");

        assertThat(config.security().tls()).isNull();
        assertThat(config.security().clusterSecret()).isNull();
        assertThat(config.security().loginTimeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void pemFilesConfigureTls() {
        NodeConfig config = parse(Map.of(), "--node-id", "n1", "--tls-cert", pki.nodeChainPem().toString(),
                "--tls-key", pki.nodeKeyPem().toString(), "--tls-ca", pki.caPem().toString());

        assertThat(config.security().tls().hasKeyMaterial()).isTrue();
        assertThat(config.security().tls().toString()).contains("pem:" + pki.nodeChainPem(), "pem:" + pki.caPem());
    }

    @Test
    void keyStorePasswordsComeFromFilesOrTheEnvironment() {
        NodeConfig fromFiles = parse(Map.of(), "--node-id", "n1", "--tls-keystore", pki.nodeKeyStore().toString(),
                "--tls-keystore-password-file", "store-pass.txt", "--tls-truststore", pki.trustStore().toString(),
                "--tls-truststore-password-file", "store-pass.txt");
        NodeConfig fromEnvironment = parse(Map.of("ZARIS_TLS_KEYSTORE_PASSWORD", TestCertificates.PASSWORD,
                        "ZARIS_TLS_TRUSTSTORE_PASSWORD", TestCertificates.PASSWORD), "--node-id", "n1",
                "--tls-keystore", pki.nodeKeyStore().toString(), "--tls-truststore", pki.trustStore().toString());

        assertThat(fromFiles.security().tls().toString()).contains("keystore:", "truststore:");
        assertThat(fromEnvironment.security().tls().hasKeyMaterial()).isTrue();
    }

    @Test
    void aKeyStoreWithoutPasswordIsRefused() {
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--tls-keystore", pki.nodeKeyStore().toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--tls-keystore needs a password")
                .hasMessageContaining("ZARIS_TLS_KEYSTORE_PASSWORD");
    }

    @Test
    void trustWithoutKeyMaterialOrHalfAPemPairIsRefused() {
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--tls-ca", pki.caPem().toString()))
                .hasMessageContaining("no key material");
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--tls-cert", pki.nodeChainPem().toString()))
                .hasMessageContaining("--tls-cert and --tls-key go together");
    }

    @Test
    void pemAndKeyStoreTogetherAreRefused() {
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--tls-cert", pki.nodeChainPem().toString(),
                "--tls-key", pki.nodeKeyPem().toString(), "--tls-keystore", pki.nodeKeyStore().toString(),
                "--tls-keystore-password-file", "store-pass.txt"))
                .hasMessageContaining("configured twice");
    }

    @Test
    void aMissingCertificateFileIsNamed() {
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--tls-cert", "/no/such/cert.pem",
                "--tls-key", pki.nodeKeyPem().toString()))
                .hasMessageContaining("TLS certificate chain /no/such/cert.pem does not exist");
    }

    @Test
    void clusterSecretComesFromItsFileOrTheEnvironment() {
        NodeConfig fromFile = parse(Map.of(), "--node-id", "n1", "--cluster-secret-file", "secret.txt");
        NodeConfig fromEnvironment = parse(Map.of("ZARIS_CLUSTER_SECRET", SECRET), "--node-id", "n1");

        assertThat(fromFile.security().clusterSecret().encryptionKey().getEncoded())
                .isEqualTo(fromEnvironment.security().clusterSecret().encryptionKey().getEncoded());
    }

    @Test
    void aShortClusterSecretIsRefusedNamingItsSource() {
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--cluster-secret-file", "short-secret.txt"))
                .hasMessageContaining("--cluster-secret-file: the cluster secret must have at least 16 characters");
        assertThatThrownBy(() -> parse(Map.of("ZARIS_CLUSTER_SECRET", "short"), "--node-id", "n1"))
                .hasMessageContaining("ZARIS_CLUSTER_SECRET: the cluster secret must have at least 16 characters");
    }

    @Test
    void loginTimeoutIsConfigurable() {
        NodeConfig config = parse(Map.of(), "--node-id", "n1", "--login-timeout-ms", "2500");

        assertThat(config.security().loginTimeout()).isEqualTo(Duration.ofMillis(2500));
        assertThatThrownBy(() -> parse(Map.of(), "--node-id", "n1", "--login-timeout-ms", "0"))
                .hasMessageContaining("--login-timeout-ms: --login-timeout must be between 100ms and");
    }

    private static NodeConfig parse(Map<String, String> environment, String... args) {
        return ServerArguments.parse(args, environment, path -> {
            List<String> lines = FILES.get(path);
            if (lines == null) {
                throw new IOException("no such file");
            }
            return lines;
        });
    }
}
