package io.zaris.spring;

import io.zaris.security.TlsOptions;
import io.zaris.spring.ZarisProperties.Mode;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Decides where the TLS of the embedded nodes and of the client comes from: a Boot SSL bundle named by
 * {@code zaris.embedded.ssl.bundle} / {@code zaris.client.ssl.bundle}, or else the {@code zaris.tls.*} files.
 * A bundle and {@code zaris.tls.*} together are refused, so that it is never a guess which one is in force.
 *
 * <p>The client in embedded mode talks to the embedded nodes: without a bundle of its own it uses the nodes'
 * bundle, whose trust store must then trust the nodes' own certificate.
 */
final class ZarisSslBundles {

    private final ZarisProperties properties;
    /** {@code null} when the application has no {@link SslBundles} bean. */
    private final SslBundles bundles;

    ZarisSslBundles(ZarisProperties properties, SslBundles bundles) {
        this.properties = properties;
        this.bundles = bundles;
    }

    /** What the embedded nodes serve and dial each other with; {@code null} for plaintext. */
    TlsOptions embeddedTls() {
        ZarisProperties.Ssl ssl = properties.getEmbedded().getSsl();
        if (!ssl.isConfigured()) {
            return ZarisAutoConfiguration.tlsOptions(properties.getTls());
        }
        TlsOptions tls = fromBundle("zaris.embedded.ssl.bundle", ssl.getBundle());
        if (!tls.hasKeyMaterial()) {
            String bundle = ssl.getBundle().trim();
            throw new InvalidZarisPropertyException("zaris.embedded.ssl.bundle", "zaris.embedded.ssl.bundle: embedded"
                    + " nodes serve TLS, so SSL bundle '" + bundle + "' needs a key store (the nodes' certificate and"
                    + " key)", "Give the bundle a key store (spring.ssl.bundle.jks." + bundle + ".keystore.* or"
                    + " spring.ssl.bundle.pem." + bundle + ".keystore.*), or name a bundle that has one.");
        }
        return tls;
    }

    /** What the client dials the nodes with; {@code null} for plaintext. */
    TlsOptions clientTls() {
        ZarisProperties.Ssl ssl = properties.getClient().getSsl();
        if (ssl.isConfigured()) {
            return fromBundle("zaris.client.ssl.bundle", ssl.getBundle());
        }
        if (properties.resolveMode() == Mode.EMBEDDED && properties.getEmbedded().getSsl().isConfigured()) {
            return embeddedTls();
        }
        return ZarisAutoConfiguration.tlsOptions(properties.getTls());
    }

    private TlsOptions fromBundle(String property, String name) {
        String bundleName = name.trim();
        if (properties.getTls().isConfigured()) {
            throw new InvalidZarisPropertyException(property, property + " and zaris.tls.* both configure TLS",
                    "Use the SSL bundle '" + bundleName + "' or the zaris.tls.* files, not both: remove " + property
                    + " or every zaris.tls.* property.");
        }
        if (bundles == null) {
            throw new InvalidZarisPropertyException(property, property + " is '" + bundleName + "' but the"
                    + " application has no SslBundles bean", "Let Boot's SSL auto-configuration define it (define the"
                    + " bundle under spring.ssl.bundle.*), or remove " + property + ".");
        }
        SslBundle bundle;
        try {
            bundle = bundles.getBundle(bundleName);
        } catch (NoSuchSslBundleException e) {
            throw new InvalidZarisPropertyException(property, property + " is '" + bundleName + "' but there is no SSL"
                    + " bundle of that name", "Define it under spring.ssl.bundle.jks." + bundleName
                    + " or spring.ssl.bundle.pem." + bundleName + ", or correct " + property + ".", e);
        }
        try {
            return tlsOptions(bundle, "SSL bundle '" + bundleName + "'");
        } catch (IllegalArgumentException e) {
            throw InvalidZarisPropertyException.badValue(property, e.getMessage(), e);
        }
    }

    /** The engine's TLS options from a bundle: its trust managers, and its key managers when it has a key store. */
    static TlsOptions tlsOptions(SslBundle bundle, String source) {
        TlsOptions.Builder tls = TlsOptions.builder()
                .trustManagers(bundle.getManagers().getTrustManagerFactory(), source);
        if (bundle.getStores().getKeyStore() != null) {
            tls.keyManagers(bundle.getManagers().getKeyManagerFactory(), source);
        }
        return tls.build();
    }
}
