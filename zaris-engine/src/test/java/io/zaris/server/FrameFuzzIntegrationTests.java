package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.cluster.ClusterSettings;
import io.zaris.cluster.MembershipConfig;
import io.zaris.model.KvStatus;
import io.zaris.placement.PartitionLayout;
import io.zaris.protocol.FrameFuzz;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.protocol.RequestCodec;
import io.zaris.protocol.ResponseCodec;
import io.zaris.security.AuthFailureLimiter;
import io.zaris.security.Credentials;
import io.zaris.security.LoginSession;
import io.zaris.security.SecurityOptions;
import io.zaris.security.UserDirectory;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random and mutated frames, and raw streams with corrupted length prefixes, mutated HELLOs and
 * streams cut short mid-frame, sent to a live node over real TCP. The node's own decoder is the
 * oracle: a frame it can answer must be answered with a known status (never an internal error) and leave
 * the connection usable; a frame it cannot trust must close that connection only. A well-behaved client
 * is served between rounds and after the run.
 *
 * <p>The fuzzing connections log in as an application user: node-to-node operations (which a mutation
 * produces easily, e.g. a REPLICATE with a high epoch that would fence a partition) are then refused with
 * {@code UNAUTHORIZED}, which is exactly the protection a deployment gets from a password.
 */
@Tag("in-process-cluster")
class FrameFuzzIntegrationTests {

    private static final ProtocolLimits LIMITS = new ProtocolLimits(4096, 64, 512, 16);
    private static final long SEED = 20_261_201L;
    private static final int FRAMES = 4_000;
    /** Raw streams with corrupted length prefixes, mutated HELLOs, and streams cut short mid-frame. */
    private static final int STREAMS = 1_500;
    private static final int HELLOS = 600;
    private static final int TRUNCATED = 300;
    /** Request id of the probe sent after each fuzzed frame; the fuzzer never produces ids this large. */
    private static final long PROBE_ID = Long.MAX_VALUE - 7;

    private static final String NODE_PASSWORD = "node-secret";
    private static final String APP_PASSWORD = "app-secret";

    private static ZarisNode node;
    private static ZarisClient client;

    @BeforeAll
    static void startNode() throws Exception {
        node = new ZarisNode(NodeConfig.builder("fuzzed")
                .port(0)
                .clusterSettings(new ClusterSettings(1, PartitionLayout.of(64, 8), 1))
                .membership(new MembershipConfig.InJvm("frame-fuzz-" + UUID.randomUUID()))
                .limits(LIMITS)
                // Fuzzed AUTH frames are failed logins from this test's address: a limiter strict enough to
                // throttle them would also lock out the test's own logins (see AuthenticationIntegrationTests).
                .security(new SecurityOptions(UserDirectory.of(NODE_PASSWORD, List.of("app read-write " + APP_PASSWORD)),
                        Credentials.password(NODE_PASSWORD),
                        new AuthFailureLimiter(Integer.MAX_VALUE, Duration.ofMillis(1), 16, System::nanoTime)))
                .build()).start();
        node.awaitReady(Duration.ofSeconds(30));
        client = ZarisClient.connect(ZarisClientOptions.builder().seeds(List.of(node.dataAddress()))
                .credentials(new Credentials("app", APP_PASSWORD)).environment(Map.of()).build());
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

    @Test
    void fuzzedFramesGetATypedAnswerOrCloseOnlyTheirConnection() throws IOException {
        FrameFuzz fuzz = new FrameFuzz(SEED);
        long closedBefore = node.stats().connectionsClosedForBadInput();
        int answered = 0;
        int closes = 0;
        RawConnection raw = openHandshaken();
        int failedLogins = 0;
        try {
            for (int i = 0; i < FRAMES; i++) {
                byte[] payload = fuzz.nextPayload();
                Request decoded = decodeOrNull(payload);
                // A fuzzed AUTH never carries a right password; the third failure closes the connection.
                boolean lastLogin = decoded instanceof Request.Auth && ++failedLogins == LoginSession.MAX_FAILURES_PER_CONNECTION;
                boolean trustworthy = payload.length <= LIMITS.maxFrameBytes() && isAnswerable(payload) && !lastLogin;
                raw.sendBytes(framed(payload));
                raw.send(new Request.MapVersion(PROBE_ID));
                if (trustworthy) {
                    answered += readUntilProbe(raw, i);
                } else {
                    assertThat(raw.isClosedByPeer()).as("frame %d must close its connection", i).isTrue();
                    closes++;
                    failedLogins = 0;
                    raw.close();
                    raw = openHandshaken();
                }
                if (i % 500 == 0) {
                    wellBehavedClientIsServed(i);
                }
            }
        } finally {
            raw.close();
        }
        wellBehavedClientIsServed(FRAMES);
        assertThat(node.isRunning()).isTrue();
        assertThat(answered).isGreaterThan(FRAMES / 2);
        assertThat(closes).isPositive();
        assertThat(node.stats().connectionsClosedForBadInput() - closedBefore).isEqualTo(closes);
        assertThat(node.stats().unexpectedErrors()).isZero();
    }

    @Test
    void corruptedLengthPrefixesAreAnsweredFrameByFrameOrCloseOnlyTheirConnection() throws IOException {
        FrameFuzz fuzz = new FrameFuzz(SEED + 1);
        long closedBefore = node.stats().connectionsClosedForBadInput();
        int closes = 0;
        int survived = 0;
        RawConnection raw = openHandshaken();
        int failedLogins = 0;
        try {
            for (int i = 0; i < STREAMS; i++) {
                byte[] stream = fuzz.mutatedStream(LIMITS.maxFrameBytes());
                FrameStreamOracle.Prediction prediction = FrameStreamOracle.afterLogin(stream, LIMITS, failedLogins);
                // Zeros finish a frame the stream left open, so the probe starts a frame of its own.
                while (!prediction.closes() && prediction.missingBytes() > 0) {
                    stream = Arrays.copyOf(stream, stream.length + prediction.missingBytes());
                    prediction = FrameStreamOracle.afterLogin(stream, LIMITS, failedLogins);
                }
                raw.sendBytes(stream);
                if (prediction.closes()) {
                    assertThat(raw.isClosedByPeer()).as("stream %d must close its connection", i).isTrue();
                    closes++;
                    failedLogins = 0;
                    raw.close();
                    raw = openHandshaken();
                } else {
                    raw.send(new Request.MapVersion(PROBE_ID));
                    readUntilProbe(raw, i);
                    failedLogins = prediction.failedLogins();
                    survived++;
                }
                if (i % 250 == 0) {
                    wellBehavedClientIsServed(i);
                }
            }
        } finally {
            raw.close();
        }
        wellBehavedClientIsServed(STREAMS);
        assertThat(closes).isPositive();
        assertThat(survived).isPositive();
        assertThat(node.stats().connectionsClosedForBadInput() - closedBefore).isEqualTo(closes);
        assertThat(node.stats().unexpectedErrors()).isZero();
    }

    @Test
    void mutatedHellosAreRefusedByClosingOrOpenAUsableConnection() throws IOException {
        FrameFuzz fuzz = new FrameFuzz(SEED + 2);
        long closedBefore = node.stats().connectionsClosedForBadInput();
        int refused = 0;
        int accepted = 0;
        for (int i = 0; i < HELLOS; i++) {
            byte[] payload = fuzz.mutatedHelloPayload();
            try (RawConnection raw = new RawConnection(node.dataAddress())) {
                raw.sendBytes(framed(payload));
                if (FrameStreamOracle.acceptsHello(payload, LIMITS)) {
                    assertThat(raw.read().status()).as("HELLO %d", i).isEqualTo(KvStatus.OK);
                    assertThat(raw.login("app", APP_PASSWORD).status()).isEqualTo(KvStatus.OK);
                    raw.send(new Request.MapVersion(PROBE_ID));
                    readUntilProbe(raw, i);
                    accepted++;
                } else {
                    assertThat(raw.isClosedByPeer()).as("HELLO %d must close its connection", i).isTrue();
                    refused++;
                }
            }
            if (i % 250 == 0) {
                wellBehavedClientIsServed(i);
            }
        }
        wellBehavedClientIsServed(HELLOS);
        assertThat(accepted).isPositive();
        assertThat(refused).isPositive();
        assertThat(node.stats().connectionsClosedForBadInput() - closedBefore).isEqualTo(refused);
        assertThat(node.stats().unexpectedErrors()).isZero();
    }

    @Test
    void streamsCutShortMidFrameCostOnlyTheirConnection() throws IOException {
        FrameFuzz fuzz = new FrameFuzz(SEED + 3);
        long closedBefore = node.stats().connectionsClosedForBadInput();
        int closesForBadInput = 0;
        for (int i = 0; i < TRUNCATED; i++) {
            byte[] stream = fuzz.truncatedStream();
            try (RawConnection raw = openHandshaken()) {
                raw.sendBytes(stream);
                raw.shutdownOutput();
                // Answers to the complete frames, then the node closes its side; never an internal error.
                readUntilClosed(raw, i);
            }
            if (FrameStreamOracle.afterLogin(stream, LIMITS, 0).closes()) {
                closesForBadInput++;
            }
            if (i % 100 == 0) {
                wellBehavedClientIsServed(i);
            }
        }
        wellBehavedClientIsServed(TRUNCATED);
        assertThat(node.isRunning()).isTrue();
        assertThat(node.stats().connectionsClosedForBadInput() - closedBefore).isEqualTo(closesForBadInput);
        assertThat(node.stats().unexpectedErrors()).isZero();
    }

    /** Reads responses, each with a known status and no internal error, until the node closes the connection. */
    private static void readUntilClosed(RawConnection raw, int stream) throws IOException {
        while (true) {
            RawConnection.Response response;
            try {
                response = raw.read();
            } catch (EOFException | SocketException closed) {
                return;
            }
            assertThat(response.status()).as("stream %d: status must be known", stream).isNotNull();
            if (response.status() == KvStatus.BAD_REQUEST) {
                assertThat(ResponseCodec.readMessage(response.body())).as("stream %d", stream).doesNotContain("internal error");
            }
        }
    }

    /** Reads the answers of one fuzzed frame (zero if the node dropped it as expired) and the probe's. */
    private static int readUntilProbe(RawConnection raw, int frame) throws IOException {
        int answers = 0;
        while (true) {
            RawConnection.Response response = raw.read();
            assertThat(response.status()).as("frame %d: status must be known", frame).isNotNull();
            if (response.id() == PROBE_ID) {
                assertThat(response.status()).isEqualTo(KvStatus.OK);
                return answers;
            }
            if (response.status() == KvStatus.BAD_REQUEST) {
                assertThat(ResponseCodec.readMessage(response.body())).as("frame %d", frame)
                        .doesNotContain("internal error");
            }
            answers++;
        }
    }

    private static Request decodeOrNull(byte[] payload) {
        try {
            return payload.length <= LIMITS.maxFrameBytes() ? RequestCodec.decode(Unpooled.wrappedBuffer(payload), LIMITS).request() : null;
        } catch (MalformedRequestException e) {
            return null;
        }
    }

    private static boolean isAnswerable(byte[] payload) {
        try {
            RequestCodec.decode(Unpooled.wrappedBuffer(payload), LIMITS);
            return true;
        } catch (MalformedRequestException e) {
            return e.isAnswerable();
        }
    }

    private static RawConnection openHandshaken() throws IOException {
        RawConnection raw = new RawConnection(node.dataAddress());
        raw.handshake();
        assertThat(raw.login("app", APP_PASSWORD).status()).isEqualTo(KvStatus.OK);
        return raw;
    }

    private static void wellBehavedClientIsServed(int round) {
        String key = "fine-" + round;
        client.sync().put(key, "ok".getBytes(StandardCharsets.UTF_8));
        assertThat(client.sync().get(key)).isPresent();
    }

    private static byte[] framed(byte[] payload) {
        ByteBuf buf = Unpooled.buffer(payload.length + 4);
        buf.writeInt(payload.length);
        buf.writeBytes(payload);
        return RawConnection.toArray(buf);
    }
}
