package io.zaris.transport;

import io.zaris.model.KvStatus;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;

/** A node answered with a status that is not an answer the API can return as a value. */
public class ZarisStatusException extends ZarisException {

    private final KvStatus status;
    private final transient RuntimeOwnershipChangedEvent routingHint;

    public ZarisStatusException(KvStatus status, String message) {
        this(status, message, null);
    }

    public ZarisStatusException(KvStatus status, String message, RuntimeOwnershipChangedEvent routingHint) {
        super(status + (message == null || message.isEmpty() ? "" : ": " + message));
        this.status = status;
        this.routingHint = routingHint;
    }

    /**
     * The exception for a status a node answered: a {@link ZarisWrongTypeException} for
     * {@link KvStatus#WRONG_TYPE}, so that callers can catch that case by type; this class for any other.
     */
    public static ZarisStatusException of(KvStatus status, String message, RuntimeOwnershipChangedEvent routingHint) {
        if (status == KvStatus.WRONG_TYPE) {
            return new ZarisWrongTypeException(message);
        }
        return new ZarisStatusException(status, message, routingHint);
    }

    public KvStatus status() {
        return status;
    }

    /** The node's current runtime entry for the partition, sent with wrong-node answers; may be {@code null}. */
    public RuntimeOwnershipChangedEvent routingHint() {
        return routingHint;
    }
}
