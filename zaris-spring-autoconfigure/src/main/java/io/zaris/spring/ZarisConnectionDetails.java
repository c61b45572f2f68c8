package io.zaris.spring;

import io.zaris.model.NodeAddress;
import java.util.List;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.ssl.SslBundle;

/**
 * Where the application's Zaris client connects, as Boot's {@link ConnectionDetails}: a bean of this type (from
 * a test-support module, a container integration or the application) takes precedence over
 * {@code zaris.client.seeds}, {@code zaris.security.*} and the TLS properties, and no embedded cluster starts.
 * Without such a bean the auto-configuration reads the properties ({@link PropertiesZarisConnectionDetails}) or, in
 * embedded mode, connects to the in-process cluster.
 */
public interface ZarisConnectionDetails extends ConnectionDetails {

    /** The data addresses of one or more nodes to bootstrap from; never empty. */
    List<NodeAddress> getSeeds();

    /** The user to log in as; {@code null} (with no password) for a cluster without passwords. */
    default String getUsername() {
        return null;
    }

    /** The password to log in with; {@code null} for a cluster without passwords. */
    default String getPassword() {
        return null;
    }

    /** The SSL bundle whose trust store the nodes' certificates are checked against; {@code null} for plaintext. */
    default SslBundle getSslBundle() {
        return null;
    }
}
