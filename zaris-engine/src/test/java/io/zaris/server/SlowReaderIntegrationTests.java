package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.Frames;
import io.zaris.protocol.Request;
import io.zaris.protocol.RequestCodec;
import io.zaris.resp.RespOptions;
import io.zaris.security.OutboundLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A client that keeps sending requests for a large value but never reads a reply, on the data port and on
 * the RESP port. The replies it asks for add up to hundreds of megabytes; the node must hold no more than
 * about its high water mark plus one reply for it, stop reading its requests, and close it after the
 * unwritable bound, while a well-behaved client keeps being served.
 */
@Tag("in-process-cluster")
class SlowReaderIntegrationTests {

    private static final int VALUE_BYTES = 256 * 1024;
    private static final int REQUESTS = 2_000; // 2,000 x 256 KiB = 500 MiB of replies asked for
    private static final OutboundLimits LIMITS = new OutboundLimits(64 * 1024, 512 * 1024, Duration.ofSeconds(2));
    /** High water mark, one reply that crossed it, and slack for replies already in flight. */
    private static final long BOUND = LIMITS.highWaterMarkBytes() + 4L * VALUE_BYTES;
    private static final String KEY = "big";

    private static ZarisNode node;
    private static ZarisClient client;

    @BeforeAll
    static void start() throws Exception {
        node = new ZarisNode(NodeConfig.builder("slow-reader")
                .port(0)
                .clusterSettings(new ClusterSettings(1, PartitionLayout.of(64, 8), 1))
                .membership(new MembershipConfig.InJvm("slow-reader-" + UUID.randomUUID()))
                .resp(RespOptions.builder().port(0).peerPorts((id, address) -> -1).build())
                .outboundLimits(LIMITS)
                .build()).start();
        node.awaitReady(Duration.ofSeconds(30));
        client = ZarisClient.connect(ZarisClientOptions.builder().seeds(List.of(node.dataAddress())).environment(Map.of()).build());
        client.sync().put(KEY, new byte[VALUE_BYTES]);
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @Test
    void dataPortClientThatNeverReadsIsBoundedThenDisconnected() throws Exception {
        ByteBuf requests = Unpooled.buffer();
        int start = Frames.begin(requests);
        RequestCodec.encode(new Request.Hello(1, RequestCodec.MAGIC, RequestCodec.PROTOCOL_VERSION, "never-reads"), requests);
        Frames.finish(requests, start);
        for (int i = 0; i < REQUESTS; i++) {
            start = Frames.begin(requests);
            RequestCodec.encode(new Request.Get(10 + i, KEY.getBytes(StandardCharsets.UTF_8)), requests);
            Frames.finish(requests, start);
        }
        assertSlowReaderIsBoundedAndClosed(node.dataAddress(), RawConnection.toArray(requests));
    }

    @Test
    void respClientThatNeverReadsIsBoundedThenDisconnected() throws Exception {
        byte[] get = ("*2\r\n$3\r\nGET\r\n$3\r\n" + KEY + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] requests = new byte[get.length * REQUESTS];
        for (int i = 0; i < REQUESTS; i++) {
            System.arraycopy(get, 0, requests, i * get.length, get.length);
        }
        assertSlowReaderIsBoundedAndClosed(node.respAddress(), requests);
    }

    /** Reads what the node had sent (the test's client finally reads) until end of stream or a reset. */
    private static boolean closedByPeer(Socket socket) throws IOException {
        socket.setSoTimeout(10_000);
        byte[] sink = new byte[64 * 1024];
        try {
            while (socket.getInputStream().read(sink) >= 0) {
                // discard
            }
            return true;
        } catch (java.net.SocketException reset) {
            return true;
        }
    }

    private static void assertSlowReaderIsBoundedAndClosed(NodeAddress address, byte[] requests) throws Exception {
        long closedBefore = node.stats().slowReadersClosed();
        AtomicLong maxPending = new AtomicLong();
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(8 * 1024);
            socket.connect(new InetSocketAddress(address.host(), address.port()), 5_000);
            OutputStream out = socket.getOutputStream();
            // Writes may block once the node stops reading; they end when the node closes the connection.
            CompletableFuture<Throwable> writer = CompletableFuture.supplyAsync(() -> {
                try {
                    out.write(requests);
                    out.flush();
                    return null;
                } catch (IOException e) {
                    return e;
                }
            });
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
                maxPending.accumulateAndGet(node.pendingOutboundBytes(), Math::max);
                assertThat(node.stats().slowReadersClosed()).isEqualTo(closedBefore + 1);
            });
            assertThat(maxPending.get()).as("bytes the node held for the slow reader").isPositive().isLessThan(BOUND);
            assertThat(closedByPeer(socket)).as("the never-reading client was disconnected").isTrue();
            await().atMost(Duration.ofSeconds(30)).until(writer::isDone);
        }
        assertThat(node.pendingOutboundBytes()).isLessThan(BOUND);
        assertThat(client.sync().get(KEY)).isPresent();
    }
}
