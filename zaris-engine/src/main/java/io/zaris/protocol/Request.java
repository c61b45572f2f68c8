package io.zaris.protocol;

import io.zaris.model.AckMode;
import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.model.VersionedValue;
import java.util.List;

/**
 * A decoded request frame. One record per operation; {@link RequestCodec} is the only place that knows
 * their byte layout. Keys and values are raw bytes: the protocol does not interpret them (except INCREMENT,
 * which stores decimal ASCII so counters read back like Redis counters).
 */
public sealed interface Request {

    /** Correlates the response; unique among a connection's requests in flight. */
    long id();

    OpCode op();

    /** Sentinel for "no TTL" in {@link Put#ttlMillis()} and friends. */
    long NO_TTL = VersionedValue.NO_TTL;
    /** Sentinel for "no version precondition". */
    long ANY_VERSION = VersionedValue.ANY_VERSION;

    record Hello(long id, int magic, int protocolVersion, String clientName) implements Request {
        public OpCode op() {
            return OpCode.HELLO;
        }
    }

    /**
     * Logs the connection in as {@code user} ({@code "default"} for a node's shared password). The password
     * is kept as bytes so it is never interned as a string.
     */
    record Auth(long id, String user, byte[] password) implements Request {
        public OpCode op() {
            return OpCode.AUTH;
        }

        @Override
        public String toString() {
            return "Auth[id=" + id + ", user=" + user + ", password=<hidden>]";
        }
    }

    record Get(long id, byte[] key) implements Request {
        public OpCode op() {
            return OpCode.GET;
        }
    }

    /**
     * @param ttlMillis       time to live, {@link #NO_TTL} for none
     * @param ifAbsent        apply only when the key does not exist
     * @param expectedVersion apply only when the current version equals this; {@link #ANY_VERSION} for none
     * @param ack             when to acknowledge this write; {@code null} for the node's configured mode
     */
    record Put(long id, byte[] key, byte[] value, long ttlMillis, boolean ifAbsent, long expectedVersion, AckMode ack)
            implements Request {
        public Put(long id, byte[] key, byte[] value, long ttlMillis, boolean ifAbsent, long expectedVersion) {
            this(id, key, value, ttlMillis, ifAbsent, expectedVersion, null);
        }

        public OpCode op() {
            return OpCode.PUT;
        }
    }

    /** @param ack when to acknowledge this delete; {@code null} for the node's configured mode */
    record Delete(long id, byte[] key, long expectedVersion, AckMode ack) implements Request {
        public Delete(long id, byte[] key, long expectedVersion) {
            this(id, key, expectedVersion, null);
        }

        public OpCode op() {
            return OpCode.DELETE;
        }
    }

    record Increment(long id, byte[] key, long delta) implements Request {
        public OpCode op() {
            return OpCode.INCREMENT;
        }
    }

    /**
     * A {@link HashOp} on the hash at {@code key} (or {@link HashOp#TYPE} of any key). Sent as {@code HASH_WRITE}
     * when the op may change the hash, else as {@code HASH_READ}; both since protocol version 4.
     */
    record Hash(long id, byte[] key, HashOp hashOp, List<byte[]> args) implements Request {
        public OpCode op() {
            return hashOp.isWrite() ? OpCode.HASH_WRITE : OpCode.HASH_READ;
        }
    }

    /** Sets the key's TTL; {@link #NO_TTL} removes it (the key then lives until deleted or evicted). */
    record Touch(long id, byte[] key, long ttlMillis) implements Request {
        public OpCode op() {
            return OpCode.TOUCH;
        }
    }

    /** All keys must fall into one segment (use a hash tag). */
    record MultiGet(long id, List<byte[]> keys) implements Request {
        public OpCode op() {
            return OpCode.MULTI_GET;
        }
    }

    /** All keys must fall into one segment; applied atomically with respect to other writes of that segment. */
    record MultiPut(long id, List<byte[]> keys, List<byte[]> values, long ttlMillis) implements Request {
        public OpCode op() {
            return OpCode.MULTI_PUT;
        }
    }

    /**
     * Writes all entries when none of the keys exists, else nothing (answered {@code CONFLICT}). All keys must
     * fall into one segment; the check and the writes are one step with respect to other writes of that
     * segment, and replicas receive the writes as ordinary changes, like a {@link MultiPut}'s.
     */
    record MultiPutIfAbsent(long id, List<byte[]> keys, List<byte[]> values, long ttlMillis) implements Request {
        public OpCode op() {
            return OpCode.MULTI_PUT_IF_ABSENT;
        }
    }

    record MultiDelete(long id, List<byte[]> keys) implements Request {
        public OpCode op() {
            return OpCode.MULTI_DELETE;
        }
    }

    /**
     * Keys of the segments this node actively owns, starting at segment {@code cursor}; whole segments are
     * returned until at least {@code count} keys are collected.
     */
    record Scan(long id, int cursor, int count) implements Request {
        public OpCode op() {
            return OpCode.SCAN;
        }
    }

    record ClusterMap(long id) implements Request {
        public OpCode op() {
            return OpCode.CLUSTER_MAP;
        }
    }

    /** Changes of one segment in revision order, shipped by the active owner under {@code epoch}. */
    record Replicate(long id, int partition, long epoch, int segment, List<Change> changes) implements Request {
        public OpCode op() {
            return OpCode.REPLICATE;
        }
    }

    /**
     * Groups of changes, each of one segment and in revision order, that the active owners' link to this
     * replica gathered into one frame; applied in order, each group as a {@link Replicate} would be, and answered
     * with one verdict per group. The groups carry the batch's id.
     */
    record ReplicateBatch(long id, List<Replicate> groups) implements Request {
        public OpCode op() {
            return OpCode.REPLICATE_BATCH;
        }
    }

    /**
     * One chunk of a segment snapshot: {@code first} clears the replica's segment, {@code last} sets its
     * revision to {@code revision}; the chunks of one snapshot arrive in order on one connection.
     */
    record Snapshot(long id, int partition, long epoch, int segment, long revision, boolean first, boolean last,
                    List<Change> entries) implements Request {
        public OpCode op() {
            return OpCode.SNAPSHOT;
        }
    }

    record PartitionState(long id, int partition) implements Request {
        public OpCode op() {
            return OpCode.PARTITION_STATE;
        }
    }

    /** What this node holds of each segment of {@code partition}, as {@link io.zaris.model.SegmentDigest}s. */
    record SegmentDigests(long id, int partition) implements Request {
        public OpCode op() {
            return OpCode.SEGMENT_DIGESTS;
        }
    }

    /**
     * Asks a fellow replica for its changes of {@code segment} after {@code fromRevision}, at most about
     * {@code maxBytes} of them, provided it holds the segment as a complete copy under {@code lineageEpoch}
     * (the epoch the asker was synced under: only then are both copies prefixes of one history). Sent under
     * the asker's new {@code epoch}, which fences the old active on the answering node.
     */
    record Pull(long id, int partition, long epoch, int segment, long fromRevision, long lineageEpoch, int maxBytes)
            implements Request {
        public OpCode op() {
            return OpCode.PULL;
        }
    }

    /**
     * Asks a replica to count its copy of {@code segment} as complete under {@code toEpoch}: the active that synced it
     * under {@code fromEpoch} stays active under {@code toEpoch}, and its copy is at {@code revision} (sent under the
     * segment's write lock, so every change before it was shipped ahead of it on the same link).
     */
    record AdvanceEpoch(long id, int partition, int segment, long fromEpoch, long toEpoch, long revision)
            implements Request {
        public OpCode op() {
            return OpCode.ADVANCE_EPOCH;
        }
    }

    /**
     * The leader asks the active owner of {@code partition} under {@code epoch} to stop taking writes of that epoch
     * before it publishes a planned hand-over (see {@link OpCode#HAND_OVER_FENCE}).
     */
    record HandOverFence(long id, int partition, long epoch) implements Request {
        public OpCode op() {
            return OpCode.HAND_OVER_FENCE;
        }
    }

    /** Turns on segment tracking for the connection (see {@link OpCode#TRACK_SEGMENTS}). */
    record TrackSegments(long id) implements Request {
        public OpCode op() {
            return OpCode.TRACK_SEGMENTS;
        }
    }

    /**
     * Subscribes the connection to {@code segment}'s invalidations, resuming after {@code sinceRevision} (whose
     * change was written under {@code sinceEpoch}); {@code sinceRevision = -1} starts fresh.
     */
    record TrackSegment(long id, int segment, long sinceRevision, long sinceEpoch) implements Request {
        public OpCode op() {
            return OpCode.TRACK_SEGMENT;
        }
    }

    record MapVersion(long id) implements Request {
        public OpCode op() {
            return OpCode.MAP_VERSION;
        }
    }

    /** Operator: drain the receiving node (see {@link OpCode#ADMIN_DRAIN}). */
    record AdminDrain(long id) implements Request {
        public OpCode op() {
            return OpCode.ADMIN_DRAIN;
        }
    }

    /** Node to node: a RESP message to deliver to the receiver's subscribers (see {@link OpCode#PUBLISH}). */
    record Publish(long id, byte[] channel, byte[] message) implements Request {
        public OpCode op() {
            return OpCode.PUBLISH;
        }
    }

    /** Operator: rebalance the cluster's map over its present nodes now (see {@link OpCode#ADMIN_REBALANCE}). */
    record AdminRebalance(long id) implements Request {
        public OpCode op() {
            return OpCode.ADMIN_REBALANCE;
        }
    }
}
