package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.placement.PartitionMap;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.security.LoginSession;
import io.zaris.security.SecurityOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code CLIENT TRACKING} on one node without sockets: the commands' replies and errors, which reads are remembered,
 * which changes are pushed to whom, and what a view that takes a partition away pushes. Node "a" serves partitions 0
 * and 1 of a 4-segment, 2-partition layout until a view gives partition 1 to "b".
 */
@Tag("unit")
class RespTrackingTests {

    private static final PartitionLayout LAYOUT = PartitionLayout.of(4, 2);
    private static final SegmentMapper SEGMENTS = new SegmentMapper(4);

    private final AtomicReference<ClusterView> view = new AtomicReference<>(view("a", "a"));
    private final RespTracking tracking = new RespTracking("a", 4, view::get, 100);

    @Test
    void aReadKeyIsInvalidatedOnceOnItsNextChange() {
        Connection reader = connection(1, 3);
        assertThat(client(reader, "TRACKING", "on")).isEqualTo(RespReply.OK);

        read(reader, "get", "k");
        change("k");
        change("k");

        assertThat(reader.pushed).containsExactly("invalidate [k]");
        assertThat(tracking.trackedKeys()).isZero();
    }

    @Test
    void aKeyNotReadOrReadWithoutTrackingIsNotPushed() {
        Connection reader = connection(1, 3);
        Connection other = connection(2, 3);
        read(other, "get", "k");
        client(reader, "TRACKING", "on");
        read(reader, "set", "k", "v");
        change("k");
        change("unread");
        assertThat(reader.pushed).isEmpty();
        assertThat(other.pushed).isEmpty();
    }

    @Test
    void everyKeyOfAMultiKeyReadIsRememberedAndAFieldChangeBatchPushesTheKeyOnce() {
        Connection reader = connection(1, 3);
        client(reader, "TRACKING", "on");
        read(reader, "mget", "{t}a", "{t}b");
        int segment = SEGMENTS.segmentOf(bytes("{t}a"));
        tracking.changed(segment, List.of(put("{t}a"), put("{t}a"), put("{t}b")));
        assertThat(reader.pushed).containsExactly("invalidate [{t}a]", "invalidate [{t}b]");
    }

    @Test
    void noLoopSkipsTheConnectionsOwnChangesOnly() {
        Connection reader = connection(1, 3);
        Connection writer = connection(2, 3);
        client(reader, "TRACKING", "on", "NOLOOP");
        client(writer, "TRACKING", "on");
        read(reader, "get", "k");
        read(writer, "get", "k");
        CommandTable.Spec set = CommandTable.COMMANDS.get("set");
        tracking.beforeCommand("set", set, RespCommandsTests.args("SET", "k", "v"), reader.session);
        change("k");
        tracking.afterCommand();
        assertThat(reader.pushed).isEmpty();
        assertThat(writer.pushed).containsExactly("invalidate [k]");
    }

    @Test
    void bcastPushesEveryChangeUnderItsPrefixesWithoutRememberingReads() {
        Connection bcast = connection(1, 3);
        assertThat(client(bcast, "TRACKING", "on", "BCAST", "PREFIX", "user:", "PREFIX", "cart:")).isEqualTo(RespReply.OK);
        change("user:1");
        change("order:1");
        change("cart:9");
        read(bcast, "get", "order:1");
        assertThat(tracking.trackedKeys()).isZero();
        assertThat(bcast.pushed).containsExactly("invalidate [user:1]", "invalidate [cart:9]");
        assertThat(client(bcast, "TRACKING", "off")).isEqualTo(RespReply.OK);
        change("user:2");
        assertThat(bcast.pushed).hasSize(2);
    }

    @Test
    void optInRemembersOnlyTheCommandAfterCachingYes() {
        Connection reader = connection(1, 3);
        client(reader, "TRACKING", "on", "OPTIN");
        read(reader, "get", "plain");
        assertThat(client(reader, "CACHING", "yes")).isEqualTo(RespReply.OK);
        read(reader, "get", "chosen");
        read(reader, "get", "after");
        change("plain");
        change("chosen");
        change("after");
        assertThat(reader.pushed).containsExactly("invalidate [chosen]");
    }

    @Test
    void optOutRemembersEverythingButTheCommandAfterCachingNo() {
        Connection reader = connection(1, 3);
        client(reader, "TRACKING", "on", "OPTOUT");
        assertThat(client(reader, "CACHING", "no")).isEqualTo(RespReply.OK);
        read(reader, "get", "skipped");
        read(reader, "get", "kept");
        change("skipped");
        change("kept");
        assertThat(reader.pushed).containsExactly("invalidate [kept]");
    }

    @Test
    void aKeyThisNodeDoesNotServeIsNotRemembered() {
        view.set(view("a", "b"));
        Connection reader = connection(1, 3);
        client(reader, "TRACKING", "on");
        String elsewhere = keyOfPartition(1);
        read(reader, "get", elsewhere);
        assertThat(tracking.trackedKeys()).isZero();
    }

    @Test
    void aViewThatTakesAPartitionAwayPushesItsReadKeysAndFlushesBcastConnections() {
        Connection reader = connection(1, 3);
        Connection bcast = connection(2, 3);
        client(reader, "TRACKING", "on");
        client(bcast, "TRACKING", "on", "BCAST");
        String kept = keyOfPartition(0);
        String moved = keyOfPartition(1);
        read(reader, "get", kept);
        read(reader, "get", moved);
        ClusterView before = view.get();
        ClusterView after = view("a", "b");
        view.set(after);

        tracking.viewInstalled(before, after);

        assertThat(reader.pushed).containsExactly("invalidate [" + moved + "]");
        assertThat(bcast.pushed).containsExactly("invalidate null");
        assertThat(tracking.trackedKeys()).isEqualTo(1);
        tracking.viewInstalled(after, after);
        assertThat(reader.pushed).hasSize(1);
    }

    @Test
    void aClosingListenerPushesEveryTrackedKeyAndInvalidatesLaterReadsAsTheyAreAnswered() {
        Connection reader = connection(1, 3);
        Connection bcast = connection(2, 3);
        client(reader, "TRACKING", "on");
        client(bcast, "TRACKING", "on", "BCAST");
        read(reader, "get", keyOfPartition(0));
        read(reader, "get", keyOfPartition(1));

        tracking.closing();

        assertThat(reader.pushed).containsExactly("invalidate [" + keyOfPartition(0) + ", " + keyOfPartition(1) + "]");
        assertThat(bcast.pushed).containsExactly("invalidate null");
        read(reader, "get", "late");
        assertThat(reader.pushed).last().isEqualTo("invalidate [late]");
        assertThat(tracking.trackedKeys()).isZero();
    }

    @Test
    void lostSegmentsAreThoseOfPartitionsThisNodeStoppedServing() {
        BitSet lost = RespTracking.lostSegments("a", view("a", "a"), view("b", "a"));
        assertThat(lost.stream().toArray()).containsExactly(LAYOUT.firstSegmentOf(0), LAYOUT.lastSegmentOf(0));
        assertThat(RespTracking.lostSegments("a", null, view("a", "a")).isEmpty()).isTrue();
        assertThat(RespTracking.lostSegments("a", view("b", "b"), view("a", "a")).isEmpty()).isTrue();
    }

    @Test
    void theCommandsAnswerRedissErrors() {
        Connection resp3 = connection(1, 3);
        assertThat(client(resp3, "TRACKING", "maybe")).isEqualTo(RespReply.error("ERR syntax error"));
        assertThat(client(resp3, "TRACKING", "on", "FOO")).isEqualTo(RespReply.error("ERR syntax error"));
        assertThat(client(resp3, "TRACKING", "on", "PREFIX", "a")).isEqualTo(
                RespReply.error("ERR PREFIX option requires BCAST mode to be enabled"));
        assertThat(client(resp3, "TRACKING", "on", "OPTIN", "OPTOUT")).isEqualTo(
                RespReply.error("ERR You can't use both OPTIN and OPTOUT"));
        assertThat(client(resp3, "TRACKING", "on", "BCAST", "OPTIN")).isEqualTo(
                RespReply.error("ERR OPTIN and OPTOUT are not compatible with BCAST"));
        assertThat(client(resp3, "TRACKING", "on", "BCAST", "PREFIX", "ab", "PREFIX", "abc")).isEqualTo(RespReply.error(
                "ERR Prefix 'ab' overlaps with an existing prefix 'abc'. Prefixes for a single client must not overlap."));
        assertThat(client(resp3, "TRACKING", "on", "REDIRECT", "7")).isEqualTo(RespTracking.REDIRECT_REFUSED);
        assertThat(client(resp3, "CACHING", "yes")).isEqualTo(RespReply.error(
                "ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or OPTOUT mode enabled"));
        assertThat(tracking.trackingClients()).isZero();

        assertThat(client(resp3, "TRACKING", "on", "OPTIN")).isEqualTo(RespReply.OK);
        assertThat(client(resp3, "CACHING", "no")).isEqualTo(
                RespReply.error("ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTIN mode.".replace(
                        "OPTIN mode.", "OPTOUT mode.")));
        assertThat(client(resp3, "CACHING", "perhaps")).isEqualTo(RespReply.error("ERR syntax error"));
        assertThat(client(resp3, "TRACKING", "on", "BCAST")).isEqualTo(RespReply.error("ERR You can't switch BCAST mode "
                + "on/off before disabling tracking for this client, and then re-enabling it with a different mode."));
        assertThat(client(resp3, "TRACKING", "on", "OPTOUT")).isEqualTo(RespReply.error("ERR You can't switch "
                + "OPTIN/OPTOUT mode before disabling tracking for this client, and then re-enabling it with a different mode."));

        Connection resp2 = connection(2, 2);
        assertThat(client(resp2, "TRACKING", "on")).isEqualTo(RespTracking.RESP2_REFUSED);
        assertThat(client(resp2, "TRACKING", "off")).isEqualTo(RespReply.OK);
    }

    @Test
    void trackingInfoDescribesTheMode() {
        Connection connection = connection(1, 3);
        assertThat(resp3(client(connection, "TRACKINGINFO")))
                .isEqualTo("%3\r\n$5\r\nflags\r\n*1\r\n$3\r\noff\r\n$8\r\nredirect\r\n:-1\r\n$8\r\nprefixes\r\n*0\r\n");
        client(connection, "TRACKING", "on", "BCAST", "PREFIX", "a:", "NOLOOP");
        assertThat(resp3(client(connection, "TRACKINGINFO"))).contains("$6\r\nnoloop\r\n");
        // Turned on again: the flags are the new call's, the prefixes add up.
        client(connection, "TRACKING", "on", "BCAST", "PREFIX", "b:");
        assertThat(resp3(client(connection, "TRACKINGINFO"))).isEqualTo("%3\r\n$5\r\nflags\r\n*2\r\n$2\r\non\r\n"
                + "$5\r\nbcast\r\n$8\r\nredirect\r\n:0\r\n$8\r\nprefixes\r\n*2\r\n$2\r\na:\r\n$2\r\nb:\r\n");
        assertThat(tracking.trackingClients()).isEqualTo(1);
        tracking.off(connection.session);
        assertThat(tracking.trackingClients()).isZero();
    }

    // ------------------------------------------------------------------ helpers

    /** A session whose pushes are rendered as {@code invalidate [k1, k2]} or {@code invalidate null}. */
    private static final class Connection {
        final RespSession session;
        final List<String> pushed = new ArrayList<>();

        Connection(long id, int protocol) {
            session = new RespSession(id);
            session.protocol = protocol;
            SecurityOptions none = SecurityOptions.none();
            session.login = new LoginSession(none.users(), none.limiter(), "test");
            session.pushes = push -> pushed.add(text(push));
        }

        private static String text(RespReply.Push push) {
            String kind = new String(((RespReply.Bulk) push.items().get(0)).bytes(), StandardCharsets.UTF_8);
            if (push.items().get(1) instanceof RespReply.Null) {
                return kind + " null";
            }
            List<String> keys = ((RespReply.Array) push.items().get(1)).items().stream()
                    .map(item -> new String(((RespReply.Bulk) item).bytes(), StandardCharsets.UTF_8)).toList();
            return kind + " [" + String.join(", ", keys) + "]";
        }
    }

    private static Connection connection(long id, int protocol) {
        return new Connection(id, protocol);
    }

    private RespReply client(Connection connection, String... words) {
        List<String> all = new ArrayList<>(List.of("CLIENT"));
        all.addAll(List.of(words));
        RespReply reply = tracking.command(words[0].toUpperCase(), RespCommandsTests.args(all.toArray(String[]::new)),
                connection.session);
        // As RespCommands does around every command, CLIENT included.
        tracking.beforeCommand("client", CommandTable.COMMANDS.get("client"), List.of(), connection.session);
        return reply;
    }

    private void read(Connection connection, String... words) {
        String name = words[0];
        List<byte[]> args = RespCommandsTests.args(words);
        tracking.beforeCommand(name, CommandTable.COMMANDS.get(name), args, connection.session);
        tracking.afterCommand();
    }

    private void change(String key) {
        tracking.changed(SEGMENTS.segmentOf(bytes(key)), List.of(put(key)));
    }

    private static Change put(String key) {
        return new Change(1, 1, bytes(key), bytes("v"), 0);
    }

    private static String keyOfPartition(int partition) {
        for (int i = 0; ; i++) {
            String key = "key-" + i;
            int segment = SEGMENTS.segmentOf(bytes(key));
            if (segment >= LAYOUT.firstSegmentOf(partition) && segment <= LAYOUT.lastSegmentOf(partition)) {
                return key;
            }
        }
    }

    private static ClusterView view(String activeOf0, String activeOf1) {
        PartitionMap map = new PartitionMap(1, 2, List.of(List.of("a", "b"), List.of("a", "b")));
        return new ClusterView(LAYOUT, map, new RuntimeMap(List.of(
                new PartitionRuntime(activeOf0, 1, PartitionHealth.HEALTHY),
                new PartitionRuntime(activeOf1, 1, PartitionHealth.HEALTHY))),
                Map.of("a", new NodeAddress("127.0.0.1", 1), "b", new NodeAddress("127.0.0.1", 2)));
    }

    private static String resp3(RespReply reply) {
        io.netty.buffer.ByteBuf out = io.netty.buffer.Unpooled.buffer();
        RespWriter.write(reply, 3, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
