package io.zaris.transport;

/** Base of every failure the client reports. Subclasses say whether the cause was a status or the transport. */
public class ZarisException extends RuntimeException {

    public ZarisException(String message) {
        super(message);
    }

    public ZarisException(String message, Throwable cause) {
        super(message, cause);
    }
}
