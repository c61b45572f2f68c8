package io.zaris.client;

import io.zaris.protocol.KvStatus;

/** A node answered with a status that is not an answer the API can return as a value. */
public class ZarisStatusException extends ZarisException {

    private final KvStatus status;

    public ZarisStatusException(KvStatus status, String message) {
        super(status + (message == null || message.isEmpty() ? "" : ": " + message));
        this.status = status;
    }

    public KvStatus status() {
        return status;
    }
}
