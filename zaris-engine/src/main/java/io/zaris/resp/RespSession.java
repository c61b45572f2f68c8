package io.zaris.resp;

import io.zaris.security.LoginSession;

/** Per-connection state that commands change: protocol version, client name, library info, login. Event-loop confined. */
final class RespSession {

    final long id;
    int protocol = 2;
    String name;
    String libName;
    String libVersion;
    boolean readOnly;
    /** Set when the connection is registered (it needs the peer's address); see {@link RespConnectionHandler}. */
    LoginSession login;

    RespSession(long id) {
        this.id = id;
    }
}
