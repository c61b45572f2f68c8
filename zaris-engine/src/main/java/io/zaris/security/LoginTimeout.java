package io.zaris.security;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection that has not logged in within the login timeout, so unauthenticated sockets cannot be
 * held open for free. Nothing is armed on a node that requires no login.
 *
 * <p>The timer runs on the channel's event loop, where the protocol handler keeps its login state, so the
 * check at expiry reads that state without synchronisation. The timer is cancelled when the channel closes.
 */
public final class LoginTimeout {

    private static final Logger log = LoggerFactory.getLogger(LoginTimeout.class);

    private LoginTimeout() {
    }

    /**
     * Arms the timer for a connection just accepted.
     *
     * @param loggedIn read on the event loop at expiry: whether the connection logged in meanwhile
     */
    public static void arm(Channel channel, SecurityOptions security, String nodeId, String protocol,
                           BooleanSupplier loggedIn) {
        if (!security.requiresAuthentication()) {
            return;
        }
        Duration timeout = security.loginTimeout();
        ScheduledFuture<?> expiry = channel.eventLoop().schedule(() -> {
            if (channel.isActive() && !loggedIn.getAsBoolean()) {
                log.info("node {}: closing {} connection from {}: no login within {} ms", nodeId, protocol,
                        channel.remoteAddress(), timeout.toMillis());
                channel.close();
            }
        }, timeout.toNanos(), TimeUnit.NANOSECONDS);
        channel.closeFuture().addListener(closed -> expiry.cancel(false));
    }
}
