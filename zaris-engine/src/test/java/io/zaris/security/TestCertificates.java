package io.zaris.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test PKI made with the JDK's own {@code keytool} (no BouncyCastle, no openssl): a CA, a node certificate it
 * signed for {@code 127.0.0.1}/{@code localhost}, and the same material as PEM files, a PKCS12 key store and a
 * PKCS12 trust store. {@link #otherCa} makes an unrelated CA, for clients that must not trust the node.
 */
public final class TestCertificates {

    public static final String PASSWORD = "test-store-password";

    /** Files of one CA and a node certificate it signed. */
    public record Pki(Path dir, Path caPem, Path nodeChainPem, Path nodeKeyPem, Path nodeKeyStore, Path trustStore) {

        /** Key material from PEM files, trust from the CA PEM file. */
        public TlsOptions pemOptions() {
            return TlsOptions.builder().pem(nodeChainPem, nodeKeyPem).trustedCertificates(caPem).build();
        }

        /** Key material from the PKCS12 key store, trust from the PKCS12 trust store. */
        public TlsOptions keyStoreOptions() {
            return TlsOptions.builder().keyStore(nodeKeyStore, PASSWORD).trustStore(trustStore, PASSWORD).build();
        }

        /** What a client needs: trust in the CA only. */
        public TlsOptions clientOptions() {
            return TlsOptions.builder().trustedCertificates(caPem).build();
        }
    }

    private TestCertificates() {
    }

    /** A CA and a node certificate with the given subject alternative names (keytool syntax, e.g. ip:127.0.0.1). */
    public static Pki create(Path dir, String subjectAlternativeNames) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path caStore = dir.resolve("ca.p12");
        Path caPem = dir.resolve("ca.pem");
        makeCa(caStore, caPem, "Zaris Test CA");
        Path nodeStore = dir.resolve("node.p12");
        keytool("-genkeypair", "-alias", "node", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=zaris-node",
                "-validity", "2", "-keystore", nodeStore, "-storetype", "PKCS12", "-storepass", PASSWORD);
        Path request = dir.resolve("node.csr");
        keytool("-certreq", "-alias", "node", "-keystore", nodeStore, "-storepass", PASSWORD, "-file", request);
        Path signed = dir.resolve("node-signed.pem");
        keytool("-gencert", "-alias", "ca", "-keystore", caStore, "-storepass", PASSWORD, "-infile", request,
                "-outfile", signed, "-rfc", "-validity", "2", "-ext", "san=" + subjectAlternativeNames,
                "-ext", "eku=serverAuth");
        keytool("-importcert", "-alias", "ca", "-file", caPem, "-keystore", nodeStore, "-storepass", PASSWORD, "-noprompt");
        keytool("-importcert", "-alias", "node", "-file", signed, "-keystore", nodeStore, "-storepass", PASSWORD);
        Path trustStore = dir.resolve("trust.p12");
        keytool("-importcert", "-alias", "ca", "-file", caPem, "-keystore", trustStore, "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-noprompt");
        Path chainPem = dir.resolve("node-chain.pem");
        Path keyPem = dir.resolve("node-key.pem");
        writePem(nodeStore, chainPem, keyPem);
        return new Pki(dir, caPem, chainPem, keyPem, nodeStore, trustStore);
    }

    /** An unrelated CA's certificate as PEM: a client trusting only it must refuse the node. */
    public static Path otherCa(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path pem = dir.resolve("other-ca.pem");
        makeCa(dir.resolve("other-ca.p12"), pem, "Unrelated CA");
        return pem;
    }

    private static void makeCa(Path store, Path pem, String name) throws IOException, InterruptedException {
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
                "-ext", "bc:c", "-validity", "2", "-keystore", store, "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", store, "-storepass", PASSWORD, "-file", pem);
    }

    /** The node's chain and its PKCS#8 private key, read back from the key store keytool filled. */
    private static void writePem(Path keyStore, Path chainPem, Path keyPem) throws IOException {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            StringBuilder chain = new StringBuilder();
            for (Certificate certificate : store.getCertificateChain("node")) {
                chain.append(pem("CERTIFICATE", certificate.getEncoded()));
            }
            Files.writeString(chainPem, chain, StandardCharsets.US_ASCII);
            Key key = store.getKey("node", PASSWORD.toCharArray());
            Files.writeString(keyPem, pem("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read back " + keyStore, e);
        }
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    private static void keytool(Object... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        for (Object arg : args) {
            command.add(arg.toString());
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException("keytool " + command.subList(1, command.size()) + " failed: " + output);
        }
    }
}
