package io.zaris.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.Wire;
import java.util.Map;
import java.util.TreeMap;

/**
 * Messages nodes exchange over the membership channel: {@code type:u8 · body}.
 * <ul>
 *   <li>{@code 1} NodeHello: nodeId:string · host:string · port:int32 · incarnation:string · mapVersion:int64 —
 *       a node's data address, the id of this process start and the version of the partition map it holds
 *       ({@code 0}: none yet), re-sent after every view change because messages across an exclusion are
 *       lost, and once more when the node adopts its first map.</li>
 *   <li>{@code 2} ClusterView: see {@link ClusterViewCodec} — the leader's full maps.</li>
 *   <li>{@code 3} Disown: nodeId:string · n:int32 · (partition:int32 · epoch:int64)*n — a restarted node
 *       names the partitions a view still gives it as active from before its restart; the leader fails
 *       them over to an owner that has their data.</li>
 *   <li>{@code 4} Beat: round:int64 — the leader's numbered beat; members answer {@code 5} BeatAck:
 *       round:int64, confirming the leader's lease once a majority did.</li>
 *   <li>{@code 6} LeaseRequest: sequence:int64 — a node asks the leader to confirm its lease; the leader,
 *       while its own lease holds, answers {@code 7} LeaseGrant: sequence:int64 · mapVersion:int64 (the map version
 *       it holds; a node that holds an older one takes no lease from it until it caught up).</li>
 *   <li>{@code 10} MajorityCheck: sequence:int64 — a node asks the leader to prove it still heads a majority;
 *       the leader beats at once and, when a majority answered a beat sent after the check arrived, answers
 *       {@code 11} MajorityConfirmed: sequence:int64.</li>
 *   <li>{@code 12} Goodbye (no body) — the sender leaves the membership on purpose, right now.</li>
 *   <li>{@code 13} Deserted: nodeId:string — the sender stopped following the coordinator {@code nodeId}, which
 *       confirmed none of its lease requests for a lease (repeated every quarter lease while that view lasts).</li>
 * </ul>
 */
final class ClusterMessages {

    static final int NODE_HELLO = 1;
    static final int CLUSTER_VIEW = 2;
    static final int DISOWN = 3;
    static final int BEAT = 4;
    static final int BEAT_ACK = 5;
    static final int LEASE_REQUEST = 6;
    static final int LEASE_GRANT = 7;
    /** A node asks to have its partitions moved away (repeated while it drains). */
    static final int DRAIN = 8;
    /** An operator asks the leader to plan the map over the present nodes now. */
    static final int REBALANCE = 9;
    /** A node asks the leader to prove it heads a majority after this question (see {@link MajorityChecks}). */
    static final int MAJORITY_CHECK = 10;
    /** The leader's answer: a beat it sent after check {@code number} arrived was answered by a majority. */
    static final int MAJORITY_CONFIRMED = 11;
    /**
     * A node leaves the membership on purpose, right before it closes its channel: the others install a view without
     * it even while it still coordinated theirs (see {@link CoordinatorLoyalty}). Nodes that predate it log it as
     * unreadable and wait for failure detection instead.
     */
    static final int GOODBYE = 12;
    /**
     * A node stopped following the coordinator of its view (see {@link DesertionReports}). Nodes that predate it log
     * it as unreadable and decide on their own.
     */
    static final int DESERTED = 13;

    private ClusterMessages() {
    }

    /** @param mapVersion version of the partition map the sender holds; {@code 0} when it holds none */
    record NodeHello(String nodeId, NodeAddress dataAddress, String incarnation, long mapVersion) {

        boolean holdsMap() {
            return mapVersion > 0;
        }
    }

    /** @param partitions partition → the epoch under which the view names the sender active */
    record Disown(String nodeId, Map<Integer, Long> partitions) {
    }

    /** A {@link #DRAIN} or {@link #REBALANCE} request from {@code nodeId}. */
    record PlanRequest(int type, String nodeId) {
    }

    /**
     * One of the lease messages (types 4–7, 10, 11): a type and a number (a beat round or a request sequence). A
     * LeaseGrant also carries the map version the leader held when it granted ({@code 0} from a node that predates it).
     */
    record LeaseMessage(int type, long number, long mapVersion) {

        LeaseMessage(int type, long number) {
            this(type, number, 0);
        }
    }

    /** The {@link #GOODBYE} a leaving node sends. */
    record Goodbye() {
    }

    /** The {@link #DESERTED} report of a node that stopped following the coordinator {@code coordinatorNodeId}. */
    record Deserted(String coordinatorNodeId) {
    }

    static byte[] encodeDeserted(String coordinatorNodeId) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(DESERTED);
        Wire.writeString(out, coordinatorNodeId);
        return toArray(out);
    }

    static byte[] encodeGoodbye() {
        return new byte[] {GOODBYE};
    }

    /** A LeaseGrant: the request's sequence and the map version the granting leader holds. */
    static byte[] encodeGrant(long sequence, long mapVersion) {
        ByteBuf out = Unpooled.buffer(17);
        out.writeByte(LEASE_GRANT);
        out.writeLong(sequence);
        out.writeLong(mapVersion);
        return toArray(out);
    }

    static byte[] encodeLease(int type, long number) {
        ByteBuf out = Unpooled.buffer(9);
        out.writeByte(type);
        out.writeLong(number);
        return toArray(out);
    }

    static byte[] encodeDisown(Disown disown) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(DISOWN);
        Wire.writeString(out, disown.nodeId());
        out.writeInt(disown.partitions().size());
        for (Map.Entry<Integer, Long> entry : disown.partitions().entrySet()) {
            out.writeInt(entry.getKey());
            out.writeLong(entry.getValue());
        }
        return toArray(out);
    }

    static byte[] encodePlanRequest(PlanRequest request) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(request.type());
        Wire.writeString(out, request.nodeId());
        return toArray(out);
    }

    static byte[] encodeHello(NodeHello hello) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(NODE_HELLO);
        Wire.writeString(out, hello.nodeId());
        Wire.writeString(out, hello.dataAddress().host());
        out.writeInt(hello.dataAddress().port());
        Wire.writeString(out, hello.incarnation());
        out.writeLong(hello.mapVersion());
        return toArray(out);
    }

    static byte[] encodeView(ClusterView view) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(CLUSTER_VIEW);
        ClusterViewCodec.encode(view, out);
        return toArray(out);
    }

    /**
     * A {@link NodeHello}, a {@link ClusterView}, a {@link Disown}, a {@link PlanRequest}, a {@link LeaseMessage}, a
     * {@link Goodbye} or a {@link Deserted}.
     */
    static Object decode(byte[] bytes) throws MalformedRequestException {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        int type = Wire.readUnsignedByte(in, 0, "message type");
        switch (type) {
            case NODE_HELLO: {
                String nodeId = Wire.readString(in, 0, "node id");
                String host = Wire.readString(in, 0, "host");
                NodeAddress address = new NodeAddress(host, Wire.readInt(in, 0, "port"));
                String incarnation = Wire.readString(in, 0, "incarnation");
                return new NodeHello(nodeId, address, incarnation, Wire.readLong(in, 0, "map version"));
            }
            case DISOWN: {
                String nodeId = Wire.readString(in, 0, "node id");
                int count = Wire.readCount(in, 1 << 20, 0, "partition count");
                Map<Integer, Long> partitions = new TreeMap<>();
                for (int i = 0; i < count; i++) {
                    partitions.put(Wire.readInt(in, 0, "partition"), Wire.readLong(in, 0, "epoch"));
                }
                return new Disown(nodeId, partitions);
            }
            case DRAIN, REBALANCE:
                return new PlanRequest(type, Wire.readString(in, 0, "node id"));
            case LEASE_GRANT: {
                long sequence = Wire.readLong(in, 0, "number");
                return new LeaseMessage(type, sequence, in.isReadable() ? Wire.readLong(in, 0, "map version") : 0);
            }
            case BEAT, BEAT_ACK, LEASE_REQUEST, MAJORITY_CHECK, MAJORITY_CONFIRMED:
                return new LeaseMessage(type, Wire.readLong(in, 0, "number"));
            case CLUSTER_VIEW:
                return ClusterViewCodec.decode(in);
            case GOODBYE:
                return new Goodbye();
            case DESERTED:
                return new Deserted(Wire.readString(in, 0, "coordinator node id"));
            default:
                throw new MalformedRequestException(0, io.zaris.model.KvStatus.BAD_REQUEST,
                        "unknown cluster message type " + type);
        }
    }

    private static byte[] toArray(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }
}
