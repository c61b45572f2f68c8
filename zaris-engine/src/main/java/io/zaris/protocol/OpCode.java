package io.zaris.protocol;

/**
 * Operation codes of request frames. The byte values are part of the wire protocol and must never change;
 * new operations take new codes. Codes at or above {@link #RESPONSE_FRAME} mark frames sent by a node.
 */
public enum OpCode {

    /** Handshake: magic, protocol version, client name. Must be the first frame on a connection. */
    HELLO(0x01, false),
    /**
     * Authentication: user name and password, sent right after HELLO when the node requires it. Until it
     * succeeds every other request is answered {@code UNAUTHORIZED}.
     */
    AUTH(0x02, false),
    GET(0x10, false),
    PUT(0x11, true),
    DELETE(0x12, true),
    INCREMENT(0x13, true),
    TOUCH(0x14, true),
    /** A read of a hash ({@code HGET}, {@code HGETALL} …) or of a key's type; since protocol version 4. */
    HASH_READ(0x15, false),
    /** A write of a hash ({@code HSET}, {@code HDEL} …), shipped to replicas field by field; since protocol version 4. */
    HASH_WRITE(0x16, true),
    MULTI_GET(0x20, false),
    MULTI_PUT(0x21, true),
    MULTI_DELETE(0x22, true),
    /**
     * Writes every entry only when none of the keys exists (Redis's MSETNX): decided and applied under one
     * hold of the segment's write lock, so it is all or nothing against every other write of the segment.
     */
    MULTI_PUT_IF_ABSENT(0x23, true),
    SCAN(0x30, false),
    CLUSTER_MAP(0x40, false),
    /** The fingerprint of the node's maps, so a poll fetches the full map only when it changed. */
    MAP_VERSION(0x41, false),
    /**
     * Near cache: turns this connection into a tracking one; from then on {@link #TRACK_SEGMENT} subscribes it to
     * the invalidations of one segment ({@link SegmentInvalidations}), pushed until the connection closes.
     */
    TRACK_SEGMENTS(0x42, false),
    /**
     * Near cache: subscribes this tracking connection to the invalidations of one segment, resuming from the
     * position the client last saw when the node's op log still reaches back to it ({@link SegmentTrackAnswer}).
     */
    TRACK_SEGMENT(0x43, false),
    /** Node to node: changes of one segment, shipped by the active owner in revision order. */
    REPLICATE(0x50, false),
    /** Node to node: one chunk of a segment snapshot from the active owner. */
    SNAPSHOT(0x51, false),
    /** Node to node: what a node holds of one partition (asked by the leader before a promotion). */
    PARTITION_STATE(0x52, false),
    /**
     * Node to node: a node that just took a partition over asks a fellow replica for the changes of one
     * segment it holds beyond a revision (see {@code TakeoverCatchUp}).
     */
    PULL(0x53, false),
    /**
     * Node to node: live changes of several segments in one frame with one answer, each segment's group in
     * revision order, shipped by the active owner on its link to one replica (see {@code ReplicationBatch}).
     */
    REPLICATE_BATCH(0x54, false),
    /**
     * Node to node, and for consistency checks: a content digest of every segment of one partition as this node
     * holds it, whatever its role there (active, replica or neither), so the copies of a partition can be compared.
     */
    SEGMENT_DIGESTS(0x55, false),
    /**
     * Node to node: the active owner, which stays active under a new epoch (a replica of the partition was lost),
     * asks a replica to count its copy of one segment as complete under the new epoch instead of taking a new
     * snapshot, provided the copy is still the one this active synced (see {@code Replicator}). With both epochs
     * the same it audits the copy: the replica answers {@code OK} only if it still counts the segment as complete
     * under that epoch at the active's revision (nodes before this use refuse it as a bad request).
     */
    ADVANCE_EPOCH(0x56, false),
    /**
     * Leader to node: the first phase of a planned hand-over. The partition's active owner stops taking writes of
     * the given epoch and older (refused with {@code OWNERSHIP_CHANGING}) and answers {@code OK} once every write
     * it applied before has its replicas' verdicts, before the leader publishes the new active (see
     * {@code HandOverFence}). Nodes before this use refuse it as a bad request, and the leader publishes anyway.
     */
    HAND_OVER_FENCE(0x57, false),
    /**
     * Operator: the receiving node starts draining itself (its partitions move to the other nodes); answered
     * as soon as the drain is asked for, not when it is done. Refused to read-only users.
     */
    ADMIN_DRAIN(0x60, false),
    /** Operator: the receiving node asks the leader to plan the map over the present nodes now. */
    ADMIN_REBALANCE(0x61, false),
    /**
     * Node to node: a RESP {@code PUBLISH} made on the sending node, for the receiver to deliver to its own RESP
     * subscribers (channel, then message). At most once: answered OK once handed to the subscribers' push paths.
     */
    PUBLISH(0x70, false);

    /** First byte of a response frame. */
    public static final int RESPONSE_FRAME = 0x80;
    /** First byte of a frame a node pushes unasked (e.g. a runtime ownership change). */
    public static final int PUSH_FRAME = 0x81;

    private static final OpCode[] BY_CODE = new OpCode[RESPONSE_FRAME];

    static {
        for (OpCode op : values()) {
            BY_CODE[op.code] = op;
        }
    }

    private final int code;
    private final boolean write;

    OpCode(int code, boolean write) {
        this.code = code;
        this.write = write;
    }

    public int code() {
        return code;
    }

    /** Whether the operation changes data (and so may only be served by the active owner). */
    public boolean isWrite() {
        return write;
    }

    /** Decodes a wire code; {@code null} for codes this version does not know. */
    public static OpCode fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
