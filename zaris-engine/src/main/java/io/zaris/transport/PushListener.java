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

    /** Keys of a segment this connection tracks changed; ignored unless the listener keeps a near cache. */
    default void invalidated(SegmentInvalidations changes) {
    }
}
