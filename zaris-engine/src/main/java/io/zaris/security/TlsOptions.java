package io.zaris.security;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.Collections;
import java.util.Locale;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS for the data port, the RESP port and every connection a client or node opens to a data port.
 * Immutable; built with {@link #builder()}.
 *
 * <p><b>Key material</b> (what a node presents; required to serve TLS) comes either from PEM files — a
 * certificate chain and an unencrypted PKCS#8 private key ({@code -----BEGIN PRIVATE KEY-----}) — or from a
 * PKCS12/JKS key store whose key is protected by the store password, or from key managers built elsewhere
 * (an embedding framework's own certificate configuration). Only one of them.
 *
 * <p><b>Trust</b> (which servers a client believes) comes either from a PEM file of CA certificates, from a
 * PKCS12/JKS trust store or from trust managers built elsewhere; with none, the JVM's default trust store.
 * Only one of them. There is no trust-all mode:
 * a client always verifies the server's chain and that the certificate names the host it dialled (IP or DNS
 * subject alternative name), so a node's certificate must name every address clients and peers use for it.
 *
 * <p>{@link Builder#build()} reads every file and builds both Netty contexts, so a missing file, a wrong password
 * or a malformed certificate fails at configuration time with a message naming the setting, never at the
 * first connection. The contexts are thread-safe and shared by all connections.
 *
 * <p>Clients are not asked for certificates (no mutual TLS): clients and peer nodes still prove who they are
 * with a password over the encrypted connection.
 */
public final class TlsOptions {

    /** Protocol versions offered, newest first; older ones are refused. */
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final Path certificateChain;
    private final Path privateKey;
    private final Path keyStore;
    private final Path trustedCertificates;
    private final Path trustStore;
    /** Where key managers, respectively trust managers, handed over ready-made came from (for messages). */
    private final String keyManagersSource;
    private final String trustManagersSource;
    /** Built only when key material is configured. */
    private final SslContext serverContext;
    private final SslContext clientContext;

    private TlsOptions(Builder builder) {
        this.certificateChain = builder.certificateChain;
        this.privateKey = builder.privateKey;
        this.keyStore = builder.keyStore;
        this.trustedCertificates = builder.trustedCertificates;
        this.trustStore = builder.trustStore;
        this.keyManagersSource = builder.keyManagersSource;
        this.trustManagersSource = builder.trustManagersSource;
        this.serverContext = hasKeyMaterial() ? serverContext(builder) : null;
        this.clientContext = clientContext(builder);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether a certificate and key are configured, so these options can serve TLS (a node needs them). */
    public boolean hasKeyMaterial() {
        return certificateChain != null || keyStore != null || keyManagersSource != null;
    }

    /**
     * The context a listening port encrypts with.
     *
     * @throws IllegalStateException when no key material is configured
     */
    public SslContext serverContext() {
        if (serverContext == null) {
            throw new IllegalStateException("TLS needs a certificate and key to serve: configure a PEM certificate chain"
                    + " and private key, or a key store");
        }
        return serverContext;
    }

    /** The context connections to data ports encrypt with and verify the server against. */
    public SslContext clientContext() {
        return clientContext;
    }

    @Override
    public String toString() {
        return "TlsOptions[key=" + (certificateChain != null ? "pem:" + certificateChain
                : keyStore != null ? "keystore:" + keyStore
                : keyManagersSource != null ? "managers:" + keyManagersSource : "none")
                + ", trust=" + (trustedCertificates != null ? "pem:" + trustedCertificates
                : trustStore != null ? "truststore:" + trustStore
                : trustManagersSource != null ? "managers:" + trustManagersSource : "jvm-default") + "]";
    }

    private static SslContext serverContext(Builder builder) {
        // Key store problems are reported by keyManagers in their own words; only PEM parsing is wrapped here.
        KeyManagerFactory keyManagers = builder.keyManagers != null ? builder.keyManagers
                : builder.keyStore != null ? keyManagers(builder) : null;
        try {
            SslContextBuilder context = keyManagers == null
                    ? SslContextBuilder.forServer(builder.certificateChain.toFile(), builder.privateKey.toFile())
                    : SslContextBuilder.forServer(keyManagers);
            return context.protocols(PROTOCOLS).clientAuth(ClientAuth.NONE).build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("TLS key material "
                    + (builder.certificateChain != null ? builder.certificateChain + " / " + builder.privateKey
                    : builder.keyStore != null ? builder.keyStore : builder.keyManagersSource) + " cannot be used: " + rootMessage(e), e);
        }
    }

    private static SslContext clientContext(Builder builder) {
        SslContextBuilder context = SslContextBuilder.forClient().protocols(PROTOCOLS);
        KeyStore trustStore = builder.trustStore != null
                ? load(builder.trustStore, builder.trustStorePassword, "trust store") : null;
        try {
            if (builder.trustedCertificates != null) {
                context.trustManager(builder.trustedCertificates.toFile());
            } else if (trustStore != null) {
                TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                factory.init(trustStore);
                context.trustManager(factory);
            } else if (builder.trustManagers != null) {
                context.trustManager(builder.trustManagers);
            }
            return context.build();
        } catch (GeneralSecurityException | SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("TLS trust " + (builder.trustedCertificates != null
                    ? builder.trustedCertificates : builder.trustStore != null ? builder.trustStore
                    : builder.trustManagersSource) + " cannot be used: " + rootMessage(e), e);
        }
    }

    private static KeyManagerFactory keyManagers(Builder builder) {
        KeyStore store = load(builder.keyStore, builder.keyStorePassword, "key store");
        try {
            if (!Collections.list(store.aliases()).stream().anyMatch(alias -> isKeyEntry(store, alias))) {
                throw new IllegalArgumentException("key store " + builder.keyStore + " holds no private key");
            }
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, builder.keyStorePassword.toCharArray());
            return factory;
        } catch (UnrecoverableKeyException e) {
            throw new IllegalArgumentException("the key in key store " + builder.keyStore
                    + " is not protected by the key store password (Zaris uses one password for both)", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("key store " + builder.keyStore + " cannot be used: " + e.getMessage(), e);
        }
    }

    private static boolean isKeyEntry(KeyStore store, String alias) {
        try {
            return store.isKeyEntry(alias);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** Loads a PKCS12 or JKS store (JKS for names ending in .jks), telling a wrong password apart. */
    static KeyStore load(Path path, String password, String what) {
        String type = path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jks") ? "JKS" : "PKCS12";
        try (InputStream in = Files.newInputStream(path)) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password.toCharArray());
            return store;
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException || String.valueOf(e.getMessage()).contains("password")) {
                throw new IllegalArgumentException(what + " " + path + " cannot be opened: wrong password", e);
            }
            throw new IllegalArgumentException(what + " " + path + " cannot be read as " + type + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(what + " " + path + " cannot be read as " + type + ": " + e.getMessage(), e);
        }
    }

    private static String rootMessage(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return cause == error ? message : error.getMessage() + " (" + message + ")";
    }

    /**
     * Collects the settings; {@link #build()} checks their combination and reads the files. Each setter checks
     * that its file exists and is readable.
     */
    public static final class Builder {
        private Path certificateChain;
        private Path privateKey;
        private Path keyStore;
        private String keyStorePassword;
        private Path trustedCertificates;
        private Path trustStore;
        private String trustStorePassword;
        private KeyManagerFactory keyManagers;
        private String keyManagersSource;
        private TrustManagerFactory trustManagers;
        private String trustManagersSource;

        private Builder() {
        }

        /** PEM key material: the node's certificate (then its intermediates) and its unencrypted PKCS#8 key. */
        public Builder pem(Path certificateChain, Path privateKey) {
            this.certificateChain = readable(certificateChain, "TLS certificate chain");
            this.privateKey = readable(privateKey, "TLS private key");
            return this;
        }

        /** Key material from a PKCS12 (or, for a {@code .jks} name, JKS) store; its key has the same password. */
        public Builder keyStore(Path keyStore, String password) {
            this.keyStore = readable(keyStore, "TLS key store");
            this.keyStorePassword = password(password, "TLS key store");
            return this;
        }

        /** Trust the CA certificates of this PEM file (one or more {@code -----BEGIN CERTIFICATE-----} blocks). */
        public Builder trustedCertificates(Path caCertificates) {
            this.trustedCertificates = readable(caCertificates, "TLS trusted CA certificates");
            return this;
        }

        /** Trust the certificates of this PKCS12 (or {@code .jks}: JKS) trust store. */
        public Builder trustStore(Path trustStore, String password) {
            this.trustStore = readable(trustStore, "TLS trust store");
            this.trustStorePassword = password(password, "TLS trust store");
            return this;
        }

        /**
         * Key material from initialised key managers, e.g. those of a framework's certificate bundle.
         *
         * @param source names where they came from, in messages and {@link #toString()}
         */
        public Builder keyManagers(KeyManagerFactory keyManagers, String source) {
            if (keyManagers == null || source == null || source.isBlank()) {
                throw new IllegalArgumentException("TLS key managers and their source must be given");
            }
            this.keyManagers = keyManagers;
            this.keyManagersSource = source;
            return this;
        }

        /**
         * Trust from initialised trust managers, e.g. those of a framework's certificate bundle.
         *
         * @param source names where they came from, in messages and {@link #toString()}
         */
        public Builder trustManagers(TrustManagerFactory trustManagers, String source) {
            if (trustManagers == null || source == null || source.isBlank()) {
                throw new IllegalArgumentException("TLS trust managers and their source must be given");
            }
            this.trustManagers = trustManagers;
            this.trustManagersSource = source;
            return this;
        }

        /**
         * @throws IllegalArgumentException when more than one source of key material (PEM, key store, key
         *                                  managers) or of trust (PEM CA file, trust store, trust managers) is
         *                                  given; or a file cannot be used (the message
         *                                  names it and says why, e.g. a wrong password)
         */
        public TlsOptions build() {
            if (certificateChain != null && keyStore != null) {
                throw new IllegalArgumentException("TLS key material is configured twice: give either a PEM certificate"
                        + " chain and key (" + certificateChain + ") or a key store (" + keyStore + "), not both");
            }
            if (trustedCertificates != null && trustStore != null) {
                throw new IllegalArgumentException("TLS trust is configured twice: give either a PEM CA file ("
                        + trustedCertificates + ") or a trust store (" + trustStore + "), not both");
            }
            if (keyManagers != null && (certificateChain != null || keyStore != null)) {
                throw new IllegalArgumentException("TLS key material is configured twice: key managers from "
                        + keyManagersSource + " and " + (certificateChain != null ? certificateChain : keyStore));
            }
            if (trustManagers != null && (trustedCertificates != null || trustStore != null)) {
                throw new IllegalArgumentException("TLS trust is configured twice: trust managers from "
                        + trustManagersSource + " and " + (trustedCertificates != null ? trustedCertificates : trustStore));
            }
            return new TlsOptions(this);
        }

        private static Path readable(Path path, String what) {
            if (path == null) {
                throw new IllegalArgumentException(what + " must be given");
            }
            if (!Files.isRegularFile(path)) {
                throw new IllegalArgumentException(what + " " + path + " does not exist or is not a file");
            }
            if (!Files.isReadable(path)) {
                throw new IllegalArgumentException(what + " " + path + " is not readable");
            }
            return path;
        }

        private static String password(String password, String what) {
            if (password == null || password.isEmpty()) {
                throw new IllegalArgumentException(what + " password must not be empty");
            }
            return password;
        }
    }
}
