package io.zaris.resp;

/** Per-connection state that commands change: protocol version, client name and library info. Event-loop confined. */
final class RespSession {

    final long id;
    int protocol = 2;
    String name;
    String libName;
    String libVersion;
    boolean readOnly;

    RespSession(long id) {
        this.id = id;
    }
}
