package io.zaris.protocol;

import io.zaris.model.KvStatus;

/**
 * A request frame that could be delimited but not understood. When the request id was readable the node
 * answers it with {@link #status()}; otherwise ({@link #requestId()} is {@code -1}) the connection is closed.
 */
public final class MalformedRequestException extends Exception {

    private final long requestId;
    private final KvStatus status;

    public MalformedRequestException(long requestId, KvStatus status, String message) {
        super(message, null, false, false);
        this.requestId = requestId;
        this.status = status;
    }

    public long requestId() {
        return requestId;
    }

    public KvStatus status() {
        return status;
    }

    /** Whether the request can be answered on the same connection. */
    public boolean isAnswerable() {
        return requestId >= 0;
    }
}
