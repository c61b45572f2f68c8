package io.zaris.spring.observation;

import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTimeoutException;
import io.zaris.transport.ZarisTransportException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** How a client operation ended, as the {@code outcome} tag tells it. A miss or a CAS conflict is an answer: SUCCESS. */
public enum ZarisOperationOutcome {
    /** The cluster answered (a hit, a miss, a conflict all count). */
    SUCCESS,
    /** The request timeout passed first. */
    TIMEOUT,
    /** No connection could carry it (the node closed or could not be reached). */
    TRANSPORT,
    /** The cluster refused it with a status the client did not retry away. */
    REFUSED,
    /** The caller cancelled it. */
    CANCELLED,
    /** Anything else, e.g. a value that could not be serialized. */
    ERROR;

    /** The tag value: the constant's name in lower case. */
    public String tagValue() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The outcome a failure stands for ({@code null}: success); unwraps the futures' wrappers. */
    static ZarisOperationOutcome of(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause == null) {
            return SUCCESS;
        }
        if (cause instanceof ZarisTimeoutException) {
            return TIMEOUT;
        }
        if (cause instanceof ZarisTransportException) {
            return TRANSPORT;
        }
        if (cause instanceof ZarisStatusException) {
            return REFUSED;
        }
        if (cause instanceof CancellationException) {
            return CANCELLED;
        }
        return ERROR;
    }
}
