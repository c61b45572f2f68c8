package io.zaris.security;

import java.util.List;
import java.util.Objects;

/**
 * A node's security settings: who may connect ({@link UserDirectory}), what it presents when it connects to
 * its peers (replication, probes), and the limiter of failed logins. Immutable.
 *
 * @param users           accepted users; {@link UserDirectory#open()} for no authentication
 * @param nodeCredentials what this node logs in with on its peers' data ports; {@code null} without
 *                        authentication
 */
public record SecurityOptions(UserDirectory users, Credentials nodeCredentials, AuthFailureLimiter limiter) {

    public SecurityOptions {
        Objects.requireNonNull(users, "users");
        Objects.requireNonNull(limiter, "limiter");
        if (users.isRequired() && nodeCredentials == null) {
            throw new IllegalArgumentException("a node that requires authentication needs credentials for its peers");
        }
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

    public boolean requiresAuthentication() {
        return users.isRequired();
    }
}
