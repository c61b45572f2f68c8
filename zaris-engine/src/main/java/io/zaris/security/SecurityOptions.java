package io.zaris.security;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A node's security settings: who may connect ({@link UserDirectory}) and how long a connection may take to
 * log in, what it presents when it connects to its peers (replication, probes), the limiter of failed logins,
 * TLS on its ports and outgoing data connections, and the secret its membership traffic is authenticated and
 * encrypted with. Immutable; the {@code with*} methods return changed copies.
 *
 * @param users           accepted users; {@link UserDirectory#open()} for no authentication
 * @param nodeCredentials what this node logs in with on its peers' data ports; {@code null} without
 *                        authentication
 * @param loginTimeout    a connection that has not logged in this long after it was accepted is closed (only
 *                        when {@code users} requires a login)
 * @param tls             TLS for the data and RESP ports and for connections to peers; {@code null}: plaintext
 * @param clusterSecret   authenticates and encrypts membership (JGroups) traffic; {@code null}: neither
 */
public record SecurityOptions(UserDirectory users, Credentials nodeCredentials, AuthFailureLimiter limiter,
                              Duration loginTimeout, TlsOptions tls, ClusterSecret clusterSecret) {

    /** Long enough for a client on a slow link to send HELLO and AUTH, short enough that idle sockets go. */
    public static final Duration DEFAULT_LOGIN_TIMEOUT = Duration.ofSeconds(10);

    public SecurityOptions {
        Objects.requireNonNull(users, "users");
        Objects.requireNonNull(limiter, "limiter");
        if (users.isRequired() && nodeCredentials == null) {
            throw new IllegalArgumentException("a node that requires authentication needs credentials for its peers");
        }
        if (loginTimeout == null || loginTimeout.isNegative() || loginTimeout.isZero()) {
            throw new IllegalArgumentException("login timeout must be positive but was " + loginTimeout);
        }
        if (tls != null && !tls.hasKeyMaterial()) {
            throw new IllegalArgumentException("a node's TLS needs a certificate and key to serve its ports: configure"
                    + " a PEM certificate chain and private key, or a key store");
        }
    }

    /** Users, peer credentials and limiter; default login timeout, no TLS, no cluster secret. */
    public SecurityOptions(UserDirectory users, Credentials nodeCredentials, AuthFailureLimiter limiter) {
        this(users, nodeCredentials, limiter, DEFAULT_LOGIN_TIMEOUT, null, null);
    }

    /** No authentication anywhere (the default; fine on loopback only). */
    public static SecurityOptions none() {
        return new SecurityOptions(UserDirectory.open(), null, AuthFailureLimiter.withDefaults());
    }

    /** A shared password: clients and peers log in as the default user. */
    public static SecurityOptions password(String password) {
        return of(password, List.of());
    }

    /** A shared password (used by nodes among themselves) plus the named users of a users file. */
    public static SecurityOptions of(String password, List<String> usersFileLines) {
        return new SecurityOptions(UserDirectory.of(password, usersFileLines), Credentials.password(password),
                AuthFailureLimiter.withDefaults());
    }

    public SecurityOptions withLoginTimeout(Duration loginTimeout) {
        return new SecurityOptions(users, nodeCredentials, limiter, loginTimeout, tls, clusterSecret);
    }

    /** TLS on the node's ports and its connections to peers ({@code null}: plaintext). */
    public SecurityOptions withTls(TlsOptions tls) {
        return new SecurityOptions(users, nodeCredentials, limiter, loginTimeout, tls, clusterSecret);
    }

    /** Authenticated, encrypted membership traffic ({@code null}: neither). */
    public SecurityOptions withClusterSecret(ClusterSecret clusterSecret) {
        return new SecurityOptions(users, nodeCredentials, limiter, loginTimeout, tls, clusterSecret);
    }

    public boolean requiresAuthentication() {
        return users.isRequired();
    }
}
