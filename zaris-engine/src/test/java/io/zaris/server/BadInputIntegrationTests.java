package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.ProtocolVersions;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A node fed malformed, oversized and hostile input over real TCP answers with a typed status or closes
 * that one connection, and keeps serving a well-behaved client throughout.
 */
@Tag("in-process-cluster")
class BadInputIntegrationTests {

    private static final ProtocolLimits SMALL_LIMITS = new ProtocolLimits(4096, 16, 256, 8);

    private static ZarisNode node;
    private static ZarisClient client;

    @BeforeAll
    static void startNode() throws Exception {
        NodeConfig config = NodeConfig.builder("solo")
                .port(0)
                .clusterSettings(new ClusterSettings(1, PartitionLayout.of(64, 8), 1))
                .membership(new MembershipConfig.InJvm("bad-input-" + UUID.randomUUID()))
                .limits(SMALL_LIMITS)
                .build();
        node = new ZarisNode(config).start();
        node.awaitReady(Duration.ofSeconds(30));
        client = ZarisClient.connect(ZarisClientOptions.create(List.of(node.dataAddress())));
    }

    @AfterAll
    static void stopNode() {
        if (client != null) {
            client.close();
        }
        if (node != null) {
            node.close();
        }
    }

    @AfterEach
    void wellBehavedClientIsStillServed() {
        String key = "k" + System.nanoTime() % 1000;
        client.sync().put(key, "fine".getBytes(StandardCharsets.UTF_8));
        assertThat(client.sync().get(key)).isPresent();
    }

    @Test
    void frameLongerThanTheLimitClosesOnlyThatConnection() throws IOException {
        long closedBefore = node.stats().connectionsClosedForBadInput();
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.handshake();
            raw.sendBytes(new byte[] {0x7F, 0, 0, 0});
            assertThat(raw.isClosedByPeer()).isTrue();
        }
        assertThat(node.stats().connectionsClosedForBadInput()).isEqualTo(closedBefore + 1);
    }

    @Test
    void negativeFrameLengthClosesTheConnection() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.handshake();
            raw.sendBytes(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xF0});
            assertThat(raw.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void frameShorterThanARequestHeaderClosesTheConnection() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.handshake();
            raw.sendBytes(new byte[] {0, 0, 0, 3, 0x10, 0, 0});
            assertThat(raw.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void requestBeforeHandshakeClosesTheConnection() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.send(new Request.Get(1, "a".getBytes(StandardCharsets.UTF_8)));
            assertThat(raw.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void wrongMagicClosesTheConnection() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.send(new Request.Hello(1, 0x12345678, 1, "impostor"));
            assertThat(raw.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void protocolVersionOlderThanTheNodeSpeaksIsAnsweredThenClosed() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.send(new Request.Hello(1, io.zaris.protocol.RequestCodec.MAGIC, ProtocolVersions.OLDEST_SUPPORTED - 1, "ancient"));
            RawConnection.Response response = raw.read();
            assertThat(response.status()).isEqualTo(KvStatus.BAD_REQUEST);
            assertThat(ResponseCodec.readMessage(response.body()))
                    .contains("protocol version " + (ProtocolVersions.OLDEST_SUPPORTED - 1) + " is not supported");
            assertThat(raw.isClosedByPeer()).isTrue();
        }
    }

    @Test
    void newerProtocolVersionIsAnsweredWithTheVersionTheNodeSpeaks() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.send(new Request.Hello(1, io.zaris.protocol.RequestCodec.MAGIC, 99, "future"));
            RawConnection.Response response = raw.read();
            assertThat(response.status()).isEqualTo(KvStatus.OK);
            assertThat((int) response.body().readUnsignedByte()).isEqualTo(ProtocolVersions.CURRENT);
            raw.send(new Request.Get(2, "a".getBytes(StandardCharsets.UTF_8)));
            assertThat(raw.read().status()).isIn(KvStatus.OK, KvStatus.NOT_FOUND, KvStatus.MOVED);
        }
    }

    @Test
    void frameNewerThanTheNegotiatedVersionIsRefusedAndTheConnectionStaysUsable() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.send(new Request.Hello(1, io.zaris.protocol.RequestCodec.MAGIC, 3, "release-before"));
            RawConnection.Response hello = raw.read();
            assertThat(hello.status()).isEqualTo(KvStatus.OK);
            assertThat((int) hello.body().readUnsignedByte()).isEqualTo(3);
            raw.send(new Request.Hash(2, "a".getBytes(StandardCharsets.UTF_8), HashOp.HLEN, List.of()));
            RawConnection.Response refused = raw.read();
            assertThat(refused.status()).isEqualTo(KvStatus.BAD_REQUEST);
            assertThat(ResponseCodec.readMessage(refused.body()))
                    .contains("HASH_READ is not part of protocol version 3");
            raw.send(new Request.Get(3, "a".getBytes(StandardCharsets.UTF_8)));
            assertThat(raw.read().status()).isIn(KvStatus.OK, KvStatus.NOT_FOUND, KvStatus.MOVED);
        }
    }

    @Test
    void unknownOpCodeIsAnsweredWithBadRequestAndTheConnectionStaysUsable() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.handshake();
            raw.sendBytes(frame(buf -> {
                buf.writeByte(0x6E);
                buf.writeLong(42);
                buf.writeLong(0); // routed epoch
                buf.writeInt(0); // deadline
            }));
            RawConnection.Response response = raw.read();
            assertThat(response.id()).isEqualTo(42);
            assertThat(response.status()).isEqualTo(KvStatus.BAD_REQUEST);
            assertThat(ResponseCodec.readMessage(response.body())).contains("unknown op code 0x6e");

            raw.send(new Request.Get(43, "absent".getBytes(StandardCharsets.UTF_8)));
            assertThat(raw.read().status()).isEqualTo(KvStatus.NOT_FOUND);
        }
    }

    @Test
    void truncatedBodyIsAnsweredWithBadRequest() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.handshake();
            raw.sendBytes(frame(buf -> {
                buf.writeByte(0x10); // GET
                buf.writeLong(7);
                buf.writeLong(0);
                buf.writeInt(0);
                buf.writeInt(10); // claims a 10-byte key…
                buf.writeBytes(new byte[] {1, 2, 3}); // …but carries 3
            }));
            RawConnection.Response response = raw.read();
            assertThat(response.id()).isEqualTo(7);
            assertThat(response.status()).isEqualTo(KvStatus.BAD_REQUEST);
            assertThat(ResponseCodec.readMessage(response.body())).contains("truncated");
        }
    }

    @Test
    void oversizedKeyAndValueAreAnsweredWithTooLarge() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.handshake();
            raw.send(new Request.Get(2, new byte[17]));
            assertThat(raw.read().status()).isEqualTo(KvStatus.TOO_LARGE);
            raw.send(new Request.Put(3, "k".getBytes(StandardCharsets.UTF_8), new byte[257], 0, false, -1));
            RawConnection.Response response = raw.read();
            assertThat(response.status()).isEqualTo(KvStatus.TOO_LARGE);
            assertThat(ResponseCodec.readMessage(response.body())).contains("value of 257 bytes exceeds the limit of 256");
        }
        assertThat(client.sync().get("k")).isEmpty();
    }

    @Test
    void tooManyKeysInOneRequestIsAnsweredWithTooLarge() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.handshake();
            raw.sendBytes(frame(buf -> {
                buf.writeByte(0x20); // MULTI_GET
                buf.writeLong(9);
                buf.writeLong(0);
                buf.writeInt(0);
                buf.writeInt(1_000_000);
            }));
            assertThat(raw.read().status()).isEqualTo(KvStatus.TOO_LARGE);
        }
    }

    @Test
    void multiKeyRequestSpanningSegmentsIsRejected() throws IOException {
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.handshake();
            raw.send(new Request.MultiGet(5, List.of("foo".getBytes(StandardCharsets.UTF_8),
                    "bar".getBytes(StandardCharsets.UTF_8))));
            RawConnection.Response response = raw.read();
            assertThat(response.status()).isEqualTo(KvStatus.BAD_REQUEST);
            assertThat(ResponseCodec.readMessage(response.body())).contains("hash tag");
        }
    }

    /**
     * The collection ops that name further keys (a destination, more keys to pop from, the algebra's sources) are
     * refused when one of them lies in another segment, as a client that skips its own check could send them: run under
     * the first key's segment, they would store the other key where it does not belong.
     */
    @Test
    void collectionOpNamingAKeyOfAnotherSegmentIsRejected() throws IOException {
        byte[] foo = "foo".getBytes(StandardCharsets.UTF_8);
        byte[] bar = "bar".getBytes(StandardCharsets.UTF_8);
        client.setAdd("foo", "m").join();
        List<Request.Hash> spanning = List.of(
                new Request.Hash(6, foo, HashOp.SMOVE, List.of(bar, "m".getBytes(StandardCharsets.UTF_8))),
                new Request.Hash(7, foo, HashOp.LMPOP, List.of(bytes("LEFT"), bytes("1"), bar)),
                new Request.Hash(8, foo, HashOp.ZMPOP, List.of(bytes("0"), bytes("1"), bar)),
                new Request.Hash(9, foo, HashOp.ZCOMBINESTORE, List.of(bytes("UNION"), bytes("SUM"), bar, bytes("1"))),
                new Request.Hash(10, foo, HashOp.ZCOMBINE, List.of(bytes("UNION"), bytes("SUM"), foo, bytes("1"), bar,
                        bytes("1"))));
        try (RawConnection raw = new RawConnection(node.dataAddress())) {
            raw.handshake();
            for (Request.Hash request : spanning) {
                raw.send(request);
                RawConnection.Response response = raw.read();
                assertThat(response.status()).as(request.hashOp().name()).isEqualTo(KvStatus.BAD_REQUEST);
                assertThat(ResponseCodec.readMessage(response.body())).contains("share one segment");
            }
        }
        assertThat(client.setMembers("foo").join()).containsExactly("m");
        assertThat(client.setMembers("bar").join()).isEmpty();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void randomGarbageNeverTakesTheNodeDown() throws IOException {
        Random random = new Random(20261130L);
        for (int round = 0; round < 200; round++) {
            try (RawConnection raw = new RawConnection(node.dataAddress())) {
                if (round % 2 == 0) {
                    raw.handshake();
                }
                byte[] garbage = new byte[1 + random.nextInt(300)];
                random.nextBytes(garbage);
                raw.sendBytes(garbage);
            }
        }
        assertThat(node.isRunning()).isTrue();
    }

    private static byte[] frame(java.util.function.Consumer<ByteBuf> payload) {
        ByteBuf buf = Unpooled.buffer();
        buf.writeInt(0);
        payload.accept(buf);
        buf.setInt(0, buf.readableBytes() - 4);
        return RawConnection.toArray(buf);
    }
}
