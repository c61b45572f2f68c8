package io.zaris.transport;

import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.protocol.SegmentInvalidations;
import io.zaris.protocol.TakeoverRevisions;

/** What a connection hands on from frames a node pushes unasked. Called on the connection's event loop. */
@FunctionalInterface
public interface PushListener {

    void ownershipChanged(RuntimeOwnershipChangedEvent event);

    /** A node took over a partition; ignored unless the listener keeps acknowledgements to check. */
    default void takenOver(TakeoverRevisions takeover) {
    }

    /**
     * Keys of a segment {@code source} tracks changed; ignored unless the listener keeps a near cache.
     *
     * @param source the connection the push came on ({@code null} only before its handshake was sent)
     */
    default void invalidated(SegmentInvalidations changes, NodeConnection source) {
    }
}
