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
    void aRenameInvalidatesItsSourceAndItsDestination() {
        Connection reader = connection(1, 3);
        client(reader, "TRACKING", "on");
        read(reader, "mget", "{t}a", "{t}b");
        int segment = SEGMENTS.segmentOf(bytes("{t}a"));
        tracking.changed(segment, List.of(Change.rename(5, 1, bytes("{t}a"), bytes("{t}b"), 0)));
        assertThat(reader.pushed).containsExactlyInAnyOrder("invalidate [{t}a]", "invalidate [{t}b]");
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
        assertThat(client(resp3, "TRACKING", "on", "REDIRECT", "7")).isEqualTo(RespTracking.NO_SUCH_REDIRECT);
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
                .isEqualTo("%3\r\n$5\r\nflags\r\n~1\r\n$3\r\noff\r\n$8\r\nredirect\r\n:-1\r\n$8\r\nprefixes\r\n*0\r\n");
        client(connection, "TRACKING", "on", "BCAST", "PREFIX", "a:", "NOLOOP");
        assertThat(resp3(client(connection, "TRACKINGINFO"))).contains("$6\r\nnoloop\r\n");
        // Turned on again: the flags are the new call's, the prefixes add up.
        client(connection, "TRACKING", "on", "BCAST", "PREFIX", "b:");
        assertThat(resp3(client(connection, "TRACKINGINFO"))).isEqualTo("%3\r\n$5\r\nflags\r\n~2\r\n$2\r\non\r\n"
                + "$5\r\nbcast\r\n$8\r\nredirect\r\n:0\r\n$8\r\nprefixes\r\n*2\r\n$2\r\na:\r\n$2\r\nb:\r\n");
        assertThat(tracking.trackingClients()).isEqualTo(1);
        tracking.off(connection.session);
        assertThat(tracking.trackingClients()).isZero();
    }

    @Test
    void aRedirectedInvalidationTakesTheFormOfTheRedirectConnectionsProtocolAndSubscriptions() {
        Connection tracker = connection(1, 2);
        Connection redirect = connection(2, 2);
        assertThat(client(tracker, "TRACKING", "on", "REDIRECT", "2")).isEqualTo(RespReply.OK);

        read(tracker, "get", "k");
        change("k");
        assertThat(redirect.pushed).as("RESP2 without a subscription: Redis sends nothing").isEmpty();

        redirect.subscribe("another-channel"); // Redis asks for pub/sub mode, not for __redis__:invalidate
        read(tracker, "get", "k");
        change("k");
        assertThat(redirect.pushed).containsExactly("message __redis__:invalidate [k]");

        redirect.session.protocol = 3;
        read(tracker, "get", "k");
        change("k");
        assertThat(redirect.pushed).last().isEqualTo("invalidate [k]");
        assertThat(tracker.pushed).isEmpty();
    }

    @Test
    void aClosedRedirectMarksTrackingBrokenAndEachUndeliveredInvalidationPushesRedirBrokenOverResp3() {
        Connection tracker = connection(1, 3);
        Connection redirect = connection(2, 3);
        client(tracker, "TRACKING", "on", "REDIRECT", "2");
        read(tracker, "mget", "{t}a", "{t}b");

        tracking.closed(redirect.session);
        change("{t}a");
        change("{t}b");

        assertThat(tracker.pushed).containsExactly("tracking-redir-broken 2", "tracking-redir-broken 2");
        assertThat(resp3(client(tracker, "TRACKINGINFO"))).isEqualTo("%3\r\n$5\r\nflags\r\n~2\r\n$2\r\non\r\n"
                + "$15\r\nbroken_redirect\r\n$8\r\nredirect\r\n:2\r\n$8\r\nprefixes\r\n*0\r\n");
        assertThat(client(tracker, "GETREDIR")).isEqualTo(RespReply.integer(2));
        assertThat(client(tracker, "TRACKING", "on", "REDIRECT", "2")).isEqualTo(RespTracking.NO_SUCH_REDIRECT);

        // Turned on again without REDIRECT: no redirect, no broken mark, pushes on the connection itself.
        client(tracker, "TRACKING", "on");
        assertThat(resp3(client(tracker, "TRACKINGINFO"))).contains("~1\r\n$2\r\non\r\n").contains(":0\r\n");
        read(tracker, "get", "{t}a");
        change("{t}a");
        assertThat(tracker.pushed).last().isEqualTo("invalidate [{t}a]");
    }

    @Test
    void aResp2TrackerWhoseRedirectClosedIsMarkedBrokenButPushedNothing() {
        Connection tracker = connection(1, 2);
        Connection redirect = connection(2, 2);
        client(tracker, "TRACKING", "on", "REDIRECT", "2");
        read(tracker, "get", "k");
        tracking.closed(redirect.session);
        change("k");
        assertThat(tracker.pushed).isEmpty();
        assertThat(resp3(client(tracker, "TRACKINGINFO"))).contains("$15\r\nbroken_redirect\r\n");
    }

    @Test
    void redirectAnswersRedissErrorsAndGetRedirRedissValues() {
        Connection tracker = connection(1, 2);
        connection(2, 2);
        assertThat(client(tracker, "GETREDIR")).isEqualTo(RespReply.integer(-1));
        assertThat(client(tracker, "TRACKING", "on", "REDIRECT", "3")).isEqualTo(RespTracking.NO_SUCH_REDIRECT);
        assertThat(client(tracker, "TRACKING", "off", "REDIRECT", "3")).isEqualTo(RespTracking.NO_SUCH_REDIRECT);
        assertThat(client(tracker, "TRACKING", "maybe", "REDIRECT", "3")).isEqualTo(RespTracking.NO_SUCH_REDIRECT);
        assertThat(client(tracker, "TRACKING", "on", "REDIRECT", "0")).isEqualTo(RespTracking.NO_SUCH_REDIRECT);
        assertThat(client(tracker, "TRACKING", "on", "REDIRECT", "two")).isEqualTo(
                RespReply.error("ERR value is not an integer or out of range"));
        assertThat(client(tracker, "TRACKING", "on", "REDIRECT", "2", "REDIRECT", "2")).isEqualTo(
                RespReply.error("ERR A client can only redirect to a single other client"));
        assertThat(client(tracker, "TRACKING", "on", "REDIRECT")).isEqualTo(RespReply.error("ERR syntax error"));
        assertThat(client(tracker, "TRACKING", "on")).isEqualTo(RespTracking.RESP2_REFUSED);
        assertThat(client(tracker, "GETREDIR", "x")).isEqualTo(
                RespReply.error("ERR wrong number of arguments for 'client|getredir' command"));
        assertThat(tracking.trackingClients()).isZero();

        assertThat(client(tracker, "TRACKING", "on", "REDIRECT", "1")).as("to itself, as Redis allows").isEqualTo(RespReply.OK);
        assertThat(client(tracker, "TRACKING", "on", "REDIRECT", "2")).isEqualTo(RespReply.OK);
        assertThat(client(tracker, "GETREDIR")).isEqualTo(RespReply.integer(2));
        assertThat(client(tracker, "TRACKING", "on")).as("RESP2 without REDIRECT, state unchanged")
                .isEqualTo(RespTracking.RESP2_REFUSED);
        assertThat(client(tracker, "GETREDIR")).isEqualTo(RespReply.integer(2));
        client(tracker, "TRACKING", "off");
        assertThat(client(tracker, "GETREDIR")).isEqualTo(RespReply.integer(-1));

        Connection resp3 = connection(3, 3);
        client(resp3, "TRACKING", "on");
        assertThat(client(resp3, "GETREDIR")).isEqualTo(RespReply.integer(0));
    }

    @Test
    void switchingToResp2KeepsTrackingOnlyWithARedirect() {
        Connection redirected = connection(1, 3);
        Connection plain = connection(2, 3);
        connection(3, 2);
        client(redirected, "TRACKING", "on", "REDIRECT", "3");
        client(plain, "TRACKING", "on");
        redirected.session.protocol = 2;
        plain.session.protocol = 2;
        tracking.protocolChanged(redirected.session);
        tracking.protocolChanged(plain.session);
        assertThat(client(redirected, "GETREDIR")).isEqualTo(RespReply.integer(3));
        assertThat(client(plain, "GETREDIR")).isEqualTo(RespReply.integer(-1));
    }

    @Test
    void bcastPrefixesNoLoopAndOptInWorkWithARedirect() {
        Connection bcast = connection(1, 2);
        Connection optIn = connection(2, 2);
        Connection redirect = connection(3, 3);
        client(bcast, "TRACKING", "on", "BCAST", "PREFIX", "a:", "REDIRECT", "3", "NOLOOP");
        client(optIn, "TRACKING", "on", "OPTIN", "REDIRECT", "3");
        assertThat(resp3(client(bcast, "TRACKINGINFO"))).isEqualTo("%3\r\n$5\r\nflags\r\n~3\r\n$2\r\non\r\n"
                + "$5\r\nbcast\r\n$6\r\nnoloop\r\n$8\r\nredirect\r\n:3\r\n$8\r\nprefixes\r\n*1\r\n$2\r\na:\r\n");

        change("a:1");
        change("b:1");
        assertThat(redirect.pushed).containsExactly("invalidate [a:1]");

        // NOLOOP: the tracking connection's own write is not pushed, to its redirect either.
        tracking.beforeCommand("set", CommandTable.COMMANDS.get("set"), RespCommandsTests.args("set", "a:2", "v"),
                bcast.session);
        change("a:2");
        tracking.afterCommand();
        assertThat(redirect.pushed).hasSize(1);

        read(optIn, "get", "x");
        client(optIn, "CACHING", "yes");
        read(optIn, "get", "y");
        change("x");
        change("y");
        assertThat(redirect.pushed).containsExactly("invalidate [a:1]", "invalidate [y]");
    }

    @Test
    void aPartitionMovingAwayInvalidatesItsKeysAtTheRedirectConnection() {
        Connection reader = connection(1, 2);
        Connection bcast = connection(2, 2);
        Connection redirect = connection(3, 2);
        redirect.subscribe("__redis__:invalidate");
        client(reader, "TRACKING", "on", "REDIRECT", "3");
        client(bcast, "TRACKING", "on", "BCAST", "REDIRECT", "3");
        String kept = keyOfPartition(0);
        String moved = keyOfPartition(1);
        read(reader, "get", kept);
        read(reader, "get", moved);
        ClusterView before = view.get();
        ClusterView after = view("a", "b");
        view.set(after);

        tracking.viewInstalled(before, after);

        assertThat(redirect.pushed).containsExactlyInAnyOrder("message __redis__:invalidate [" + moved + "]",
                "message __redis__:invalidate null");
        assertThat(reader.pushed).isEmpty();
        assertThat(bcast.pushed).isEmpty();
    }

    @Test
    void aPushThatIsNoRedirectedInvalidationIsWrittenAsItIs() {
        RespSession session = new RespSession(1);
        RespReply.Push message = new RespReply.Push(List.of(RespReply.bulk("message"), RespReply.bulk("c"),
                RespReply.bulk("m")));
        assertThat(RespTracking.asWritten(message, session)).isSameAs(message);
    }

    @Test
    void aClosedConnectionCannotBeNamedAndLeavesNoEntry() {
        Connection redirect = connection(2, 2);
        assertThat(tracking.openConnections()).isEqualTo(1);
        tracking.closed(redirect.session);
        assertThat(tracking.openConnections()).isZero();
    }

    // ------------------------------------------------------------------ helpers

    /**
     * A session whose pushes are rendered as {@code invalidate [k1, k2]}, {@code invalidate null},
     * {@code message __redis__:invalidate [k]} or {@code tracking-redir-broken 2}, in the form its event loop would
     * write them ({@link RespTracking#asWritten}; pushes it would not write are left out).
     */
    private static final class Connection {
        final RespSession session;
        final List<String> pushed = new ArrayList<>();

        Connection(long id, int protocol) {
            session = new RespSession(id);
            session.protocol = protocol;
            SecurityOptions none = SecurityOptions.none();
            session.login = new LoginSession(none.users(), none.limiter(), "test");
            session.pushes = push -> {
                RespReply.Push written = RespTracking.asWritten(push, session);
                if (written != null) {
                    pushed.add(text(written));
                }
            };
        }

        /** Subscribes the connection to {@code channel}, as SUBSCRIBE does. */
        void subscribe(String channel) {
            PubSubRegistry registry = new PubSubRegistry(10, 10);
            session.subscriber = registry.subscriber(session.id, session.pushes);
            registry.reserve(session.subscriber, 1);
            session.subscriber.subscribe(PubSubRegistry.Kind.CHANNEL, new PubSubRegistry.Name(bytes(channel)));
        }

        private static String text(RespReply.Push push) {
            List<String> words = new ArrayList<>();
            for (RespReply item : push.items()) {
                if (item instanceof RespReply.Null) {
                    words.add("null");
                } else if (item instanceof RespReply.Int number) {
                    words.add(Long.toString(number.value()));
                } else if (item instanceof RespReply.Bulk bulk) {
                    words.add(new String(bulk.bytes(), StandardCharsets.UTF_8));
                } else {
                    words.add("[" + String.join(", ", ((RespReply.Array) item).items().stream()
                            .map(key -> new String(((RespReply.Bulk) key).bytes(), StandardCharsets.UTF_8)).toList()) + "]");
                }
            }
            return String.join(" ", words);
        }
    }

    /** A connection of this node, open (REDIRECT may name it). */
    private Connection connection(long id, int protocol) {
        Connection connection = new Connection(id, protocol);
        tracking.opened(connection.session);
        return connection;
    }

    private RespReply client(Connection connection, String... words) {
        List<String> all = new ArrayList<>(List.of("CLIENT"));
        all.addAll(List.of(words));
        RespReply reply = tracking.command(words[0].toUpperCase(), RespCommandsTests.args(all.toArray(String[]::new)),
                connection.session);
        // As RespCommands does around every command, CLIENT included.
        tracking.beforeCommand("client", CommandTable.COMMANDS.get("client"), List.of(), connection.session);
        tracking.afterCommand();
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
