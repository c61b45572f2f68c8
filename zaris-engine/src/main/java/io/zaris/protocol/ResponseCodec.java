package io.zaris.protocol;

import io.netty.buffer.ByteBuf;
import io.zaris.model.Change;
import io.zaris.model.KvStatus;
import io.zaris.model.ScoredMembers;
import io.zaris.model.SortedSetScores;
import io.zaris.model.VersionedValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Byte layout of response frames: {@code 0x80 · request id (8) · status (1) · body}. The body depends on
 * the request's operation and the status:
 *
 * <pre>
 * MOVED, OWNERSHIP_CHANGING, REPLICA_WRITE_REJECTED, UNAVAILABLE
 *                        message:string · hint:u8 · [RuntimeOwnershipChangedEvent if hint = 1]
 * any other status than OK / NOT_FOUND / CONFLICT   message:string
 * NOT_FOUND                                         (empty)
 * HELLO        OK        version:u8 · nodeId:string
 * GET          OK        value-entry
 * PUT, DELETE, TOUCH  OK version:int64 · ack;  CONFLICT current version:int64 (0 = absent)
 * INCREMENT    OK        value:int64 · version:int64 · ack
 * HASH_READ    OK        count:int64 · n:int32 · (present:u8 · [bytes])*n   (see HashOp)
 * HASH_WRITE   OK        count:int64 · n:int32 · (present:u8 · [bytes])*n · version:int64 (0 = nothing changed) · ack
 * MULTI_GET    OK        n:int32 · (found:u8 · [value-entry])*n
 * MULTI_PUT    OK        n:int32 · version:int64*n · ack
 * MULTI_PUT_IF_ABSENT  OK n:int32 · version:int64*n · ack;  CONFLICT (empty: a key existed, nothing was written)
 * MULTI_DELETE OK        deleted:int32 · ack
 * SCAN         OK        next cursor:int32 (-1 = done) · n:int32 · key*n
 * CLUSTER_MAP  OK        see ClusterViewCodec
 * MAP_VERSION  OK        see MapFingerprint
 * value-entry = version:int64 · ttl remaining ms:int64 (0 = none) · value
 * ack = epoch:int64 · replicated:u8   (the partition epoch of the acknowledgement; 1 when replicas applied
 *       the write before it was acknowledged (SYNC), 0 when only the active owner had (ASYNC))
 * </pre>
 *
 * <p>A key's version is its segment's revision at the write, so a write acknowledgement carries
 * (partition — from the key —, epoch, segment revision).
 *
 * Responses come from a node the client chose to trust, but a reader still checks lengths so that a
 * corrupt frame fails one request instead of the connection's decoder.
 */
public final class ResponseCodec {

    private ResponseCodec() {
    }

    public static void writeHeader(ByteBuf out, long requestId, KvStatus status) {
        out.writeByte(OpCode.RESPONSE_FRAME);
        out.writeLong(requestId);
        out.writeByte(status.code());
    }

    /** A complete error response: header plus a human-readable message. */
    public static void writeError(ByteBuf out, long requestId, KvStatus status, String message) {
        writeHeader(out, requestId, status);
        Wire.writeString(out, truncate(message));
    }

    /**
     * A wrong-node answer carrying the node's current runtime entry for the partition, so the client
     * can retarget at once ({@code hint} may be {@code null} when the node has none).
     */
    public static void writeRoutingError(ByteBuf out, long requestId, KvStatus status, String message,
                                         RuntimeOwnershipChangedEvent hint) {
        writeError(out, requestId, status, message);
        out.writeByte(hint == null ? 0 : 1);
        if (hint != null) {
            hint.encode(out);
        }
    }

    /** The trailer of an OK write response. */
    public static void writeAck(ByteBuf out, long epoch, boolean replicated) {
        out.writeLong(epoch);
        out.writeByte(replicated ? 1 : 0);
    }

    /**
     * Reads the trailer of an OK write response: the epoch, negated when the write was acknowledged
     * before any replica applied it (ASYNC); {@code 0} when the response has none.
     */
    public static long readAckEpoch(ByteBuf in) {
        if (in.readableBytes() < Long.BYTES + 1) {
            return 0;
        }
        long epoch = in.readLong();
        return in.readUnsignedByte() == 1 ? epoch : -epoch;
    }

    /** The routing hint after the message of a wrong-node answer, or {@code null}. */
    public static RuntimeOwnershipChangedEvent readRoutingHint(ByteBuf in) {
        try {
            if (!in.isReadable() || in.readUnsignedByte() == 0) {
                return null;
            }
            return RuntimeOwnershipChangedEvent.decode(in);
        } catch (MalformedRequestException e) {
            return null;
        }
    }

    public static void writeValue(ByteBuf out, VersionedValue value) {
        out.writeLong(value.version());
        out.writeLong(value.ttlRemainingMillis());
        Wire.writeBytes(out, value.value());
    }

    /** {@link #writeValue(ByteBuf, VersionedValue)} from {@code length} bytes of {@code source} at {@code offset}. */
    public static void writeValue(ByteBuf out, byte[] source, int offset, int length, long version, long ttlRemainingMillis) {
        out.writeLong(version);
        out.writeLong(ttlRemainingMillis);
        out.writeInt(length);
        out.writeBytes(source, offset, length);
    }

    /**
     * The value of a {@link #writeValue} layout as a slice of {@code in} (shares its bytes, no copy), skipping the
     * version and the TTL; {@code in}'s reader index moves past it.
     */
    public static ByteBuf readValueSlice(ByteBuf in) throws MalformedRequestException {
        Wire.readLong(in, 0, "version");
        Wire.readLong(in, 0, "ttl");
        int length = Wire.readInt(in, 0, "value");
        if (length < 0 || in.readableBytes() < length) {
            throw new MalformedRequestException(0, KvStatus.BAD_REQUEST, "value of " + length + " bytes in a response with "
                    + in.readableBytes() + " left");
        }
        return in.readSlice(length);
    }

    public static VersionedValue readValue(ByteBuf in) throws MalformedRequestException {
        long version = Wire.readLong(in, 0, "version");
        long ttl = Wire.readLong(in, 0, "ttl");
        byte[] value = Wire.readBytes(in, Integer.MAX_VALUE, 0, "value");
        return new VersionedValue(value, version, ttl);
    }

    public static void writeOptionalValues(ByteBuf out, List<VersionedValue> values) {
        out.writeInt(values.size());
        for (VersionedValue value : values) {
            out.writeByte(value == null ? 0 : 1);
            if (value != null) {
                writeValue(out, value);
            }
        }
    }

    /** Values in request order; {@code null} where the key was absent. */
    public static List<VersionedValue> readOptionalValues(ByteBuf in) throws MalformedRequestException {
        int count = Wire.readCount(in, Integer.MAX_VALUE, 0, "value count");
        List<VersionedValue> values = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            values.add(Wire.readUnsignedByte(in, 0, "found flag") == 0 ? null : readValue(in));
        }
        return values;
    }

    /** The body of a hash answer before its acknowledgement: a count and optional items (see {@code HashOp}). */
    public static void writeHashAnswer(ByteBuf out, long count, List<byte[]> items) {
        out.writeLong(count);
        out.writeInt(items.size());
        if (items instanceof ScoredMembers scored) {
            writeScoredMembers(out, scored);
            return;
        }
        for (int i = 0; i < items.size(); i++) { // indexed: no iterator per collection command (random-access lists)
            byte[] item = items.get(i);
            out.writeByte(item == null ? 0 : 1);
            if (item != null) {
                Wire.writeBytes(out, item);
            }
        }
    }

    /** {@link #writeHashAnswer}'s items of a range: each member, then its score's text written without an array. */
    private static void writeScoredMembers(ByteBuf out, ScoredMembers scored) {
        for (int i = 0; i < scored.pairs(); i++) {
            out.writeByte(1);
            Wire.writeBytes(out, scored.member(i));
            out.writeByte(1);
            double score = scored.score(i);
            if (SortedSetScores.printsAsLong(score)) {
                writeDigits(out, (long) score);
            } else {
                Wire.writeBytes(out, SortedSetScores.formatBytes(score));
            }
        }
    }

    /** {@code value}'s decimal text as an item's length and bytes ({@code value} is never {@link Long#MIN_VALUE}). */
    private static void writeDigits(ByteBuf out, long value) {
        long magnitude = Math.abs(value);
        int length = value < 0 ? 2 : 1;
        for (long rest = magnitude / 10; rest > 0; rest /= 10) {
            length++;
        }
        out.writeInt(length);
        out.ensureWritable(length);
        int start = out.writerIndex();
        for (int i = start + length - 1; i >= start; i--) {
            out.setByte(i, (int) ('0' + magnitude % 10));
            magnitude /= 10;
        }
        if (value < 0) {
            out.setByte(start, '-');
        }
        out.writerIndex(start + length);
    }

    /** A hash answer's count and items; {@code null} items where a field was absent. The items are read-only. */
    public record HashAnswer(long count, List<byte[]> items) {
    }

    public static HashAnswer readHashAnswer(ByteBuf in) throws MalformedRequestException {
        long count = Wire.readLong(in, 0, "count");
        int n = Wire.readCount(in, in.readableBytes(), 0, "item count");
        if (n == 0) {
            // Most writes answer a count alone: no list for them (emptyList, unlike List.of, answers contains(null)).
            return new HashAnswer(count, Collections.emptyList());
        }
        List<byte[]> items = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            items.add(Wire.readUnsignedByte(in, 0, "present flag") == 0 ? null
                    : Wire.readBytes(in, Integer.MAX_VALUE, 0, "item"));
        }
        return new HashAnswer(count, items);
    }

    /** A hash answer's count of items, read past its count; {@link #readPresentItems} reads the items after it. */
    public static int readItemCount(ByteBuf in) throws MalformedRequestException {
        Wire.readLong(in, 0, "count");
        return Wire.readCount(in, in.readableBytes(), 0, "item count");
    }

    /**
     * A hash answer's {@code n} items, none absent, as one slice of {@code in} holding them as written (each a present
     * flag, a length and its bytes), checked item by item, for a reply that writes them out itself (ZRANGE's members
     * and scores) instead of copying each into an array.
     */
    public static ByteBuf readPresentItems(ByteBuf in, int n) throws MalformedRequestException {
        int start = in.readerIndex();
        int at = start;
        int end = in.writerIndex();
        for (int i = 0; i < n; i++) {
            if (end - at < 1 + Integer.BYTES || in.getUnsignedByte(at) != 1) {
                throw new MalformedRequestException(0, KvStatus.BAD_REQUEST, "item " + i + " of " + n + " absent or cut off");
            }
            int length = in.getInt(at + 1);
            at += 1 + Integer.BYTES;
            if (length < 0 || end - at < length) {
                throw new MalformedRequestException(0, KvStatus.BAD_REQUEST, "item of " + length + " bytes in a response with "
                        + (end - at) + " left");
            }
            at += length;
        }
        return in.readSlice(at - start);
    }

    /**
     * A hash answer's first item as a slice of {@code in}, without copying it (HGET, LINDEX, LPOP: one value, as a
     * GET's is read by {@link #readValueSlice}); {@code null} when the answer has no item or its first is absent.
     */
    public static ByteBuf readFirstItemSlice(ByteBuf in) throws MalformedRequestException {
        Wire.readLong(in, 0, "count");
        int n = Wire.readCount(in, in.readableBytes(), 0, "item count");
        if (n == 0 || Wire.readUnsignedByte(in, 0, "present flag") == 0) {
            return null;
        }
        int length = Wire.readInt(in, 0, "item");
        if (length < 0 || in.readableBytes() < length) {
            throw new MalformedRequestException(0, KvStatus.BAD_REQUEST, "item of " + length + " bytes in a response with "
                    + in.readableBytes() + " left");
        }
        return in.readSlice(length);
    }

    public static void writeLongs(ByteBuf out, long[] values) {
        out.writeInt(values.length);
        for (long value : values) {
            out.writeLong(value);
        }
    }

    public static long[] readLongs(ByteBuf in) throws MalformedRequestException {
        int count = Wire.readCount(in, in.readableBytes() / Long.BYTES, 0, "version count");
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            values[i] = in.readLong();
        }
        return values;
    }

    public static void writeScanPage(ByteBuf out, int nextCursor, List<byte[]> keys) {
        out.writeInt(nextCursor);
        out.writeInt(keys.size());
        for (byte[] key : keys) {
            Wire.writeBytes(out, key);
        }
    }

    public static ScanPage readScanPage(ByteBuf in) throws MalformedRequestException {
        int next = Wire.readInt(in, 0, "next cursor");
        int count = Wire.readCount(in, Integer.MAX_VALUE, 0, "key count");
        List<byte[]> keys = new ArrayList<>(Math.min(count, 4096));
        for (int i = 0; i < count; i++) {
            keys.add(Wire.readBytes(in, Integer.MAX_VALUE, 0, "key"));
        }
        return new ScanPage(next, keys);
    }

    /** The body of an OK answer to PULL: the answering node's segment revision, then the changes it sends. */
    public static void writeChangeTail(ByteBuf out, long revision, List<Change> changes) {
        out.writeLong(revision);
        RequestCodec.writeChanges(out, changes);
    }

    public static long readTailRevision(ByteBuf in) throws MalformedRequestException {
        return Wire.readLong(in, 0, "revision");
    }

    /** The changes of a PULL answer, after {@link #readTailRevision}. */
    public static List<Change> readChangeTail(ByteBuf in, ProtocolLimits limits) throws MalformedRequestException {
        return RequestCodec.readChanges(in, limits, 0);
    }

    public static String readMessage(ByteBuf in) {
        try {
            return in.isReadable() ? Wire.readString(in, 0, "message") : "";
        } catch (MalformedRequestException e) {
            return "(unreadable message)";
        }
    }

    private static String truncate(String message) {
        String text = message == null ? "" : message;
        return text.length() > 1024 ? text.substring(0, 1024) + "…" : text;
    }

    /** One page of a node's SCAN: the keys and where to continue ({@code -1} when the node is done). */
    public record ScanPage(int nextCursor, List<byte[]> keys) {
        public boolean isLast() {
            return nextCursor < 0;
        }
    }
}
