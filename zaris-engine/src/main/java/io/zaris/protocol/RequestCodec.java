package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.AckMode;
import io.zaris.model.Change;
import io.zaris.model.ListPosition;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Byte layout of request frames. A frame on the wire is {@code int32 length} followed by the payload
 * this class reads and writes: {@code op (1) · request id (8) · routed epoch (8) · deadline (4) · body}.
 * The routed epoch is the partition epoch the client's routing table held when it chose this node
 * ({@code 0} = not routed by key); the deadline is how many milliseconds the client will still wait for
 * the answer ({@code 0} = no deadline). Body layouts:
 *
 * <pre>
 * HELLO        magic:int32 · version:u8 · clientName:string
 * AUTH         user:string · password:bytes (at most {@value #MAX_PASSWORD_BYTES})
 * GET          key
 * PUT          flags:u8 (1 = if-absent, 2 = if-match, 4 = ttl, 8 = ack SYNC, 16 = ack ASYNC) · key · value
 *              · [ttl:int64] · [version:int64]
 * DELETE       flags:u8 (2 = if-match, 8 = ack SYNC, 16 = ack ASYNC) · key · [version:int64]
 *              (neither ack flag: the node's configured acknowledgement mode)
 * INCREMENT    key · delta:int64
 * HASH_READ, HASH_WRITE  key · op:u8 · n:int32 · argument*n   (see HashOp; since version 4)
 * TOUCH        key · ttl:int64 (0 = persist)
 * MULTI_GET    n:int32 · key*n
 * MULTI_PUT    n:int32 · (key · value)*n · ttl:int64
 * MULTI_PUT_IF_ABSENT   the layout of MULTI_PUT
 * MULTI_DELETE n:int32 · key*n
 * SCAN         cursor:int32 · count:int32
 * CLUSTER_MAP  (empty)
 * MAP_VERSION  (empty)
 * REPLICATE    partition:int32 · epoch:int64 · segment:int32 · n:int32 · change*n
 * REPLICATE_BATCH n:int32 · (partition:int32 · epoch:int64 · segment:int32 · m:int32 · change*m)*n
 * SNAPSHOT     partition:int32 · epoch:int64 · segment:int32 · revision:int64 · flags:u8 (1 first, 2 last)
 *              · n:int32 · change*n
 * PARTITION_STATE partition:int32
 * SEGMENT_DIGESTS partition:int32
 * PULL         partition:int32 · epoch:int64 · segment:int32 · fromRevision:int64 · lineageEpoch:int64 · maxBytes:int32
 * ADVANCE_EPOCH partition:int32 · segment:int32 · fromEpoch:int64 · toEpoch:int64 · revision:int64
 * HAND_OVER_FENCE partition:int32 · epoch:int64
 * TRACK_SEGMENT segment:int32 · sinceRevision:int64 (-1 = fresh) · sinceEpoch:int64
 * ADMIN_DRAIN  (empty)
 * ADMIN_REBALANCE (empty)
 * PUBLISH      channel · message (each length-prefixed)
 * change = revision:int64 · epoch:int64 · key · kind:u8 (0 removed, 1 value, 2 superseded; since version 4: 3 field
 *          value, 4 field (or set member) removed, 5 expiry, 6 set member added) · [field if 3, 4 or 6]
 *          · [value if 1 or 3] · expiresAt:int64; also since version 4, the list changes (codes 7–15 are the
 *          lists'): 7 element inserted, 8 elements removed, 9 element set, each with its position as the field
 *          (decimal text: "index", or "index count" for 8) and the element as the value (7, 9)
 * </pre>
 *
 * Decoding never trusts a length: see {@link Wire}. Trailing bytes after a body are an error, so two
 * versions that disagree about a layout fail loudly instead of misreading.
 */
public final class RequestCodec {

    /** "ZRIS": the first four body bytes of HELLO; anything else is not a Zaris client. */
    public static final int MAGIC = 0x5A524953;
    /**
     * The newest version of the frame layouts, offered in HELLO; bumped whenever a frame is added or changed. What
     * each version has, and how two versions agree, is {@link ProtocolVersions}.
     */
    public static final int PROTOCOL_VERSION = ProtocolVersions.CURRENT;

    /** Longest password an AUTH frame may carry. */
    public static final int MAX_PASSWORD_BYTES = 1024;

    private static final int CHANGE_REMOVED = 0;
    private static final int CHANGE_VALUE = 1;
    private static final int CHANGE_SUPERSEDED = 2;
    /** Since protocol version 4, as the hash frames: one field of a hash set. */
    private static final int CHANGE_FIELD_VALUE = 3;
    /** Since protocol version 4: one field of a hash removed. */
    private static final int CHANGE_FIELD_REMOVED = 4;
    /** Since protocol version 4: a key's expiry set, its value kept. */
    private static final int CHANGE_EXPIRY = 5;
    /** Since protocol version 4, as the set operations: one member of a set added (a field without a value). */
    private static final int CHANGE_MEMBER_ADDED = 6;
    /**
     * Since protocol version 4, as the sorted-set operations: one member of a sorted set given a score (its 8 bytes as
     * the value). Codes are reserved by family like {@link io.zaris.model.HashOp}'s: 7–15 for lists, 16–23 sorted sets.
     */
    private static final int CHANGE_SCORE_SET = 16;
    /** Since protocol version 4, as the list operations: one element inserted at an absolute index. */
    private static final int CHANGE_LIST_INSERT = 7;
    /** Since protocol version 4: a run of list elements removed. */
    private static final int CHANGE_LIST_REMOVE = 8;
    /** Since protocol version 4: one list element replaced. */
    private static final int CHANGE_LIST_SET = 9;
    /**
     * Since protocol version 4, as RENAME: the whole value of a key moved to another key (the field) with its expiry.
     * Codes 24 onwards are whole-key changes.
     */
    private static final int CHANGE_RENAMED = 24;

    private static final int FLAG_IF_ABSENT = 1;
    private static final int FLAG_IF_MATCH = 2;
    private static final int FLAG_TTL = 4;
    private static final int FLAG_ACK_SYNC = 8;
    private static final int FLAG_ACK_ASYNC = 16;

    private RequestCodec() {
    }

    private static int ackFlag(AckMode ack) {
        return ack == null ? 0 : ack == AckMode.SYNC ? FLAG_ACK_SYNC : FLAG_ACK_ASYNC;
    }

    private static AckMode ackOf(int flags, long id) throws MalformedRequestException {
        boolean sync = (flags & FLAG_ACK_SYNC) != 0;
        boolean async = (flags & FLAG_ACK_ASYNC) != 0;
        if (sync && async) {
            throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "a write cannot ask for both SYNC and ASYNC acknowledgement");
        }
        return sync ? AckMode.SYNC : async ? AckMode.ASYNC : null;
    }

    /** Bytes before the body: op, request id, routed epoch, deadline. */
    public static final int HEADER_BYTES = 1 + 8 + 8 + 4;

    /** Encodes a request that is not routed by key and has no deadline. */
    public static void encode(Request request, ByteBuf out) {
        encode(request, 0, 0, out);
    }

    /**
     * @param routedEpoch    partition epoch the client routed by, 0 when not routed by key
     * @param deadlineMillis milliseconds the client still waits for the answer, 0 for no deadline
     */
    public static void encode(Request request, long routedEpoch, int deadlineMillis, ByteBuf out) {
        out.writeByte(request.op().code());
        out.writeLong(request.id());
        out.writeLong(routedEpoch);
        out.writeInt(deadlineMillis);
        if (request instanceof Request.Hello hello) {
            out.writeInt(hello.magic());
            out.writeByte(hello.protocolVersion());
            Wire.writeString(out, hello.clientName());
        } else if (request instanceof Request.Auth auth) {
            Wire.writeString(out, auth.user());
            Wire.writeBytes(out, auth.password());
        } else if (request instanceof Request.Get get) {
            Wire.writeBytes(out, get.key());
        } else if (request instanceof Request.Put put) {
            int flags = (put.ifAbsent() ? FLAG_IF_ABSENT : 0)
                    | (put.expectedVersion() != Request.ANY_VERSION ? FLAG_IF_MATCH : 0)
                    | (put.ttlMillis() != Request.NO_TTL ? FLAG_TTL : 0)
                    | ackFlag(put.ack());
            out.writeByte(flags);
            Wire.writeBytes(out, put.key());
            Wire.writeBytes(out, put.value());
            if ((flags & FLAG_TTL) != 0) {
                out.writeLong(put.ttlMillis());
            }
            if ((flags & FLAG_IF_MATCH) != 0) {
                out.writeLong(put.expectedVersion());
            }
        } else if (request instanceof Request.Delete delete) {
            boolean ifMatch = delete.expectedVersion() != Request.ANY_VERSION;
            out.writeByte((ifMatch ? FLAG_IF_MATCH : 0) | ackFlag(delete.ack()));
            Wire.writeBytes(out, delete.key());
            if (ifMatch) {
                out.writeLong(delete.expectedVersion());
            }
        } else if (request instanceof Request.Increment increment) {
            Wire.writeBytes(out, increment.key());
            out.writeLong(increment.delta());
        } else if (request instanceof Request.Hash hash) {
            Wire.writeBytes(out, hash.key());
            out.writeByte(hash.hashOp().code());
            out.writeInt(hash.args().size());
            for (byte[] arg : hash.args()) {
                Wire.writeBytes(out, arg);
            }
        } else if (request instanceof Request.Touch touch) {
            Wire.writeBytes(out, touch.key());
            out.writeLong(touch.ttlMillis());
        } else if (request instanceof Request.MultiGet multiGet) {
            writeKeys(out, multiGet.keys());
        } else if (request instanceof Request.MultiPut multiPut) {
            writeEntries(out, multiPut.keys(), multiPut.values(), multiPut.ttlMillis());
        } else if (request instanceof Request.MultiPutIfAbsent multiPut) {
            writeEntries(out, multiPut.keys(), multiPut.values(), multiPut.ttlMillis());
        } else if (request instanceof Request.MultiDelete multiDelete) {
            writeKeys(out, multiDelete.keys());
        } else if (request instanceof Request.Scan scan) {
            out.writeInt(scan.cursor());
            out.writeInt(scan.count());
        } else if (request instanceof Request.Replicate replicate) {
            writeReplicateGroup(out, replicate.partition(), replicate.epoch(), replicate.segment(), replicate.changes());
        } else if (request instanceof Request.ReplicateBatch batch) {
            out.writeInt(batch.groups().size());
            for (Request.Replicate group : batch.groups()) {
                writeReplicateGroup(out, group.partition(), group.epoch(), group.segment(), group.changes());
            }
        } else if (request instanceof Request.Snapshot snapshot) {
            out.writeInt(snapshot.partition());
            out.writeLong(snapshot.epoch());
            out.writeInt(snapshot.segment());
            out.writeLong(snapshot.revision());
            out.writeByte((snapshot.first() ? 1 : 0) | (snapshot.last() ? 2 : 0));
            writeChanges(out, snapshot.entries());
        } else if (request instanceof Request.PartitionState state) {
            out.writeInt(state.partition());
        } else if (request instanceof Request.SegmentDigests digests) {
            out.writeInt(digests.partition());
        } else if (request instanceof Request.Pull pull) {
            out.writeInt(pull.partition());
            out.writeLong(pull.epoch());
            out.writeInt(pull.segment());
            out.writeLong(pull.fromRevision());
            out.writeLong(pull.lineageEpoch());
            out.writeInt(pull.maxBytes());
        } else if (request instanceof Request.TrackSegment track) {
            out.writeInt(track.segment());
            out.writeLong(track.sinceRevision());
            out.writeLong(track.sinceEpoch());
        } else if (request instanceof Request.Publish publish) {
            Wire.writeBytes(out, publish.channel());
            Wire.writeBytes(out, publish.message());
        } else if (request instanceof Request.HandOverFence fence) {
            out.writeInt(fence.partition());
            out.writeLong(fence.epoch());
        } else if (request instanceof Request.AdvanceEpoch advance) {
            out.writeInt(advance.partition());
            out.writeInt(advance.segment());
            out.writeLong(advance.fromEpoch());
            out.writeLong(advance.toEpoch());
            out.writeLong(advance.revision());
        } else if (!hasEmptyBody(request)) {
            throw new IllegalArgumentException("no encoding for " + request.op());
        }
    }

    /** Requests that are their header alone. */
    private static boolean hasEmptyBody(Request request) {
        return request instanceof Request.ClusterMap || request instanceof Request.MapVersion
                || request instanceof Request.TrackSegments
                || request instanceof Request.AdminDrain || request instanceof Request.AdminRebalance;
    }

    /** A decoded request with the routing metadata of its header. */
    public record Envelope(Request request, long routedEpoch, int deadlineMillis) {
    }

    /**
     * Decodes one frame payload (the length prefix already stripped).
     *
     * @throws MalformedRequestException with request id -1 when not even the header is readable
     */
    public static Envelope decode(ByteBuf in, ProtocolLimits limits) throws MalformedRequestException {
        return decode(in, limits, ValueArrays.FRESH);
    }

    /**
     * Like {@link #decode(ByteBuf, ProtocolLimits)}, with the value of a PUT and the string values of a REPLICATE read
     * into arrays from {@code values} (other requests' values, and a REPLICATE's hash field values and list elements,
     * which the store keeps as they are, always get arrays of their own).
     */
    public static Envelope decode(ByteBuf in, ProtocolLimits limits, ValueArrays values) throws MalformedRequestException {
        if (in.readableBytes() < HEADER_BYTES) {
            throw new MalformedRequestException(-1, KvStatus.BAD_REQUEST,
                    "frame of " + in.readableBytes() + " bytes is shorter than a request header");
        }
        int opCode = in.readUnsignedByte();
        long id = in.readLong();
        long routedEpoch = in.readLong();
        int deadlineMillis = in.readInt();
        if (id < 0) {
            throw new MalformedRequestException(-1, KvStatus.BAD_REQUEST, "negative request id " + id);
        }
        OpCode op = OpCode.fromCode(opCode);
        if (op == null) {
            throw new MalformedRequestException(id, KvStatus.BAD_REQUEST,
                    String.format("unknown op code 0x%02x", opCode));
        }
        if (routedEpoch < 0 || deadlineMillis < 0) {
            throw new MalformedRequestException(id, KvStatus.BAD_REQUEST,
                    "negative routed epoch or deadline in request header");
        }
        Request request = decodeBody(op, id, in, limits, values);
        if (in.isReadable()) {
            throw new MalformedRequestException(id, KvStatus.BAD_REQUEST,
                    in.readableBytes() + " unexpected trailing bytes after " + op + " body");
        }
        return new Envelope(request, routedEpoch, deadlineMillis);
    }

    private static Request decodeBody(OpCode op, long id, ByteBuf in, ProtocolLimits limits, ValueArrays values)
            throws MalformedRequestException {
        switch (op) {
            case HELLO: {
                int magic = Wire.readInt(in, id, "magic");
                int version = Wire.readUnsignedByte(in, id, "protocol version");
                return new Request.Hello(id, magic, version, Wire.readString(in, id, "client name"));
            }
            case AUTH: {
                String user = Wire.readString(in, id, "user");
                return new Request.Auth(id, user, Wire.readBytes(in, MAX_PASSWORD_BYTES, id, "password"));
            }
            case GET:
                return new Request.Get(id, readKey(in, limits, id));
            case PUT: {
                int flags = Wire.readUnsignedByte(in, id, "flags");
                byte[] key = readKey(in, limits, id);
                byte[] value = Wire.readBytes(in, limits.maxValueBytes(), id, "value", values);
                long ttl = (flags & FLAG_TTL) != 0 ? readTtl(in, id) : Request.NO_TTL;
                long version = (flags & FLAG_IF_MATCH) != 0 ? readVersion(in, id) : Request.ANY_VERSION;
                return new Request.Put(id, key, value, ttl, (flags & FLAG_IF_ABSENT) != 0, version, ackOf(flags, id));
            }
            case DELETE: {
                int flags = Wire.readUnsignedByte(in, id, "flags");
                byte[] key = readKey(in, limits, id);
                long version = (flags & FLAG_IF_MATCH) != 0 ? readVersion(in, id) : Request.ANY_VERSION;
                return new Request.Delete(id, key, version, ackOf(flags, id));
            }
            case INCREMENT:
                return new Request.Increment(id, readKey(in, limits, id), Wire.readLong(in, id, "delta"));
            case HASH_READ:
            case HASH_WRITE: {
                byte[] key = readKey(in, limits, id);
                int code = Wire.readUnsignedByte(in, id, "hash op");
                HashOp hashOp = HashOp.fromCode(code);
                if (hashOp == null || hashOp.isWrite() != (op == OpCode.HASH_WRITE)) {
                    throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "unknown hash op " + code + " in " + op);
                }
                // Each argument takes at least its 4-byte length, which bounds the count by the frame.
                int count = Wire.readCount(in, in.readableBytes() / 4, id, "argument count");
                if (!hashOp.takes(count)) {
                    throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, hashOp + " does not take " + count
                            + " arguments");
                }
                List<byte[]> args = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    args.add(hashOp.isFieldArgument(i) ? Wire.readBytes(in, limits.maxKeyBytes(), id, "field")
                            : Wire.readBytes(in, limits.maxValueBytes(), id, "argument"));
                }
                return new Request.Hash(id, key, hashOp, args);
            }
            case TOUCH: {
                byte[] key = readKey(in, limits, id);
                long ttl = Wire.readLong(in, id, "ttl");
                if (ttl < 0) {
                    throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "negative ttl " + ttl);
                }
                return new Request.Touch(id, key, ttl);
            }
            case MULTI_GET:
                return new Request.MultiGet(id, readKeys(in, limits, id));
            case MULTI_PUT: {
                Entries entries = readEntries(in, limits, id);
                return new Request.MultiPut(id, entries.keys(), entries.values(), entries.ttlMillis());
            }
            case MULTI_PUT_IF_ABSENT: {
                Entries entries = readEntries(in, limits, id);
                return new Request.MultiPutIfAbsent(id, entries.keys(), entries.values(), entries.ttlMillis());
            }
            case MULTI_DELETE:
                return new Request.MultiDelete(id, readKeys(in, limits, id));
            case SCAN: {
                int cursor = Wire.readInt(in, id, "cursor");
                int count = Wire.readInt(in, id, "count");
                if (cursor < 0 || count < 1) {
                    throw new MalformedRequestException(id, KvStatus.BAD_REQUEST,
                            "scan needs cursor >= 0 and count >= 1, got " + cursor + " and " + count);
                }
                return new Request.Scan(id, cursor, count);
            }
            case CLUSTER_MAP:
                return new Request.ClusterMap(id);
            case MAP_VERSION:
                return new Request.MapVersion(id);
            case TRACK_SEGMENTS:
                return new Request.TrackSegments(id);
            case ADMIN_DRAIN:
                return new Request.AdminDrain(id);
            case ADMIN_REBALANCE:
                return new Request.AdminRebalance(id);
            case PUBLISH:
                return new Request.Publish(id, Wire.readBytes(in, limits.maxKeyBytes(), id, "channel"),
                        Wire.readBytes(in, limits.maxValueBytes(), id, "message"));
            case REPLICATE:
                return readReplicateGroup(in, limits, id, values);
            case REPLICATE_BATCH: {
                // A group takes at least 20 bytes, which bounds the count by the frame before allocating.
                int count = Wire.readCount(in, in.readableBytes() / 20, id, "group count");
                List<Request.Replicate> groups = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    groups.add(readReplicateGroup(in, limits, id, values));
                }
                return new Request.ReplicateBatch(id, groups);
            }
            case SNAPSHOT: {
                int partition = Wire.readInt(in, id, "partition");
                long epoch = Wire.readLong(in, id, "epoch");
                int segment = Wire.readInt(in, id, "segment");
                long revision = Wire.readLong(in, id, "revision");
                int flags = Wire.readUnsignedByte(in, id, "flags");
                return new Request.Snapshot(id, partition, epoch, segment, revision, (flags & 1) != 0, (flags & 2) != 0,
                        readChanges(in, limits, id));
            }
            case PARTITION_STATE:
                return new Request.PartitionState(id, Wire.readInt(in, id, "partition"));
            case SEGMENT_DIGESTS:
                return new Request.SegmentDigests(id, Wire.readInt(in, id, "partition"));
            case TRACK_SEGMENT: {
                int segment = Wire.readInt(in, id, "segment");
                long sinceRevision = Wire.readLong(in, id, "since revision");
                long sinceEpoch = Wire.readLong(in, id, "since epoch");
                if (segment < 0 || sinceRevision < -1) {
                    throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "track-segment needs segment >= 0 and "
                            + "sinceRevision >= -1, got " + segment + " and " + sinceRevision);
                }
                return new Request.TrackSegment(id, segment, sinceRevision, sinceEpoch);
            }
            case HAND_OVER_FENCE: {
                int partition = Wire.readInt(in, id, "partition");
                long epoch = Wire.readLong(in, id, "epoch");
                if (epoch < 0) {
                    throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "hand-over-fence needs epoch >= 0, got "
                            + epoch);
                }
                return new Request.HandOverFence(id, partition, epoch);
            }
            case ADVANCE_EPOCH: {
                int partition = Wire.readInt(in, id, "partition");
                int segment = Wire.readInt(in, id, "segment");
                long fromEpoch = Wire.readLong(in, id, "from epoch");
                long toEpoch = Wire.readLong(in, id, "to epoch");
                long revision = Wire.readLong(in, id, "revision");
                if (fromEpoch < 0 || toEpoch < fromEpoch || revision < 0) {
                    throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "advance-epoch needs 0 <= fromEpoch "
                            + "<= toEpoch and revision >= 0, got " + fromEpoch + ", " + toEpoch + " and " + revision);
                }
                return new Request.AdvanceEpoch(id, partition, segment, fromEpoch, toEpoch, revision);
            }
            case PULL: {
                int partition = Wire.readInt(in, id, "partition");
                long epoch = Wire.readLong(in, id, "epoch");
                int segment = Wire.readInt(in, id, "segment");
                long fromRevision = Wire.readLong(in, id, "from revision");
                long lineageEpoch = Wire.readLong(in, id, "lineage epoch");
                int maxBytes = Wire.readInt(in, id, "max bytes");
                if (fromRevision < 0 || maxBytes < 1) {
                    throw new MalformedRequestException(id, KvStatus.BAD_REQUEST,
                            "pull needs fromRevision >= 0 and maxBytes >= 1, got " + fromRevision + " and " + maxBytes);
                }
                return new Request.Pull(id, partition, epoch, segment, fromRevision, lineageEpoch, maxBytes);
            }
            default:
                throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "no decoder for " + op);
        }
    }

    /** Also the body of a PULL answer (after the revision). */
    static void writeChanges(ByteBuf out, List<Change> changes) {
        out.writeInt(changes.size());
        for (int i = 0; i < changes.size(); i++) { // indexed: no iterator per replicated write (random-access lists)
            Change change = changes.get(i);
            out.writeLong(change.revision());
            out.writeLong(change.epoch());
            Wire.writeBytes(out, change.key());
            out.writeByte(kindCode(change.kind()));
            if (change.field() != null) {
                Wire.writeBytes(out, change.field());
            }
            if (change.hasValue()) {
                Wire.writeBytes(out, change.value());
            }
            out.writeLong(change.expiresAtMillis());
        }
    }

    private static int kindCode(Change.Kind kind) {
        return switch (kind) {
            case PUT -> CHANGE_VALUE;
            case REMOVAL -> CHANGE_REMOVED;
            case SUPERSEDED -> CHANGE_SUPERSEDED;
            case FIELD_PUT -> CHANGE_FIELD_VALUE;
            case FIELD_REMOVAL -> CHANGE_FIELD_REMOVED;
            case EXPIRY -> CHANGE_EXPIRY;
            case MEMBER_PUT -> CHANGE_MEMBER_ADDED;
            case LIST_INSERT -> CHANGE_LIST_INSERT;
            case LIST_REMOVE -> CHANGE_LIST_REMOVE;
            case LIST_SET -> CHANGE_LIST_SET;
            case SCORE_PUT -> CHANGE_SCORE_SET;
            case RENAME -> CHANGE_RENAMED;
        };
    }

    private static Request.Replicate readReplicateGroup(ByteBuf in, ProtocolLimits limits, long id, ValueArrays values)
            throws MalformedRequestException {
        int partition = Wire.readInt(in, id, "partition");
        long epoch = Wire.readLong(in, id, "epoch");
        int segment = Wire.readInt(in, id, "segment");
        return new Request.Replicate(id, partition, epoch, segment, readChanges(in, limits, id, values));
    }

    /**
     * Appends the body of a REPLICATE, which is also one group of a REPLICATE_BATCH: a replication link gathers
     * groups into an open batch frame as its changes happen (see {@link #reserveHeader} and {@link #fillHeader}).
     */
    public static void writeReplicateGroup(ByteBuf out, int partition, long epoch, int segment, List<Change> changes) {
        out.writeInt(partition);
        out.writeLong(epoch);
        out.writeInt(segment);
        writeChanges(out, changes);
    }

    /**
     * Bytes a frame's length prefix and request header take: a frame whose body is written before its request id
     * is known starts with this many reserved bytes ({@link #reserveHeader}), which {@link #fillHeader} fills in.
     */
    public static final int RESERVED_HEADER_BYTES = Frames.LENGTH_PREFIX_BYTES + HEADER_BYTES;

    /** Reserves the length prefix and header of a frame at the start of an empty buffer; the body follows. */
    public static void reserveHeader(ByteBuf frame) {
        if (frame.writerIndex() != 0) {
            throw new IllegalArgumentException("a frame's header is reserved in an empty buffer");
        }
        frame.writeZero(RESERVED_HEADER_BYTES);
    }

    /**
     * Fills in the length prefix and the header reserved by {@link #reserveHeader}, for a request that is not routed
     * by key and has no deadline (as node-to-node requests are); the body is everything written after it.
     */
    public static void fillHeader(ByteBuf frame, OpCode op, long id) {
        frame.setInt(0, frame.writerIndex() - Frames.LENGTH_PREFIX_BYTES);
        frame.setByte(Frames.LENGTH_PREFIX_BYTES, op.code());
        frame.setLong(Frames.LENGTH_PREFIX_BYTES + 1, id);
        frame.setLong(Frames.LENGTH_PREFIX_BYTES + 9, 0);
        frame.setInt(Frames.LENGTH_PREFIX_BYTES + 17, 0);
    }

    static List<Change> readChanges(ByteBuf in, ProtocolLimits limits, long id) throws MalformedRequestException {
        return readChanges(in, limits, id, ValueArrays.FRESH);
    }

    private static List<Change> readChanges(ByteBuf in, ProtocolLimits limits, long id, ValueArrays values)
            throws MalformedRequestException {
        // Each change takes at least 29 bytes, which bounds the count by the frame before allocating.
        int count = Wire.readCount(in, in.readableBytes() / 29, id, "change count");
        List<Change> changes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long revision = Wire.readLong(in, id, "revision");
            long epoch = Wire.readLong(in, id, "epoch");
            byte[] key = readKey(in, limits, id);
            int kind = Wire.readUnsignedByte(in, id, "change kind");
            boolean listChange = kind >= CHANGE_LIST_INSERT && kind <= CHANGE_LIST_SET;
            if (kind > CHANGE_MEMBER_ADDED && !listChange && kind != CHANGE_SCORE_SET && kind != CHANGE_RENAMED) {
                throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "unknown change kind " + kind);
            }
            boolean fieldChange = kind == CHANGE_FIELD_VALUE || kind == CHANGE_FIELD_REMOVED || kind == CHANGE_MEMBER_ADDED
                    || listChange || kind == CHANGE_SCORE_SET || kind == CHANGE_RENAMED;
            byte[] field = fieldChange ? readKey(in, limits, id) : null;
            // Only a string's value may go into a reused array: the store copies it into its slabs. A hash keeps a
            // field's value and a list its element as the very array it is given, so theirs are arrays of their own.
            byte[] value = kind == CHANGE_VALUE ? Wire.readBytes(in, limits.maxValueBytes(), id, "value", values)
                    : kind == CHANGE_FIELD_VALUE || kind == CHANGE_LIST_INSERT || kind == CHANGE_LIST_SET
                    ? Wire.readBytes(in, limits.maxValueBytes(), id, "value") : null;
            if (kind == CHANGE_SCORE_SET) {
                value = Wire.readBytes(in, Double.BYTES, id, "score");
                if (value.length != Double.BYTES) {
                    throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "a score is " + Double.BYTES + " bytes");
                }
            }
            byte[] position = listChange ? readListPosition(field, kind == CHANGE_LIST_REMOVE ? 2 : 1, id) : null;
            long expiresAt = Wire.readLong(in, id, "expiry");
            changes.add(switch (kind) {
                case CHANGE_SUPERSEDED -> Change.superseded(revision, epoch, key);
                case CHANGE_FIELD_VALUE -> Change.fieldPut(revision, epoch, key, field, value, expiresAt);
                case CHANGE_FIELD_REMOVED -> Change.fieldRemoval(revision, epoch, key, field);
                case CHANGE_EXPIRY -> Change.expiry(revision, epoch, key, expiresAt);
                case CHANGE_MEMBER_ADDED -> Change.memberPut(revision, epoch, key, field, expiresAt);
                case CHANGE_LIST_INSERT -> new Change(revision, epoch, Change.Kind.LIST_INSERT, key, position, value, expiresAt);
                case CHANGE_LIST_REMOVE -> new Change(revision, epoch, Change.Kind.LIST_REMOVE, key, position, null, 0);
                case CHANGE_LIST_SET -> new Change(revision, epoch, Change.Kind.LIST_SET, key, position, value, expiresAt);
                case CHANGE_SCORE_SET -> Change.scorePut(revision, epoch, key, field, value, expiresAt);
                case CHANGE_RENAMED -> Change.rename(revision, epoch, key, field, expiresAt);
                default -> new Change(revision, epoch, key, value, expiresAt);
            });
        }
        return changes;
    }

    /**
     * A list change's position, which must hold {@code numbers} numbers: the field itself when it is written as
     * {@link ListPosition#of} writes it (a Zaris sender's always is), else that form of its numbers, as the change's
     * own factory would make it. No array of numbers and no second copy of the text per change.
     */
    private static byte[] readListPosition(byte[] field, int numbers, long id) throws MalformedRequestException {
        try {
            if (ListPosition.numbers(field) == numbers) {
                if (ListPosition.isCanonical(field)) {
                    return field;
                }
                return numbers == 1 ? ListPosition.of(ListPosition.first(field))
                        : ListPosition.of(ListPosition.first(field), ListPosition.second(field));
            }
        } catch (IllegalArgumentException e) {
            // answered below
        }
        throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "bad list position in a change");
    }

    private static void writeKeys(ByteBuf out, List<byte[]> keys) {
        out.writeInt(keys.size());
        for (byte[] key : keys) {
            Wire.writeBytes(out, key);
        }
    }

    /** The body of MULTI_PUT and MULTI_PUT_IF_ABSENT: entries then one TTL for all of them. */
    private static void writeEntries(ByteBuf out, List<byte[]> keys, List<byte[]> values, long ttlMillis) {
        out.writeInt(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            Wire.writeBytes(out, keys.get(i));
            Wire.writeBytes(out, values.get(i));
        }
        out.writeLong(ttlMillis);
    }

    private record Entries(List<byte[]> keys, List<byte[]> values, long ttlMillis) {
    }

    private static Entries readEntries(ByteBuf in, ProtocolLimits limits, long id) throws MalformedRequestException {
        int count = Wire.readCount(in, limits.maxBatchKeys(), id, "entry count");
        if (count == 0) {
            // Found by fuzzing: an empty batch has no segment to route by.
            throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "multi-key request without keys");
        }
        List<byte[]> keys = new ArrayList<>(Math.min(count, 1024));
        List<byte[]> values = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            keys.add(readKey(in, limits, id));
            values.add(Wire.readBytes(in, limits.maxValueBytes(), id, "value"));
        }
        long ttl = Wire.readLong(in, id, "ttl");
        if (ttl < 0) {
            throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "negative ttl " + ttl);
        }
        return new Entries(keys, values, ttl);
    }

    private static List<byte[]> readKeys(ByteBuf in, ProtocolLimits limits, long id) throws MalformedRequestException {
        int count = Wire.readCount(in, limits.maxBatchKeys(), id, "key count");
        if (count == 0) {
            throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "multi-key request without keys");
        }
        List<byte[]> keys = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            keys.add(readKey(in, limits, id));
        }
        return keys;
    }

    private static byte[] readKey(ByteBuf in, ProtocolLimits limits, long id) throws MalformedRequestException {
        return Wire.readBytes(in, limits.maxKeyBytes(), id, "key");
    }

    private static long readTtl(ByteBuf in, long id) throws MalformedRequestException {
        long ttl = Wire.readLong(in, id, "ttl");
        if (ttl <= 0) {
            throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "ttl must be positive, got " + ttl);
        }
        return ttl;
    }

    private static long readVersion(ByteBuf in, long id) throws MalformedRequestException {
        long version = Wire.readLong(in, id, "expected version");
        if (version < 0) {
            throw new MalformedRequestException(id, KvStatus.BAD_REQUEST, "negative expected version " + version);
        }
        return version;
    }
}
