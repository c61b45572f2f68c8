package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.KvStatus;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.Frames;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.Request;
import io.zaris.protocol.RequestCodec;
import io.zaris.security.OutboundLimits;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A request whose deadline passes while it waits on the node is dropped unanswered. The client pipelines
 * many reads of a large value, then a read with a 1 ms deadline, then a read without one, in one write, and
 * does not read its replies for a while: the node turns the connection unwritable after a few replies and
 * parks the rest of that read's frames. When the client reads again the parked 1 ms request is long
 * overdue — its deadline counts from when it arrived, not from when the node got to it.
 */
@Tag("in-process-cluster")
class ExpiredRequestIntegrationTests {

    private static final int VALUE_BYTES = 256 * 1024;
    /** 40 × 256 KiB of replies: far more than the socket buffers of both ends can hold. */
    private static final int BIG_READS = 40;
    private static final OutboundLimits LIMITS = new OutboundLimits(64 * 1024, 512 * 1024, Duration.ofSeconds(60));
    private static final long TINY_DEADLINE_ID = 1_000;
    private static final long MARKER_ID = 1_001;

    private static ZarisNode node;

    @BeforeAll
    static void start() throws Exception {
        node = new ZarisNode(NodeConfig.builder("expiry")
                .port(0)
                .clusterSettings(new ClusterSettings(1, PartitionLayout.of(64, 8), 1))
                .membership(new MembershipConfig.InJvm("expiry-" + UUID.randomUUID()))
                .outboundLimits(LIMITS)
                .build()).start();
        node.awaitReady(Duration.ofSeconds(30));
        try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(List.of(node.dataAddress()))
                .environment(Map.of()).build())) {
            client.sync().put("big", new byte[VALUE_BYTES]);
            client.sync().put("small", new byte[] {1});
        }
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aRequestWhoseDeadlinePassedWhileParkedIsDroppedAndCounted() throws Exception {
        long expiredBefore = node.stats().expiredRequests();
        ByteBuf batch = Unpooled.buffer();
        frame(batch, new Request.Hello(1, RequestCodec.MAGIC, RequestCodec.PROTOCOL_VERSION, "paused-reader"), 0);
        for (int i = 0; i < BIG_READS; i++) {
            frame(batch, new Request.Get(10 + i, utf8("big")), 0);
        }
        frame(batch, new Request.Get(TINY_DEADLINE_ID, utf8("small")), 1);
        frame(batch, new Request.Get(MARKER_ID, utf8("small")), 0);
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(8 * 1024);
            socket.connect(new InetSocketAddress(node.dataAddress().host(), node.dataAddress().port()), 5_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(RawConnection.toArray(batch));
            socket.getOutputStream().flush();
            // The reader is paused: the node holds replies it cannot send and parks the remaining frames. The
            // poll delay is the pause itself — far longer than the 1 ms deadline.
            await().pollDelay(Duration.ofMillis(100)).atMost(Duration.ofSeconds(30))
                    .until(() -> node.pendingOutboundBytes() >= LIMITS.lowWaterMarkBytes());

            List<Long> answered = readUntilMarker(new DataInputStream(socket.getInputStream()));

            assertThat(answered).as("the overdue request got no answer").doesNotContain(TINY_DEADLINE_ID);
            assertThat(answered).hasSize(1 + BIG_READS + 1).contains(1L, 10L, 10L + BIG_READS - 1, MARKER_ID);
        }
        assertThat(node.stats().expiredRequests()).isEqualTo(expiredBefore + 1);
    }

    /** Reads replies in order until the marker's; responses on one connection keep request order. */
    private static List<Long> readUntilMarker(DataInputStream in) throws IOException {
        List<Long> ids = new ArrayList<>();
        while (true) {
            byte[] payload = new byte[in.readInt()];
            in.readFully(payload);
            ByteBuf reply = Unpooled.wrappedBuffer(payload);
            assertThat(reply.readUnsignedByte()).isEqualTo((short) OpCode.RESPONSE_FRAME);
            long id = reply.readLong();
            assertThat(KvStatus.fromCode(reply.readUnsignedByte())).as("status of request " + id).isEqualTo(KvStatus.OK);
            ids.add(id);
            if (id == MARKER_ID) {
                return ids;
            }
        }
    }

    private static void frame(ByteBuf out, Request request, int deadlineMillis) {
        int start = Frames.begin(out);
        RequestCodec.encode(request, 0, deadlineMillis, out);
        Frames.finish(out, start);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
