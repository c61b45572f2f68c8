package io.zaris.security;

import java.time.Duration;

/**
 * The login state of one connection (native or RESP): who it is logged in as, and how many logins it got
 * wrong. A connection of a node without authentication starts logged in as {@link Principal#UNAUTHENTICATED}.
 *
 * <p>Confined to the connection's event loop; the shared {@link AuthFailureLimiter} is thread-safe.
 */
public final class LoginSession {

    /** Failed logins after which the connection is closed (the peer's limiter keeps counting across connections). */
    public static final int MAX_FAILURES_PER_CONNECTION = 3;

    /** The answer to one login attempt. */
    public sealed interface Outcome {
    }

    public record Accepted(Principal principal) implements Outcome {
    }

    /** Wrong user or password; {@code closeConnection} once the connection used up its attempts. */
    public record Rejected(boolean closeConnection) implements Outcome {
    }

    /** The peer failed too often recently; the password was not checked. */
    public record Throttled(Duration retryAfter, boolean closeConnection) implements Outcome {
    }

    /** The node has no authentication configured, so there is nothing to log in to. */
    public record NotConfigured() implements Outcome {
    }

    private final UserDirectory users;
    private final AuthFailureLimiter limiter;
    private final String peer;
    private Principal principal;
    private int failures;

    public LoginSession(UserDirectory users, AuthFailureLimiter limiter, String peer) {
        this.users = users;
        this.limiter = limiter;
        this.peer = peer;
        this.principal = users.isRequired() ? null : Principal.UNAUTHENTICATED;
    }

    /** Who the connection is logged in as; {@code null} until a login succeeded on a node that requires one. */
    public Principal principal() {
        return principal;
    }

    public boolean isLoggedIn() {
        return principal != null;
    }

    public Outcome login(String user, byte[] password) {
        if (!users.isRequired()) {
            return new NotConfigured();
        }
        Duration wait = limiter.waitBeforeAttempt(peer);
        if (!wait.isZero()) {
            return new Throttled(wait, ++failures >= MAX_FAILURES_PER_CONNECTION);
        }
        Principal found = users.authenticate(user, password);
        if (found == null) {
            limiter.recordFailure(peer);
            return new Rejected(++failures >= MAX_FAILURES_PER_CONNECTION);
        }
        principal = found;
        return new Accepted(found);
    }
}
