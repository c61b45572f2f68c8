package io.zaris.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.Wire;

/**
 * Messages nodes exchange over the membership channel: {@code type:u8 · body}.
 * <ul>
 *   <li>{@code 1} NodeHello: nodeId:string · host:string · port:int32 — a node's data address, re-sent
 *       after every view change because messages across an exclusion are lost.</li>
 *   <li>{@code 2} ClusterView: see {@link ClusterViewCodec} — the leader's full maps.</li>
 * </ul>
 */
final class ClusterMessages {

    static final int NODE_HELLO = 1;
    static final int CLUSTER_VIEW = 2;

    private ClusterMessages() {
    }

    record NodeHello(String nodeId, NodeAddress dataAddress) {
    }

    static byte[] encodeHello(NodeHello hello) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(NODE_HELLO);
        Wire.writeString(out, hello.nodeId());
        Wire.writeString(out, hello.dataAddress().host());
        out.writeInt(hello.dataAddress().port());
        return toArray(out);
    }

    static byte[] encodeView(ClusterView view) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(CLUSTER_VIEW);
        ClusterViewCodec.encode(view, out);
        return toArray(out);
    }

    /** A {@link NodeHello} or a {@link ClusterView}. */
    static Object decode(byte[] bytes) throws MalformedRequestException {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        int type = Wire.readUnsignedByte(in, 0, "message type");
        switch (type) {
            case NODE_HELLO: {
                String nodeId = Wire.readString(in, 0, "node id");
                String host = Wire.readString(in, 0, "host");
                return new NodeHello(nodeId, new NodeAddress(host, Wire.readInt(in, 0, "port")));
            }
            case CLUSTER_VIEW:
                return ClusterViewCodec.decode(in);
            default:
                throw new MalformedRequestException(0, io.zaris.protocol.KvStatus.BAD_REQUEST,
                        "unknown cluster message type " + type);
        }
    }

    private static byte[] toArray(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }
}
