package io.zaris.server;

import io.zaris.store.NodeStore;

/**
 * Test access to a node's internals from test packages other than this one (the chaos checker's tests tamper with
 * a replica's copy to show the replica comparison sees it). Test sources only.
 */
public final class NodeInternals {

    private NodeInternals() {
    }

    public static NodeStore store(ZarisNode node) {
        return node.store();
    }
}
