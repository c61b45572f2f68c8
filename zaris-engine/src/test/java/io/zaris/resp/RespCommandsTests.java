package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.replication.ReplicationException;
import io.zaris.security.LoginSession;
import io.zaris.security.SecurityOptions;
import io.zaris.time.FakeTime;
import io.zaris.time.TimeSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link RespCommands} against a scripted backend: each test decides what the engine answers, and checks the
 * Redis reply a client gets for it.
 */
@Tag("unit")
class RespCommandsTests {

    /** One partition of 16 segments: node a is active, b is its replica; RESP ports are data ports + 1000. */
    private static final ClusterView VIEW = new ClusterView(PartitionLayout.of(16, 1),
            new PartitionMap(4, 2, List.of(List.of("a", "b"))),
            new RuntimeMap(List.of(new PartitionRuntime("a", 1, PartitionHealth.HEALTHY))),
            Map.of("a", new NodeAddress("127.0.0.1", 7101), "b", new NodeAddress("127.0.0.1", 7102)));

    // ------------------------------------------------------------------ routing errors

    /** Integer arguments are read as Redis's string2ll reads them (found by the differential tests: PEXPIRE k 0000). */
    @Test
    void integerArgumentsAreReadAsRedisReadsThem() {
        assertThat(RespCommands.parseLong(bytes("0"))).isZero();
        assertThat(RespCommands.parseLong(bytes("-17"))).isEqualTo(-17L);
        assertThat(RespCommands.parseLong(bytes("9223372036854775807"))).isEqualTo(Long.MAX_VALUE);
        assertThat(RespCommands.parseLong(bytes("-9223372036854775808"))).isEqualTo(Long.MIN_VALUE);
        for (String refused : List.of("", "-", "+1", "01", "0000", "-0", "-01", " 1", "1 ", "1.0", "1e3",
                "9223372036854775808", "-9223372036854775809", "99999999999999999999")) {
            assertThat(RespCommands.parseLong(bytes(refused))).as("'%s'", refused).isNull();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Each refused attempt moves the fake clock by 3 s: the node gives up once 10 s have passed since the first. */
    @Test
    void ownershipChangingAndMigratingAskTheClientToTryAgainOnlyAfterTheWaitingBound() {
        assertThat(replyAfterRefusals(KvStatus.OWNERSHIP_CHANGING, "partition 0 is being handed over", Integer.MAX_VALUE,
                "GET", "k")).isEqualTo(RespReply.error("TRYAGAIN partition 0 is being handed over"));
        assertThat(replyAfterRefusals(KvStatus.MIGRATING, "segment 3 is moving", Integer.MAX_VALUE, "SET", "k", "v"))
                .isEqualTo(RespReply.error("TRYAGAIN segment 3 is moving"));
    }

    @Test
    void aCommandRefusedWhileItsPartitionChangesHandsGetsTheAnswerOfALaterAttempt() {
        assertThat(replyAfterRefusals(KvStatus.MIGRATING, "segment 3 is moving", 2, "SET", "k", "v")).isEqualTo(RespReply.OK);
    }

    /** A MOVED from the engine while this node's map still names itself the owner: its map lags, so it waits too. */
    @Test
    void aMovedWhileTheMapStillNamesThisNodeIsWaitedOut() {
        FakeTime time = new FakeTime();
        AtomicInteger attempts = new AtomicInteger();
        RespCommands commands = new RespCommands(new ScriptedBackend("a", request -> {
            ByteBuf out = Unpooled.buffer();
            if (attempts.incrementAndGet() == 1) {
                ResponseCodec.writeError(out, request.id(), KvStatus.MOVED, "served by a newer epoch");
            } else {
                ResponseCodec.writeHeader(out, request.id(), KvStatus.NOT_FOUND);
            }
            return CompletableFuture.completedFuture(out);
        }, time), RespOptions.builder().peerPorts(RespPeerPorts.offset(1000)).build(), () -> 1, () -> { });
        try {
            assertThat(commands.execute(args("GET", "k"), session()).join()).isEqualTo(RespReply.NULL);
            assertThat(attempts).hasValue(2);
        } finally {
            commands.close();
        }
    }

    @Test
    void noServingOwnerIsClusterDown() {
        assertThat(replyTo(KvStatus.UNAVAILABLE, "partition 0 has no serving owner", "GET", "k"))
                .isEqualTo(RespReply.error("CLUSTERDOWN partition 0 has no serving owner"));
    }

    @Test
    void anUnacknowledgedWriteIsNoReplicasWhetherAnsweredOrFailed() {
        assertThat(replyTo(KvStatus.UNACKNOWLEDGED, "1 of 1 replicas missing", "SET", "k", "v"))
                .isEqualTo(RespReply.error("NOREPLICAS 1 of 1 replicas missing"));
        RespCommands commands = commands("b", request -> CompletableFuture.failedFuture(new ReplicationException("replica b timed out")));
        assertThat(commands.execute(args("SET", "k", "v"), session()).join()).isEqualTo(RespReply.error(
                "NOREPLICAS write applied on the active owner but not acknowledged by enough replicas: replica b timed out"));
    }

    @Test
    void aWrongNodeOrAReplicaWriteIsMovedToTheActiveOwnersRespPort() {
        int slot = SegmentMapper.slot("k".getBytes(StandardCharsets.UTF_8));
        RespReply moved = RespReply.error("MOVED " + slot + " 127.0.0.1:8101");
        assertThat(replyTo(KvStatus.MOVED, "not an owner", "GET", "k")).isEqualTo(moved);
        assertThat(replyTo(KvStatus.REPLICA_WRITE_REJECTED, "b is a replica", "SET", "k", "v")).isEqualTo(moved);
    }

    // ------------------------------------------------------------------ COMMAND DOCS

    @Test
    void commandDocsDescribesEveryCommandWithRedisFields() {
        Map<String, Map<String, String>> docs = docs(RespCommands.commandDocs(List.of()));
        assertThat(docs.keySet()).containsExactlyElementsOf(CommandTable.COMMANDS.keySet());
        docs.forEach((name, fields) -> {
            assertThat(fields.keySet()).as(name).containsExactly("summary", "since", "group", "complexity");
            assertThat(fields.values()).as(name).allSatisfy(value -> assertThat(value).isNotBlank());
            assertThat(fields.get("since")).as(name).matches("\\d+\\.\\d+\\.\\d+");
            assertThat(fields.get("group")).as(name).isIn("connection", "server", "cluster", "string", "hash", "set", "sorted-set", "list", "generic", "pubsub");
        });
        assertThat(docs.get("getex")).containsEntry("since", "6.2.0").containsEntry("group", "string")
                .containsEntry("complexity", "O(1)");
    }

    @Test
    void commandDocsWithNamesAnswersTheKnownOnesOnce() {
        Map<String, Map<String, String>> docs = docs(RespCommands.commandDocs(args("GET", "nosuch", "Expire", "get")));
        assertThat(docs.keySet()).containsExactly("get", "expire");
        assertThat(docs.get("expire")).containsEntry("group", "generic").containsEntry("since", "1.0.0");
        assertThat(docs(RespCommands.commandDocs(args("nosuch")))).isEmpty();
        RespCommands commands = commands("a", request -> { throw new AssertionError("COMMAND DOCS touches no key"); });
        assertThat(docs(commands.execute(args("COMMAND", "DOCS", "ttl"), session()).join())).containsOnlyKeys("ttl");
    }

    // ------------------------------------------------------------------ helpers

    /**
     * The reply to a command when the engine refuses its first {@code refusals} attempts with {@code status} and
     * {@code message}, each moving the clock by 3 s, and answers OK after that.
     */
    private static RespReply replyAfterRefusals(KvStatus status, String message, int refusals, String... command) {
        FakeTime time = new FakeTime();
        AtomicInteger attempts = new AtomicInteger();
        RespCommands commands = new RespCommands(new ScriptedBackend("b", request -> {
            ByteBuf out = Unpooled.buffer();
            if (attempts.incrementAndGet() <= refusals) {
                time.advance(Duration.ofSeconds(3));
                ResponseCodec.writeError(out, request.id(), status, message);
            } else {
                ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
                out.writeLong(1);
                ResponseCodec.writeAck(out, 1, true);
            }
            return CompletableFuture.completedFuture(out);
        }, time), RespOptions.builder().peerPorts(RespPeerPorts.offset(1000)).build(), () -> 1, () -> { });
        try {
            return commands.execute(args(command), session()).join();
        } finally {
            commands.close();
        }
    }

    /** The reply to a command when the engine answers every request with {@code status} and {@code message}. */
    private static RespReply replyTo(KvStatus status, String message, String... command) {
        RespCommands commands = commands("b", request -> {
            ByteBuf out = Unpooled.buffer();
            ResponseCodec.writeError(out, request.id(), status, message);
            return CompletableFuture.completedFuture(out);
        });
        return commands.execute(args(command), session()).join();
    }

    private static RespCommands commands(String self, Function<Request, CompletableFuture<ByteBuf>> engine) {
        RespOptions options = RespOptions.builder().peerPorts(RespPeerPorts.offset(1000)).build();
        return new RespCommands(new ScriptedBackend(self, engine), options, () -> 1, () -> { });
    }

    private static RespSession session() {
        RespSession session = new RespSession(1);
        SecurityOptions none = SecurityOptions.none();
        session.login = new LoginSession(none.users(), none.limiter(), "test");
        return session;
    }

    static List<byte[]> args(String... words) {
        List<byte[]> args = new ArrayList<>();
        for (String word : words) {
            args.add(word.getBytes(StandardCharsets.UTF_8));
        }
        return args;
    }

    private static Map<String, Map<String, String>> docs(RespReply reply) {
        Map<String, Map<String, String>> docs = new LinkedHashMap<>();
        List<RespReply> entries = ((RespReply.MapReply) reply).keysAndValues();
        for (int i = 0; i < entries.size(); i += 2) {
            Map<String, String> fields = new LinkedHashMap<>();
            List<RespReply> pairs = ((RespReply.MapReply) entries.get(i + 1)).keysAndValues();
            for (int j = 0; j < pairs.size(); j += 2) {
                fields.put(text(pairs.get(j)), text(pairs.get(j + 1)));
            }
            docs.put(text(entries.get(i)), fields);
        }
        return docs;
    }

    private static String text(RespReply bulk) {
        return new String(((RespReply.Bulk) bulk).bytes(), StandardCharsets.UTF_8);
    }

    /** A backend whose engine is a function of the request; the view is {@link #VIEW}, the clock fixed. */
    private record ScriptedBackend(String nodeId, Function<Request, CompletableFuture<ByteBuf>> engine, TimeSource time)
            implements RespBackend {

        ScriptedBackend(String nodeId, Function<Request, CompletableFuture<ByteBuf>> engine) {
            this(nodeId, engine, FakeTime.followingMillis(() -> 1_000_000L));
        }

        @Override
        public ClusterView currentView() {
            return VIEW;
        }

        @Override
        public CompletableFuture<ByteBuf> execute(Request request) {
            return engine.apply(request);
        }

        @Override
        public long servedKeys() {
            return 0;
        }

        @Override
        public long servedKeysWithTtl() {
            return 0;
        }

        @Override
        public long keysInSlot(int slot) {
            return -1;
        }

        @Override
        public ProtocolLimits limits() {
            return ProtocolLimits.defaults();
        }

        @Override
        public Memory memory() {
            return new Memory(0, 1024, "allkeys-lru", 0, 0);
        }
    }
}
