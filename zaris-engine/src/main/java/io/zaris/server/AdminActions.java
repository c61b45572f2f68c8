package io.zaris.server;

/**
 * What the data port's operator commands ({@code ADMIN_DRAIN}, {@code ADMIN_REBALANCE}) do on the node that
 * receives them. Both only ask: the node answers at once and the cluster carries the work out in the
 * background, so an operator watches its progress in the cluster map ({@link AdminCommand} does).
 *
 * <p>Called on a connection's event loop: implementations must not block.
 */
interface AdminActions {

    /**
     * Starts moving every partition off this node. A drain that fails later (e.g. the other nodes left) is the
     * node's to log; the caller only learns whether it could start.
     *
     * @return why the node cannot drain now, or {@code null} once the drain was asked for
     */
    String drain();

    /** Asks the leader to plan the map over the nodes present now. */
    void rebalance();
}
