package io.zaris.server;

/** What the cluster currently lets this node do; asked on every request, so both answers must be cheap. */
interface NodeStanding {

    /** It sees a majority of the configured cluster, so it may accept writes. */
    boolean inMajority();

    /** The leader confirmed it within its owner lease, so it may act as an active owner at all. */
    boolean holdsLease();

    /**
     * A client routed by a newer epoch than this node's view holds: the view broadcast may not have reached
     * it (say, membership still merging it back after a pause). Cheap and idempotent; the node fetches a
     * newer view over the data transport in the background.
     */
    default void viewLooksStale() {
    }
}
