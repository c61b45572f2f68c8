package io.zaris.client;

/** The request could not be delivered or its connection was lost before the answer arrived. */
public class ZarisTransportException extends ZarisException {

    public ZarisTransportException(String message) {
        super(message);
    }

    public ZarisTransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
