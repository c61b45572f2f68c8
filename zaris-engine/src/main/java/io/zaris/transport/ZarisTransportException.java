package io.zaris.transport;

/**
 * The request could not be delivered, or its connection was lost before the answer arrived.
 * {@link #mayHaveBeenApplied()} tells the two apart: only a request that never left the client is known
 * not to have been applied.
 */
public class ZarisTransportException extends ZarisException {

    private final boolean mayHaveBeenApplied;

    public ZarisTransportException(String message) {
        this(message, true);
    }

    public ZarisTransportException(String message, boolean mayHaveBeenApplied) {
        super(message);
        this.mayHaveBeenApplied = mayHaveBeenApplied;
    }

    public ZarisTransportException(String message, Throwable cause) {
        super(message, cause);
        this.mayHaveBeenApplied = false;
    }

    /** Whether the request may have reached a node (and so may have been applied) before the failure. */
    public boolean mayHaveBeenApplied() {
        return mayHaveBeenApplied;
    }
}
