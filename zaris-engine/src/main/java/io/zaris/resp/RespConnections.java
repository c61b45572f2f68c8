package io.zaris.resp;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The open RESP connections of one node by id ({@code CLIENT ID}), so {@code CLIENT TRACKING on REDIRECT <id>} can
 * name another connection of the same node and its invalidations can be handed to it. Ids come from the node's one
 * listener counter, so they are unique on the node; a connection of another node is never found, as Redis knows only
 * its own clients.
 *
 * <p><b>Bound.</b> One entry per open connection: added when the connection opens, removed when it closes, so the map
 * never outgrows the connections the listener holds anyway.
 *
 * <p><b>Threads.</b> Each connection's event loop adds and removes its own entry; lookups run on any thread (the
 * tracking connection's event loop checking a REDIRECT, writers' threads and the membership events thread delivering
 * invalidations). A concurrent map makes each of those one atomic step. What is stored is the connection's push path,
 * which any thread may call; a connection that closes right after a lookup drops what it is handed, as Redis loses an
 * invalidation to a client that is gone.
 */
final class RespConnections {

    private final Map<Long, Consumer<RespReply.Push>> open = new ConcurrentHashMap<>();

    /** The connection's event loop, when it opens. */
    void opened(RespSession session) {
        open.put(session.id, session.pushes);
    }

    /** The connection's event loop, when it closes. */
    void closed(RespSession session) {
        open.remove(session.id);
    }

    boolean isOpen(long id) {
        return open.containsKey(id);
    }

    /** The push path of open connection {@code id}, or {@code null} when no connection of this node has that id. */
    Consumer<RespReply.Push> pushesOf(long id) {
        return open.get(id);
    }

    int size() {
        return open.size();
    }
}
