package io.zaris.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.Change;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.model.VersionedValue;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.Frames;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.MapFingerprint;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.protocol.RequestCodec;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.protocol.SegmentInvalidations;
import io.zaris.protocol.SegmentTrackAnswer;
import io.zaris.protocol.Wire;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A tiny Zaris node for client tests: a loopback TCP server that speaks the wire protocol. It answers HELLO
 * with its node id, CLUSTER_MAP and MAP_VERSION from the view the test gave it, and every data request with
 * the next scripted {@link Answer} (the fallback once the script is used up), recording what it received.
 *
 * <p>Threads: one accepts connections, one per connection reads and answers in order. Writes to a connection
 * are serialised on its output stream, since a held map answer or a push is written from another thread.
 * The view, the script, the gate and the records are safe to use from the test thread.
 */
final class StubNode implements AutoCloseable {

    /** One data request as the node received it. */
    record Received(Request request, long routedEpoch, int deadlineMillis, long arrivedNanos) {
    }

    /** The protocol version HELLO is answered with. */
    private volatile int speaks = RequestCodec.PROTOCOL_VERSION;

    /** Writes the response payload to a data request; {@code false} leaves the request unanswered. */
    @FunctionalInterface
    interface Answer {
        boolean write(Request request, ByteBuf out);

        /** This answer, after running {@code sideEffect} (e.g. moving a fake clock, pushing an event). */
        default Answer after(Runnable sideEffect) {
            return (request, out) -> {
                sideEffect.run();
                return write(request, out);
            };
        }
    }

    private final String nodeId;
    private final ServerSocket server;
    private final ExecutorService threads;
    private final List<OutputStream> outputs = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Queue<Answer> script = new ConcurrentLinkedQueue<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger mapRequests = new AtomicInteger();
    /** Set by {@link #freeze}: frames are still read (the kernel would buffer them) but nothing is answered. */
    private volatile boolean frozen;
    private final AtomicInteger mapVersionRequests = new AtomicInteger();
    private volatile Answer fallback = status(KvStatus.UNAVAILABLE);
    private volatile ClusterView view;
    /** CLUSTER_MAP answers wait for this future; the test completes it to release them. */
    private volatile CompletableFuture<Void> mapGate = CompletableFuture.completedFuture(null);
    /** Runs when a CLUSTER_MAP request arrives, before it is answered. */
    private volatile Runnable onMapRequest = () -> { };

    private StubNode(String nodeId) throws IOException {
        this.nodeId = nodeId;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.threads = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "stub-node-" + nodeId);
            thread.setDaemon(true);
            return thread;
        });
        threads.execute(this::acceptLoop);
    }

    static StubNode start(String nodeId) throws IOException {
        return new StubNode(nodeId);
    }

    /**
     * A view of the given nodes: every node owns every partition (version 1), and each partition's runtime
     * entry is {@code runtimeOf.apply(partition)}.
     */
    static ClusterView view(PartitionLayout layout, Map<String, NodeAddress> addresses, IntFunction<PartitionRuntime> runtimeOf) {
        List<String> everyNode = List.copyOf(new TreeSet<>(addresses.keySet()));
        List<List<String>> owners = new ArrayList<>();
        List<PartitionRuntime> runtimes = new ArrayList<>();
        for (int p = 0; p < layout.partitionCount(); p++) {
            owners.add(everyNode);
            runtimes.add(runtimeOf.apply(p));
        }
        return new ClusterView(layout, new PartitionMap(1, everyNode.size(), owners), new RuntimeMap(runtimes), addresses);
    }

    /** Answers later handshakes with {@code version} instead of the current protocol version, as an older node would. */
    void speaks(int version) {
        speaks = version;
    }

    String nodeId() {
        return nodeId;
    }

    NodeAddress address() {
        return new NodeAddress(server.getInetAddress().getHostAddress(), server.getLocalPort());
    }

    void serve(ClusterView newView) {
        view = newView;
    }

    /** Answers the next data requests with these, in order. */
    void script(Answer... answers) {
        script.addAll(List.of(answers));
    }

    /** How data requests are answered once the script is used up. */
    void fallback(Answer answer) {
        fallback = answer;
    }

    void holdMapAnswersUntil(CompletableFuture<Void> gate) {
        mapGate = gate;
    }

    void onMapRequest(Runnable action) {
        onMapRequest = action;
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    /** From now on the node answers nothing, as a hung node or a path that drops every packet. */
    void freeze() {
        frozen = true;
    }

    /**
     * Closes every connection accepted so far, as a node whose connections reset; new ones are still accepted (and,
     * once {@link #freeze frozen}, never answered).
     */
    void dropConnections() {
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }

    /** Connections accepted so far: each is one connection the client started. */
    int connectionsAccepted() {
        return sockets.size();
    }

    int mapRequests() {
        return mapRequests.get();
    }

    int mapVersionRequests() {
        return mapVersionRequests.get();
    }

    /** Pushes an ownership change to every connected client, as a node does. */
    void push(RuntimeOwnershipChangedEvent event) {
        ByteBuf frame = Unpooled.buffer();
        int start = Frames.begin(frame);
        frame.writeByte(OpCode.PUSH_FRAME);
        frame.writeByte(RuntimeOwnershipChangedEvent.PUSH_KIND);
        event.encode(frame);
        Frames.finish(frame, start);
        byte[] bytes = toArray(frame);
        for (OutputStream out : outputs) {
            send(out, bytes);
        }
    }

    /** Pushes changes of {@code segment} to every connected client, as an active owner does when it applies them. */
    void pushChanges(int segment, List<Change> changes) {
        ByteBuf frame = Unpooled.buffer();
        int start = Frames.begin(frame);
        frame.writeByte(OpCode.PUSH_FRAME);
        frame.writeByte(SegmentInvalidations.PUSH_KIND);
        SegmentInvalidations.encode(frame, segment, changes);
        Frames.finish(frame, start);
        byte[] bytes = toArray(frame);
        for (OutputStream out : outputs) {
            send(out, bytes);
        }
    }

    // ------------------------------------------------------------------ scripted answers

    /** OK of a TRACK_SEGMENT: where the segment's stream starts. */
    static Answer tracked(SegmentTrackAnswer answer) {
        return (request, out) -> {
            ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            answer.encode(out);
            return true;
        };
    }

    /** A status without a routing hint; retryable statuses carry the (empty) hint field as nodes write it. */
    static Answer status(KvStatus status) {
        return (request, out) -> {
            if (status.isRetryable()) {
                ResponseCodec.writeRoutingError(out, request.id(), status, "scripted " + status, null);
            } else {
                ResponseCodec.writeError(out, request.id(), status, "scripted " + status);
            }
            return true;
        };
    }

    /** A wrong-node status with the partition's current runtime entry. */
    static Answer routing(KvStatus status, RuntimeOwnershipChangedEvent hint) {
        return (request, out) -> {
            ResponseCodec.writeRoutingError(out, request.id(), status, "scripted " + status, hint);
            return true;
        };
    }

    /** CONFLICT of a conditional write: the key's current version. */
    static Answer conflict(long currentVersion) {
        return (request, out) -> {
            ResponseCodec.writeHeader(out, request.id(), KvStatus.CONFLICT);
            out.writeLong(currentVersion);
            return true;
        };
    }

    /** OK of a PUT, DELETE or TOUCH: the new version and a SYNC acknowledgement. */
    static Answer written(long version) {
        return (request, out) -> {
            ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            out.writeLong(version);
            ResponseCodec.writeAck(out, 1, true);
            return true;
        };
    }

    /** OK of a GET. */
    static Answer value(byte[] value, long version) {
        return (request, out) -> {
            ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
            ResponseCodec.writeValue(out, new VersionedValue(value, version, 0));
            return true;
        };
    }

    static Answer notFound() {
        return (request, out) -> {
            ResponseCodec.writeHeader(out, request.id(), KvStatus.NOT_FOUND);
            return true;
        };
    }

    /** No answer at all: the client's attempt times out. */
    static Answer silence() {
        return (request, out) -> false;
    }

    // ------------------------------------------------------------------ the server

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            sockets.add(socket);
            try {
                threads.execute(() -> connection(socket));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                closeQuietly(socket); // the stub is closing
                return;
            }
        }
    }

    private void connection(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            OutputStream out = socket.getOutputStream();
            outputs.add(out);
            while (true) {
                byte[] payload = new byte[in.readInt()];
                in.readFully(payload);
                long arrived = System.nanoTime();
                answer(out, RequestCodec.decode(Unpooled.wrappedBuffer(payload), ProtocolLimits.defaults()), arrived);
            }
        } catch (IOException | MalformedRequestException e) {
            // the client closed the connection, or the stub was closed
        }
    }

    private void answer(OutputStream out, RequestCodec.Envelope envelope, long arrivedNanos) {
        Request request = envelope.request();
        if (frozen) {
            return;
        }
        if (request instanceof Request.Hello) {
            send(out, frame(buf -> {
                ResponseCodec.writeHeader(buf, request.id(), KvStatus.OK);
                buf.writeByte(speaks);
                Wire.writeString(buf, nodeId);
            }));
        } else if (request instanceof Request.ClusterMap) {
            mapRequests.incrementAndGet();
            onMapRequest.run();
            mapGate.thenRun(() -> send(out, frame(buf -> {
                ResponseCodec.writeHeader(buf, request.id(), KvStatus.OK);
                ClusterViewCodec.encode(view, buf);
            })));
        } else if (request instanceof Request.MapVersion) {
            mapVersionRequests.incrementAndGet();
            send(out, frame(buf -> {
                ResponseCodec.writeHeader(buf, request.id(), KvStatus.OK);
                MapFingerprint.of(view).encode(buf);
            }));
        } else {
            received.add(new Received(request, envelope.routedEpoch(), envelope.deadlineMillis(), arrivedNanos));
            Answer scripted = script.poll();
            Answer answer = scripted != null ? scripted : fallback;
            ByteBuf buf = Unpooled.buffer();
            int start = Frames.begin(buf);
            if (answer.write(request, buf)) {
                Frames.finish(buf, start);
                send(out, toArray(buf));
            }
        }
    }

    private static byte[] frame(java.util.function.Consumer<ByteBuf> payload) {
        ByteBuf buf = Unpooled.buffer();
        int start = Frames.begin(buf);
        payload.accept(buf);
        Frames.finish(buf, start);
        return toArray(buf);
    }

    private static void send(OutputStream out, byte[] bytes) {
        synchronized (out) {
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                // the connection is gone; the client notices on its side
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to do with it
        }
    }

    private static byte[] toArray(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    @Override
    public void close() throws IOException {
        mapGate.complete(null);
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
        threads.shutdownNow();
    }
}
