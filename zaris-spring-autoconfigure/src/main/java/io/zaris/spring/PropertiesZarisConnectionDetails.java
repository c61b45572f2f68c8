package io.zaris.spring;

import io.zaris.model.NodeAddress;
import java.util.List;

/**
 * {@link ZarisConnectionDetails} read from {@code zaris.client.seeds} and {@code zaris.security.*}, for client
 * mode without a connection-details bean. TLS stays with {@code zaris.client.ssl.bundle} and {@code zaris.tls.*},
 * which the auto-configuration reads as before.
 */
public final class PropertiesZarisConnectionDetails implements ZarisConnectionDetails {

    private final ZarisProperties properties;

    public PropertiesZarisConnectionDetails(ZarisProperties properties) {
        this.properties = properties;
    }

    /** @throws InvalidZarisPropertyException when no seed is configured or one is malformed */
    @Override
    public List<NodeAddress> getSeeds() {
        return ZarisAutoConfiguration.configuredSeeds(properties.getClient());
    }

    @Override
    public String getUsername() {
        return properties.getSecurity().getUsername();
    }

    @Override
    public String getPassword() {
        return properties.getSecurity().getPassword();
    }
}
