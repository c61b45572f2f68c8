package io.zaris.client;

import io.netty.buffer.ByteBuf;
import io.zaris.model.KvStatus;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTimeoutException;
import io.zaris.transport.ZarisTransportException;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * How the client turns what went wrong into values: a status that is not an answer into a
 * {@link ZarisStatusException}, a wrapped failure into its cause, a failure into the meters' status tag. Stateless,
 * so any thread may call it.
 */
final class ClientFailures {

    private ClientFailures() {
    }

    /** A status that is not an answer; a routing status carries the partition's current entry after the message. */
    static ZarisStatusException failure(KvStatus status, ByteBuf body) {
        String message = ResponseCodec.readMessage(body);
        RuntimeOwnershipChangedEvent hint = status.isRetryable() ? ResponseCodec.readRoutingHint(body) : null;
        return ZarisStatusException.of(status, message, hint);
    }

    /** The failure inside the wrappers a future adds. */
    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The message of the failure inside the wrappers, or its name when it has none. */
    static String rootMessage(Throwable e) {
        Throwable cause = unwrap(e);
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }

    /** The meters' {@code status} tag of a failure: its status, or the kind of fault. */
    static String reasonOf(Throwable failure) {
        if (failure instanceof ZarisStatusException statusFailure) {
            return statusFailure.status().name().toLowerCase(Locale.ROOT);
        }
        if (failure instanceof ZarisTimeoutException) {
            return "timeout";
        }
        if (failure instanceof ZarisTransportException) {
            return "transport";
        }
        return "error";
    }
}
