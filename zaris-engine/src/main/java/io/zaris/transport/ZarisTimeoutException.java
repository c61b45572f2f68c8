package io.zaris.transport;


/**
 * No answer arrived in time. The outcome of a write is then unknown: it may or may not have been applied.
 */
public class ZarisTimeoutException extends ZarisException {

    public ZarisTimeoutException(String message) {
        super(message);
    }
}
