package io.zaris.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class TlsOptionsTests {

    @TempDir
    static Path dir;
    static TestCertificates.Pki pki;

    @BeforeAll
    static void certificates() throws Exception {
        pki = TestCertificates.create(dir.resolve("pki"), "ip:127.0.0.1,dns:localhost");
    }

    @Test
    void pemFilesGiveServerAndClientContexts() {
        TlsOptions tls = pki.pemOptions();

        assertThat(tls.hasKeyMaterial()).isTrue();
        assertThat(tls.serverContext().isServer()).isTrue();
        assertThat(tls.clientContext().isClient()).isTrue();
    }

    @Test
    void keyStoreAndTrustStoreGiveServerAndClientContexts() {
        TlsOptions tls = pki.keyStoreOptions();

        assertThat(tls.hasKeyMaterial()).isTrue();
        assertThat(tls.serverContext().isServer()).isTrue();
        assertThat(tls.toString()).contains("keystore:").doesNotContain(TestCertificates.PASSWORD);
    }

    @Test
    void readyMadeManagersGiveServerAndClientContextsAndNameTheirSource() throws Exception {
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(TlsOptions.load(pki.nodeKeyStore(), TestCertificates.PASSWORD, "key store"),
                TestCertificates.PASSWORD.toCharArray());
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(TlsOptions.load(pki.trustStore(), TestCertificates.PASSWORD, "trust store"));

        TlsOptions tls = TlsOptions.builder().keyManagers(keyManagers, "bundle 'nodes'")
                .trustManagers(trustManagers, "bundle 'nodes'").build();

        assertThat(tls.hasKeyMaterial()).isTrue();
        assertThat(tls.serverContext().isServer()).isTrue();
        assertThat(tls.clientContext().isClient()).isTrue();
        assertThat(tls.toString()).isEqualTo("TlsOptions[key=managers:bundle 'nodes', trust=managers:bundle 'nodes']");
        assertThatThrownBy(() -> TlsOptions.builder().keyManagers(keyManagers, "bundle 'nodes'")
                .keyStore(pki.nodeKeyStore(), TestCertificates.PASSWORD).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("configured twice");
        assertThatThrownBy(() -> TlsOptions.builder().trustManagers(trustManagers, "bundle 'nodes'")
                .trustedCertificates(pki.caPem()).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("configured twice");
    }

    @Test
    void trustOnlyOptionsCannotServe() {
        TlsOptions tls = pki.clientOptions();

        assertThat(tls.hasKeyMaterial()).isFalse();
        assertThatThrownBy(tls::serverContext).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("certificate and key");
    }

    @Test
    void missingFileIsNamed() {
        Path missing = dir.resolve("nope.pem");

        assertThatThrownBy(() -> TlsOptions.builder().pem(missing, pki.nodeKeyPem()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TLS certificate chain " + missing + " does not exist");
        assertThatThrownBy(() -> TlsOptions.builder().trustedCertificates(missing))
                .hasMessageContaining("TLS trusted CA certificates " + missing + " does not exist");
    }

    @Test
    void wrongKeyStorePasswordIsReportedAsSuch() {
        assertThatThrownBy(() -> TlsOptions.builder().keyStore(pki.nodeKeyStore(), "not-the-password").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key store " + pki.nodeKeyStore() + " cannot be opened: wrong password");
        assertThatThrownBy(() -> TlsOptions.builder().trustStore(pki.trustStore(), "not-the-password").build())
                .hasMessageContaining("trust store " + pki.trustStore() + " cannot be opened: wrong password");
    }

    @Test
    void bothPemAndKeyStoreAreRefused() {
        TlsOptions.Builder builder = TlsOptions.builder().pem(pki.nodeChainPem(), pki.nodeKeyPem())
                .keyStore(pki.nodeKeyStore(), TestCertificates.PASSWORD);

        assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("configured twice").hasMessageContaining("not both");
    }

    @Test
    void bothCaFileAndTrustStoreAreRefused() {
        TlsOptions.Builder builder = TlsOptions.builder().trustedCertificates(pki.caPem())
                .trustStore(pki.trustStore(), TestCertificates.PASSWORD);

        assertThatThrownBy(builder::build).hasMessageContaining("TLS trust is configured twice");
    }

    @Test
    void aFileThatIsNoKeyIsRefusedAtBuild() throws Exception {
        Path garbage = Files.writeString(dir.resolve("garbage.pem"), "not a key\n");

        assertThatThrownBy(() -> TlsOptions.builder().pem(pki.nodeChainPem(), garbage).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TLS key material").hasMessageContaining("cannot be used");
    }

    @Test
    void emptyPasswordIsRefused() {
        assertThatThrownBy(() -> TlsOptions.builder().keyStore(pki.nodeKeyStore(), ""))
                .hasMessageContaining("TLS key store password must not be empty");
    }
}
