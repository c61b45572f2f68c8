package io.zaris.resp;

import io.zaris.security.LoginSession;
import java.util.function.Consumer;

/** Per-connection state that commands change: protocol version, client name, library info, login. Event-loop confined, but for {@code closed}. */
final class RespSession {

    final long id;
    int protocol = 2;
    String name;
    String libName;
    String libVersion;
    boolean readOnly;
    /** Set when the connection is registered (it needs the peer's address); see {@link RespConnectionHandler}. */
    LoginSession login;
    /** Set by the event loop when the connection is gone; read by {@link BlockedClients}' thread, hence volatile. */
    volatile boolean closed;
    /** {@code CLIENT TRACKING} state while tracking is on, else {@code null}; see {@link RespTracking}. */
    RespTracking.Client tracking;
    /** Pub/sub subscriptions, made at the first (un)subscribe command; see {@link RespPubSub}. */
    PubSubRegistry.Subscriber subscriber;
    /** The connection's out-of-band path ({@link RespConnectionHandler#push}); callable from any thread. */
    Consumer<RespReply.Push> pushes = push -> { };
    /** The engine response buffer lent to the command running now; see {@link LentResponseBuffer}. */
    final LentResponseBuffer responseBuffer = new LentResponseBuffer();

    RespSession(long id) {
        this.id = id;
    }
}
