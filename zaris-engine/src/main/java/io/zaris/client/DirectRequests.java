package io.zaris.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.AckMode;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.VersionedValue;
import io.zaris.protocol.Frames;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.ProtocolVersions;
import io.zaris.protocol.Request;
import io.zaris.protocol.RequestCodec;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.TakeoverRevisions;
import io.zaris.protocol.Wire;
import io.zaris.security.Credentials;
import io.zaris.time.TimeSource;
import io.zaris.transport.ZarisStatusException;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Blocking single-key requests over plain sockets, for a caller that blocks on the answer anyway
 * ({@link BlockingZarisClient#get}, {@code put} and {@code delete}, and so a Spring cache hit, fill and evict). The
 * pipelined connection costs such a caller two thread hand-offs per request: its request is written by the
 * connection's event loop, and the answer is read there and handed back. Here the calling thread writes the
 * request and reads the answer itself.
 *
 * <p>Only the happy path runs here, and only for requests that may safely run twice: a GET, an unconditional
 * PUT or DELETE, answered {@code OK} (or {@code NOT_FOUND}). A status retrying cannot help (a refusal for
 * memory, a request error: what {@link RetryPolicy} hands the caller untouched) is thrown as the ordinary path
 * would, not asked again. Anything else (no idle connection and the per-node limit reached, a connect or I/O
 * failure, a timeout, a wrong-owner or transient status) returns {@code null} and the caller takes the ordinary
 * path, which owns retries, routing hints and map refreshes. Running the request again there is what the
 * ordinary path's own retry would do: a GET changes nothing, and the writes are the idempotent ones
 * {@link RetryPolicy} repeats after an indeterminate answer. While the answer is awaited, the calling thread
 * looks every {@value #WAIT_SLICE_MILLIS} ms whether the attempt was abandoned (its partition moved to another
 * owner: the owner hangs, and the ordinary path should ask the new one rather than wait out the attempt
 * timeout), exactly as the pipelined connection's sweep does. Values over
 * {@link #MAX_DIRECT_VALUE_BYTES} are not sent here (a connection's buffer keeps the size of its largest
 * request).
 *
 * <p>Concurrency: a connection is used by one thread at a time (taken from its node's idle deque, returned after
 * a complete answer, closed after anything else), so it never holds an unanswered request when it is idle, and
 * a late answer can never be read as another request's. At most {@code connectionsPerNode} exist per node.
 */
final class DirectRequests implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DirectRequests.class);
    /** After a failed connect, the node is not tried again for this long. */
    private static final long RETRY_CONNECT_AFTER_NANOS = Duration.ofSeconds(1).toNanos();
    /** Largest value a direct PUT carries; a larger one takes the pipelined connection. */
    static final int MAX_DIRECT_VALUE_BYTES = 64 * 1024;
    /** While no answer has begun to arrive, whether the attempt was abandoned is asked this often. */
    static final int WAIT_SLICE_MILLIS = 50;

    /** A write answered OK: the key's new revision and the signed acknowledgement epoch (see ResponseCodec). */
    record Acknowledged(long revision, long signedAckEpoch) {
    }

    private final int connectionsPerNode;
    private final String clientName;
    private final Credentials credentials;
    private final int connectTimeoutMillis;
    private final int maxFrameBytes;
    private final Consumer<TakeoverRevisions> onTakeover;
    /** Reconnect back-offs and attempt deadlines are measured on it; socket waits are the kernel's. */
    private final TimeSource time;
    private final Map<NodeAddress, Pool> pools = new ConcurrentHashMap<>();
    private volatile boolean closed;

    DirectRequests(int connectionsPerNode, String clientName, Credentials credentials, Duration connectTimeout,
                int maxFrameBytes, Consumer<TakeoverRevisions> onTakeover, TimeSource time) {
        this.connectionsPerNode = connectionsPerNode;
        this.clientName = clientName;
        this.credentials = credentials;
        this.connectTimeoutMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()));
        this.maxFrameBytes = maxFrameBytes;
        this.onTakeover = onTakeover;
        this.time = time;
    }

    /**
     * Reads {@code key} from {@code node}, routed under {@code routedEpoch}, waiting at most {@code timeoutMillis},
     * and no longer once {@code abandoned} says so ({@code null}: never abandoned).
     *
     * @return the answer, or {@code null} when the caller must take the ordinary path
     */
    Optional<VersionedValue> get(NodeAddress node, byte[] key, long routedEpoch, int timeoutMillis,
                                 BooleanSupplier abandoned) {
        return exchange(node, connection -> {
            ByteBuf answer = connection.send(new Request.Get(connection.nextId(), key), routedEpoch, timeoutMillis,
                    abandoned);
            KvStatus status = KvStatus.fromCode(answer.readUnsignedByte());
            if (status == KvStatus.OK) {
                return Optional.of(ResponseCodec.readValue(answer));
            }
            return status == KvStatus.NOT_FOUND ? Optional.empty() : throwIfFinal(status, answer);
        });
    }

    /**
     * Stores {@code value} under {@code key} unconditionally on {@code node} (waiting as {@link #get} does).
     *
     * @return the acknowledgement, or {@code null} when the caller must take the ordinary path
     */
    Acknowledged put(NodeAddress node, byte[] key, byte[] value, long ttlMillis, AckMode ack, long routedEpoch,
                     int timeoutMillis, BooleanSupplier abandoned) {
        if (value.length > MAX_DIRECT_VALUE_BYTES) {
            return null;
        }
        return exchange(node, connection -> acknowledged(connection.send(new Request.Put(connection.nextId(), key, value,
                ttlMillis, false, Request.ANY_VERSION, ack), routedEpoch, timeoutMillis, abandoned)));
    }

    /**
     * Deletes {@code key} unconditionally on {@code node} (waiting as {@link #get} does).
     *
     * @return the acknowledgement, {@link Optional#empty()} when the key did not exist, or {@code null} when the
     *         caller must take the ordinary path
     */
    Optional<Acknowledged> delete(NodeAddress node, byte[] key, AckMode ack, long routedEpoch, int timeoutMillis,
                                  BooleanSupplier abandoned) {
        return exchange(node, connection -> {
            ByteBuf answer = connection.send(new Request.Delete(connection.nextId(), key, Request.ANY_VERSION, ack),
                    routedEpoch, timeoutMillis, abandoned);
            if (answer.getUnsignedByte(answer.readerIndex()) == KvStatus.NOT_FOUND.code()) {
                return Optional.empty();
            }
            Acknowledged done = acknowledged(answer);
            return done == null ? null : Optional.of(done);
        });
    }

    /** OK: the revision and acknowledgement epoch that follow; a final status: thrown; any other: {@code null}. */
    private static Acknowledged acknowledged(ByteBuf answer) {
        KvStatus status = KvStatus.fromCode(answer.readUnsignedByte());
        if (status != KvStatus.OK) {
            return throwIfFinal(status, answer);
        }
        long revision = answer.readLong();
        return new Acknowledged(revision, ResponseCodec.readAckEpoch(answer));
    }

    /**
     * Throws a status the ordinary path would hand the caller at once (so the node is not asked twice: a
     * refusal for memory must be counted once); returns {@code null} for one it would retry.
     */
    private static <T> T throwIfFinal(KvStatus status, ByteBuf answer) {
        ZarisStatusException failure = ZarisStatusException.of(status, ResponseCodec.readMessage(answer), null);
        if (RetryPolicy.classify(failure, true) == RetryPolicy.FailureClass.FINAL) {
            throw failure;
        }
        return null;
    }

    /** One request's exchange on a connection; {@code null} means "take the ordinary path". */
    private interface Exchange<T> {
        T on(Connection connection) throws IOException, MalformedRequestException;
    }

    /**
     * Runs {@code exchange} on a borrowed connection to {@code node}. A connection goes back to the pool only
     * after a complete answer (a usable one, or a final status, which is rethrown); after anything else it is
     * closed, so it never carries a late answer into another request.
     */
    private <T> T exchange(NodeAddress node, Exchange<T> exchange) {
        if (closed) {
            return null;
        }
        Pool pool = pools.computeIfAbsent(node, Pool::new);
        Connection connection = pool.borrow();
        if (connection == null) {
            return null;
        }
        T answer = null;
        ZarisStatusException finalStatus = null;
        try {
            answer = exchange.on(connection);
        } catch (ZarisStatusException e) {
            finalStatus = e;
        } catch (AbandonedAttempt e) {
            log.debug("direct request to {} abandoned unanswered: {}", node, e.getMessage());
        } catch (IOException | MalformedRequestException | RuntimeException e) {
            log.debug("direct request to {} failed; taking the pipelined connection", node, e);
        }
        if ((answer == null && finalStatus == null) || closed) {
            pool.discard(connection);
        } else {
            pool.giveBack(connection);
        }
        if (finalStatus != null) {
            throw finalStatus;
        }
        return answer;
    }

    /** Connections open now, over all nodes. */
    int openConnections() {
        return pools.values().stream().mapToInt(pool -> pool.open.get()).sum();
    }

    @Override
    public void close() {
        closed = true;
        pools.values().forEach(Pool::closeIdle);
    }

    /** The connections to one node: idle ones in a deque, {@code open} counting idle and busy ones. */
    private final class Pool {
        private final NodeAddress node;
        private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
        private final AtomicInteger open = new AtomicInteger();
        private volatile long noConnectBefore;

        Pool(NodeAddress node) {
            this.node = node;
        }

        /** An idle connection, a new one while under the limit, else {@code null}. */
        Connection borrow() {
            Connection connection = idle.pollFirst();
            if (connection != null) {
                return connection;
            }
            if (time.nanoTime() - noConnectBefore < 0) {
                return null;
            }
            if (open.incrementAndGet() > connectionsPerNode) {
                open.decrementAndGet();
                return null;
            }
            try {
                return new Connection(node);
            } catch (IOException | MalformedRequestException | RuntimeException e) {
                open.decrementAndGet();
                noConnectBefore = time.nanoTime() + RETRY_CONNECT_AFTER_NANOS;
                log.debug("direct connection to {} failed; reads take the pipelined connection for a while", node, e);
                return null;
            }
        }

        void giveBack(Connection connection) {
            idle.offerFirst(connection); // the most recently used first: the others may go cold, not all of them
            if (closed) {
                closeIdle();
            }
        }

        void discard(Connection connection) {
            open.decrementAndGet();
            connection.close();
        }

        void closeIdle() {
            Connection connection;
            while ((connection = idle.pollFirst()) != null) {
                discard(connection);
            }
        }
    }

    /** One blocking socket, logged in; confined to the thread that borrowed it. */
    private final class Connection {
        private final Socket socket;
        private final DataInputStream in;
        private final OutputStream out;
        private final ByteBuf requestBuffer = Unpooled.buffer(256);
        private long nextId = 1;

        Connection(NodeAddress node) throws IOException, MalformedRequestException {
            socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(node.host(), node.port()), connectTimeoutMillis);
                socket.setSoTimeout(connectTimeoutMillis);
                in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 16 * 1024));
                out = socket.getOutputStream();
                handshake();
            } catch (IOException | MalformedRequestException | RuntimeException e) {
                close();
                throw e;
            }
        }

        private void handshake() throws IOException, MalformedRequestException {
            ByteBuf body = exchange(new Request.Hello(nextId++, RequestCodec.MAGIC, ProtocolVersions.spoken(),
                    clientName + ":direct"), 0, KvStatus.OK);
            if (body == null) {
                throw new IOException("handshake refused");
            }
            if (credentials != null
                    && exchange(new Request.Auth(nextId++, credentials.user(), credentials.passwordBytes()), 0, KvStatus.OK) == null) {
                throw new IOException("login refused");
            }
        }

        long nextId() {
            return nextId++;
        }

        /**
         * Sends a key-addressed request and returns its answer, positioned at the status byte; gives up (with
         * {@link AbandonedAttempt}) when {@code abandoned} says so before the answer began to arrive.
         */
        ByteBuf send(Request request, long routedEpoch, int timeoutMillis, BooleanSupplier abandoned)
                throws IOException, MalformedRequestException {
            long deadline = time.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            requestBuffer.clear();
            int start = Frames.begin(requestBuffer);
            RequestCodec.encode(request, routedEpoch, timeoutMillis, requestBuffer);
            Frames.finish(requestBuffer, start);
            out.write(requestBuffer.array(), requestBuffer.arrayOffset(), requestBuffer.readableBytes());
            awaitAnswer(deadline, abandoned);
            return readAnswer(request.id());
        }

        /**
         * Blocks until a byte of the answer is buffered, in slices of at most {@value #WAIT_SLICE_MILLIS} ms,
         * asking {@code abandoned} after each empty one; then leaves the rest of the attempt's time as the socket
         * timeout for reading the frames. Only whole-slice timeouts are caught, before any byte was consumed, so
         * the stream never loses a frame's beginning.
         */
        private void awaitAnswer(long deadline, BooleanSupplier abandoned) throws IOException {
            while (true) {
                long left = deadline - time.nanoTime();
                if (left <= 0) {
                    throw new SocketTimeoutException("no answer within the attempt timeout");
                }
                long leftMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(left));
                socket.setSoTimeout((int) Math.min(abandoned == null ? Integer.MAX_VALUE : WAIT_SLICE_MILLIS, leftMillis));
                in.mark(1);
                try {
                    if (in.read() < 0) {
                        throw new EOFException("the node closed the connection");
                    }
                    in.reset();
                    socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, leftMillis));
                    return;
                } catch (SocketTimeoutException slice) {
                    if (abandoned != null && abandoned.getAsBoolean()) {
                        throw new AbandonedAttempt();
                    }
                }
            }
        }

        /** Sends a request and reads its answer; {@code null} unless it has status {@code expected}. */
        private ByteBuf exchange(Request request, long routedEpoch, KvStatus expected)
                throws IOException, MalformedRequestException {
            requestBuffer.clear();
            int start = Frames.begin(requestBuffer);
            RequestCodec.encode(request, routedEpoch, 0, requestBuffer);
            Frames.finish(requestBuffer, start);
            out.write(requestBuffer.array(), requestBuffer.arrayOffset(), requestBuffer.readableBytes());
            ByteBuf answer = readAnswer(request.id());
            return KvStatus.fromCode(answer.readUnsignedByte()) == expected ? answer : null;
        }

        /**
         * Reads frames until the response to {@code id}, positioned at its status byte. A takeover push is acted
         * on here, before the answer behind it: the node sends it on every connection before it serves the
         * partition, and the lost writes it names must be reported before this thread can read what survived
         * (the pipelined connection may still be on its way with the same push). Ownership pushes are skipped:
         * the pipelined connection acts on them, and a stale route costs only a fallback.
         */
        private ByteBuf readAnswer(long id) throws IOException, MalformedRequestException {
            while (true) {
                int length = in.readInt();
                if (length < 1 || length > maxFrameBytes) {
                    throw new IOException("frame of " + length + " bytes from the node");
                }
                byte[] payload = new byte[length];
                in.readFully(payload);
                ByteBuf frame = Unpooled.wrappedBuffer(payload);
                int kind = frame.readUnsignedByte();
                if (kind == OpCode.PUSH_FRAME) {
                    if (frame.isReadable() && frame.readUnsignedByte() == TakeoverRevisions.PUSH_KIND) {
                        onTakeover.accept(TakeoverRevisions.decode(frame));
                    }
                    continue;
                }
                if (kind != OpCode.RESPONSE_FRAME || Wire.readLong(frame, 0, "request id") != id) {
                    throw new IOException("unexpected frame from the node");
                }
                return frame;
            }
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                log.trace("closing a direct connection", e);
            }
        }
    }

    /** The attempt's partition moved to another owner while its answer was awaited; the ordinary path takes over. */
    private static final class AbandonedAttempt extends IOException {
        AbandonedAttempt() {
            super("its partition moved to another owner meanwhile");
        }
    }
}
