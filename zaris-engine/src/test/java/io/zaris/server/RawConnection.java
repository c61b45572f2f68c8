package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.Frames;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.Request;
import io.zaris.protocol.RequestCodec;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;

/** A blocking socket that speaks raw frames, to feed a node exactly the bytes a test wants. */
final class RawConnection implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    RawConnection(NodeAddress address) throws IOException {
        socket = new Socket(address.host(), address.port());
        socket.setSoTimeout(10_000);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
    }

    void send(Request request) throws IOException {
        ByteBuf buf = Unpooled.buffer();
        int start = Frames.begin(buf);
        RequestCodec.encode(request, buf);
        Frames.finish(buf, start);
        sendBytes(toArray(buf));
    }

    void sendBytes(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void handshake() throws IOException {
        send(new Request.Hello(1, RequestCodec.MAGIC, RequestCodec.PROTOCOL_VERSION, "raw-test"));
        Response response = read();
        if (response.status() != KvStatus.OK) {
            throw new IOException("handshake failed: " + response.status());
        }
    }

    /** Logs in; returns the node's answer. */
    Response login(String user, String password) throws IOException {
        send(new Request.Auth(2, user, password.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return read();
    }

    /** Reads one response frame. */
    Response read() throws IOException {
        int length = in.readInt();
        byte[] payload = new byte[length];
        in.readFully(payload);
        ByteBuf buf = Unpooled.wrappedBuffer(payload);
        if (buf.readUnsignedByte() != OpCode.RESPONSE_FRAME) {
            throw new IOException("not a response frame");
        }
        long id = buf.readLong();
        KvStatus status = KvStatus.fromCode(buf.readUnsignedByte());
        return new Response(id, status, buf);
    }

    /** Whether the node closed the connection (EOF or reset) within the socket timeout. */
    boolean isClosedByPeer() throws IOException {
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (EOFException | SocketException e) {
            return true;
        }
    }

    /** Half-closes: the node reads end-of-stream after the bytes sent so far. */
    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    static byte[] toArray(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    record Response(long id, KvStatus status, ByteBuf body) {
    }
}
