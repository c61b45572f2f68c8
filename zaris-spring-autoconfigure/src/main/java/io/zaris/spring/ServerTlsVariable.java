package io.zaris.spring;

import java.util.Locale;

/**
 * The standalone server's TLS environment variables (named by its rule: {@code ZARIS_} and the option's name) and
 * the {@code zaris.tls.*} property each one sets in a Spring application; {@link ZarisEnvironmentPostProcessor}
 * applies them. The key store and trust store paths need no entry: relaxed binding already reads
 * {@code ZARIS_TLS_KEYSTORE} and {@code ZARIS_TLS_TRUSTSTORE} as {@code zaris.tls.key-store} and
 * {@code zaris.tls.trust-store}.
 */
enum ServerTlsVariable {

    CERTIFICATE_CHAIN(ServerTlsVariable.TLS_CERT, "zaris.tls.certificate-chain"),
    PRIVATE_KEY(ServerTlsVariable.TLS_KEY, "zaris.tls.private-key"),
    TRUSTED_CERTIFICATES(ServerTlsVariable.TLS_CA, "zaris.tls.trusted-certificates"),
    KEY_STORE_PASSWORD(ServerTlsVariable.TLS_KEYSTORE_PASSWORD, "zaris.tls.key-store-password"),
    TRUST_STORE_PASSWORD(ServerTlsVariable.TLS_TRUSTSTORE_PASSWORD, "zaris.tls.trust-store-password");

    /** The server's {@code --tls-cert}. */
    static final String TLS_CERT = "ZARIS_TLS_CERT";
    /** The server's {@code --tls-key}. */
    static final String TLS_KEY = "ZARIS_TLS_KEY";
    /** The server's {@code --tls-ca}. */
    static final String TLS_CA = "ZARIS_TLS_CA";
    /** The server's key store password variable (beside {@code --tls-keystore-password-file}). */
    static final String TLS_KEYSTORE_PASSWORD = "ZARIS_TLS_KEYSTORE_PASSWORD";
    /** The server's trust store password variable (beside {@code --tls-truststore-password-file}). */
    static final String TLS_TRUSTSTORE_PASSWORD = "ZARIS_TLS_TRUSTSTORE_PASSWORD";

    private final String variable;
    private final String property;

    ServerTlsVariable(String variable, String property) {
        this.variable = variable;
        this.property = property;
    }

    String variable() {
        return variable;
    }

    String property() {
        return property;
    }

    /** The name relaxed binding reads for the property: upper case, dots as underscores, dashes dropped. */
    String relaxedSpelling() {
        return property.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
    }
}
