package io.zaris.chaos;

import io.zaris.model.KvStatus;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTimeoutException;
import io.zaris.transport.ZarisTransportException;
import java.util.Locale;

/**
 * What the caller of one operation got back, or what one failed attempt of it got: an answer, a status the
 * client could not resolve, a timeout or a transport fault. Every reply the history records has one of these
 * kinds, and the report counts them by kind.
 *
 * <table>
 *   <caption>Kinds</caption>
 *   <tr><th>kind</th><th>answer</th><th>may have been applied</th><th>the client must hide it</th></tr>
 *   <tr><td>OK, NOT_FOUND</td><td>yes (applied / key absent)</td><td>yes</td><td>—</td></tr>
 *   <tr><td>CONFLICT</td><td>yes (condition failed)</td><td>no</td><td>—</td></tr>
 *   <tr><td>MOVED, OWNERSHIP_CHANGING, REPLICA_WRITE_REJECTED, MIGRATING, UNAVAILABLE</td><td>no</td><td>no</td>
 *       <td>yes</td></tr>
 *   <tr><td>UNACKNOWLEDGED, TIMEOUT, TRANSPORT, OTHER</td><td>no</td><td>perhaps (ambiguous)</td><td>no</td></tr>
 *   <tr><td>TRANSPORT_NOT_SENT, REFUSED</td><td>no</td><td>no</td><td>no</td></tr>
 * </table>
 *
 * A refusal is determinate: the node answered that it did not apply the request. Only "sent, and no answer
 * or an ambiguous one" is ambiguous. {@code OTHER} (an exception the harness does not understand) is counted
 * as ambiguous because nothing is known about it.
 */
enum Reply {
    OK,
    NOT_FOUND,
    CONFLICT,
    MOVED,
    OWNERSHIP_CHANGING,
    REPLICA_WRITE_REJECTED,
    MIGRATING,
    UNAVAILABLE,
    UNACKNOWLEDGED,
    TIMEOUT,
    /** The connection failed after the request may have left the client. */
    TRANSPORT,
    /** The request never left the client. */
    TRANSPORT_NOT_SENT,
    /** A request error or a refusal by policy (memory budget): never applied, never retried. */
    REFUSED,
    OTHER;

    /** A real answer from the key's owner. */
    boolean isAnswer() {
        return this == OK || this == NOT_FOUND || this == CONFLICT;
    }

    /** An answer saying the operation took effect: OK, or NOT_FOUND (a delete of an absent key, a read). */
    boolean tookEffect() {
        return this == OK || this == NOT_FOUND;
    }

    /** Sent, and no answer or an ambiguous one: the operation may or may not have been applied. */
    boolean isAmbiguous() {
        return this == UNACKNOWLEDGED || this == TIMEOUT || this == TRANSPORT || this == OTHER;
    }

    /**
     * A routing or transient status the client promises to resolve by itself (refresh, wait, retry): when
     * one reaches the application it is a finding.
     */
    boolean mustNotSurface() {
        return this == MOVED || this == OWNERSHIP_CHANGING || this == REPLICA_WRITE_REJECTED || this == MIGRATING
                || this == UNAVAILABLE;
    }

    /** The kind of a failure the client threw to the application. */
    static Reply of(Throwable failure) {
        if (failure instanceof ZarisStatusException status) {
            return of(status.status());
        }
        if (failure instanceof ZarisTimeoutException) {
            return TIMEOUT;
        }
        if (failure instanceof ZarisTransportException transport) {
            return transport.mayHaveBeenApplied() ? TRANSPORT : TRANSPORT_NOT_SENT;
        }
        return OTHER;
    }

    static Reply of(KvStatus status) {
        return switch (status) {
            case OK -> OK;
            case NOT_FOUND -> NOT_FOUND;
            case CONFLICT -> CONFLICT;
            case MOVED -> MOVED;
            case OWNERSHIP_CHANGING -> OWNERSHIP_CHANGING;
            case REPLICA_WRITE_REJECTED -> REPLICA_WRITE_REJECTED;
            case MIGRATING -> MIGRATING;
            case UNAVAILABLE -> UNAVAILABLE;
            case UNACKNOWLEDGED -> UNACKNOWLEDGED;
            case BAD_REQUEST, TOO_LARGE, UNAUTHORIZED, WRONG_TYPE, OUT_OF_MEMORY -> REFUSED;
            case FENCED, OUT_OF_SYNC -> OTHER;
        };
    }

    /**
     * The kind behind the reason the client names a retried attempt by ({@code ClientMetrics.retry}): a status
     * in lower case, {@code timeout}, {@code transport} or {@code error}. The client does not say whether a
     * retried transport fault happened before or after sending, so {@code transport} is taken as the ambiguous
     * {@link #TRANSPORT}: an error on the safe side (the write is treated as possibly applied).
     */
    static Reply ofRetryReason(String reason) {
        switch (reason) {
            case "timeout":
                return TIMEOUT;
            case "transport":
                return TRANSPORT;
            case "error":
                return OTHER;
            default:
                try {
                    return of(KvStatus.valueOf(reason.toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException unknown) {
                    return OTHER;
                }
        }
    }
}
