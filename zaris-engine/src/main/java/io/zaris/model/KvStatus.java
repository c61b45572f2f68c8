package io.zaris.model;

/**
 * The outcome carried by every response frame. Statuses, not exceptions, are the vocabulary between node
 * and client: each one says whether the request may be retried and whether the client's routing table is
 * wrong.
 *
 * <table>
 *   <caption>Status families</caption>
 *   <tr><th>family</th><th>statuses</th><th>client reaction</th></tr>
 *   <tr><td>answer</td><td>OK, NOT_FOUND, CONFLICT</td><td>hand straight back</td></tr>
 *   <tr><td>wrong node</td><td>MOVED, OWNERSHIP_CHANGING, REPLICA_WRITE_REJECTED</td>
 *       <td>refresh the map, retry</td></tr>
 *   <tr><td>transient</td><td>MIGRATING, UNAVAILABLE, UNACKNOWLEDGED</td><td>retry after a backoff
 *       (UNACKNOWLEDGED: only idempotent operations)</td></tr>
 *   <tr><td>request error</td><td>BAD_REQUEST, TOO_LARGE, UNAUTHORIZED, WRONG_TYPE</td>
 *       <td>never retried</td></tr>
 *   <tr><td>refused</td><td>OUT_OF_MEMORY</td><td>never retried (the node stays full until data is
 *       deleted or expires)</td></tr>
 *   <tr><td>replication (node to node)</td><td>FENCED, OUT_OF_SYNC</td><td>handled by the active owner</td></tr>
 * </table>
 *
 * The wire code of each constant is part of the protocol and must never change.
 */
public enum KvStatus {

    /** The operation was applied or the value was found. */
    OK(0, Family.ANSWER),
    /** The key does not exist (or has expired). */
    NOT_FOUND(1, Family.ANSWER),
    /** A precondition failed: IfAbsent found a value, or IfMatchVersion saw another version. */
    CONFLICT(2, Family.ANSWER),
    /** This node is not assigned the key's segment. */
    MOVED(10, Family.WRONG_NODE),
    /** This node is not the active owner and a handoff of the segment is in progress. */
    OWNERSHIP_CHANGING(11, Family.WRONG_NODE),
    /** This node is an assigned replica of the segment, not its active owner; writes go to the active. */
    REPLICA_WRITE_REJECTED(12, Family.WRONG_NODE),
    /** The segment is being moved; writes are held back briefly. */
    MIGRATING(13, Family.TRANSIENT),
    /** No serving owner for the segment right now. */
    UNAVAILABLE(14, Family.TRANSIENT),
    /**
     * The active owner applied the write but its acknowledgement requirement (SYNC replicas) was not met in
     * time: the write may survive or not. Safe to retry only for idempotent operations.
     */
    UNACKNOWLEDGED(15, Family.TRANSIENT),
    /** The request is malformed, or names an unknown operation. */
    BAD_REQUEST(20, Family.REQUEST_ERROR),
    /** A key, value or frame exceeds the node's configured maximum. */
    TOO_LARGE(21, Family.REQUEST_ERROR),
    /** The connection is not authenticated for this operation. */
    UNAUTHORIZED(22, Family.REQUEST_ERROR),
    /** The stored value does not fit the operation, e.g. INCREMENT on a value that is not a decimal integer. */
    WRONG_TYPE(23, Family.REQUEST_ERROR),
    /**
     * The node is over its memory budget and its eviction policy cannot make room ({@code noeviction}, or a
     * volatile policy with no key that has a TTL): a write that adds data is refused and nothing changed.
     * Reads and deletes still work. Like Redis's {@code -OOM}.
     */
    OUT_OF_MEMORY(24, Family.REFUSED),
    /** Node to node: the sender's partition epoch is older than one the receiver has seen; it must stop. */
    FENCED(30, Family.INTERNAL),
    /** Node to node: shipped changes did not follow the replica's revision; it needs a tail or a snapshot. */
    OUT_OF_SYNC(31, Family.INTERNAL);

    private enum Family { ANSWER, WRONG_NODE, TRANSIENT, REQUEST_ERROR, REFUSED, INTERNAL }

    private static final KvStatus[] BY_CODE = new KvStatus[32];

    static {
        for (KvStatus status : values()) {
            BY_CODE[status.code] = status;
        }
    }

    private final int code;
    private final Family family;

    KvStatus(int code, Family family) {
        this.code = code;
        this.family = family;
    }

    /** The byte this status is written as on the wire. */
    public int code() {
        return code;
    }

    /** Decodes a wire code; {@code null} when the code is unknown (a newer node's status). */
    public static KvStatus fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** A real answer the application should see unchanged. */
    public boolean isAnswer() {
        return family == Family.ANSWER;
    }

    /** The request reached a node that does not serve the segment: the client's map is stale. */
    public boolean meansWrongNode() {
        return family == Family.WRONG_NODE;
    }

    /** Retrying (possibly after a map refresh) may succeed. */
    public boolean isRetryable() {
        return family == Family.WRONG_NODE || family == Family.TRANSIENT;
    }

    /** The node refused a valid request by policy (memory budget); retrying at once will not help. */
    public boolean isRefused() {
        return family == Family.REFUSED;
    }

    /** The request itself is at fault; retrying can never help. */
    public boolean isRequestError() {
        return family == Family.REQUEST_ERROR || family == Family.INTERNAL;
    }
}
