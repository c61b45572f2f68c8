package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.PartitionState;
import io.zaris.replication.ReplicationSettings;
import io.zaris.time.FakeTime;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A member's reactions to membership events without JGroups: a cluster of three ("a" coordinates, "b" and "c"
 * follow) with members addressed by their ids, driven by (event, now) on a fake clock. What the member sends through
 * its link is recorded as text; tasks it hands back to its events thread wait in a queue the test runs.
 */
@Tag("unit")
class MemberReactionsTests {

    private static final long SECOND = 1_000_000_000L;
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final ClusterSettings SETTINGS = new ClusterSettings(3, PartitionLayout.of(4, 4), 2);
    private static final List<String> MEMBERS = List.of("a", "b", "c");

    private final FakeTime time = new FakeTime();
    /** What the member sent, in order. */
    private final List<String> sent = new ArrayList<>();
    /** Tasks handed back to the events thread; run by {@link #runEvents()}. */
    private final Queue<Runnable> events = new ArrayDeque<>();
    private final RecordingProbe probe = new RecordingProbe();
    /** Members the link says this node heard without a silence over the asked span. */
    private final java.util.Set<String> heard = new java.util.HashSet<>();

    @Test
    void theCoordinatorComputesAndBroadcastsTheFirstMapOnceEveryMemberAnnouncedItself() {
        MemberReactions<String> a = member("a", null);

        a.onView(MEMBERS, "a|1", false, now(0));
        assertThat(sent).containsExactly("broadcast hello a map 0");
        hellos(a, now(0), "a", "b");
        assertThat(a.currentView()).as("c has not announced itself").isNull();

        a.onMessage("c", hello("c", 0), now(0));

        ClusterView first = a.currentView();
        assertThat(first).isNotNull();
        assertThat(first.partitionMap().version()).isEqualTo(1);
        assertThat(first.founders()).containsOnlyKeys("a", "b", "c");
        assertThat(first.leader()).isEqualTo("a");
        assertThat(sent).contains("broadcast view 1");
        assertThat(a.isLeading()).isTrue();
        assertThat(a.inMajority()).isTrue();
        assertThat(a.presentNodeIds()).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void aFollowerNeverComputesTheFirstMap() {
        MemberReactions<String> b = member("b", null);

        b.onView(MEMBERS, "a|1", false, now(0));
        hellos(b, now(0), "a", "b", "c");

        assertThat(b.currentView()).isNull();
        assertThat(b.isLeading()).isFalse();
        assertThat(b.inMajority()).isTrue();
        assertThat(sent).containsExactly("broadcast hello b map 0");
    }

    @Test
    void aFollowerReBroadcastsTheViewItHoldsAfterEveryMembershipView() {
        MemberReactions<String> b = member("b", null);
        b.onView(MEMBERS, "a|1", false, now(0));
        hellos(b, now(0), "a", "b", "c");
        b.onMessage("a", ClusterMessages.encodeView(view(3)), now(0));
        assertThat(b.currentView().partitionMap().version()).isEqualTo(3);
        sent.clear();

        b.onView(List.of("a", "b"), "a|2", true, now(1));

        assertThat(sent).containsExactly("broadcast hello b map 3", "broadcast view 3");
    }

    @Test
    void aNodeRepeatsItsHelloEveryTwoSecondsOfRounds() {
        // a hello sent before a receiver installed the same view is dropped; nothing else repeats it until the next view
        MemberReactions<String> b = member("b", null);
        b.onView(MEMBERS, "a|1", false, now(0));
        hellos(b, now(0), "a", "b", "c");
        sent.clear();

        b.onRound(now(1.9));
        assertThat(sent).as("within 2 s of the last").isEmpty();
        b.onRound(now(2));
        assertThat(sent).containsExactly("broadcast hello b map 0");
        b.onRound(now(3));
        b.onRound(now(4));
        assertThat(sent).containsExactly("broadcast hello b map 0", "broadcast hello b map 0");
    }

    @Test
    void anOlderViewThanTheHeldOneIsNotAdopted() {
        MemberReactions<String> b = member("b", null);
        b.onView(MEMBERS, "a|1", false, now(0));
        hellos(b, now(0), "a", "b", "c");
        b.onMessage("a", ClusterMessages.encodeView(view(3)), now(0));

        b.onMessage("c", ClusterMessages.encodeView(view(2)), now(0));

        assertThat(b.currentView().partitionMap().version()).isEqualTo(3);
    }

    @Test
    void aGoodbyeTellsTheLinkThatTheMemberLeaves() {
        MemberReactions<String> a = member("a", null);
        a.onView(MEMBERS, "a|1", false, now(0));
        sent.clear();

        a.onMessage("c", ClusterMessages.encodeGoodbye(), now(0));

        assertThat(sent).containsExactly("leaving c");
    }

    @Test
    void anUnreadableMessageIsIgnored() {
        MemberReactions<String> a = member("a", null);
        a.onView(MEMBERS, "a|1", false, now(0));
        sent.clear();

        a.onMessage("c", new byte[] {(byte) 0x7f, 1, 2}, now(0));

        assertThat(sent).isEmpty();
        assertThat(a.presentNodeIds()).as("nobody announced itself").isEmpty();
    }

    @Test
    void aFollowerAsksItsCoordinatorForALeaseAtEveryViewAndHoldsItFromTheRequestsTime() {
        MemberReactions<String> b = member("b", LEASE);
        assertThat(b.holdsLease(now(10))).as("no lease before a grant").isFalse();

        b.onView(MEMBERS, "a|1", false, now(10));
        assertThat(sent).containsExactly("broadcast hello b map 0", "send a lease request 1");

        b.onMessage("c", ClusterMessages.encodeGrant(1, 0), now(10.5));
        assertThat(b.holdsLease(now(11))).as("a grant from a member that does not coordinate").isFalse();

        b.onMessage("a", ClusterMessages.encodeGrant(1, 0), now(10.5));
        assertThat(b.holdsLease(now(12.9))).isTrue();
        assertThat(b.holdsLease(now(13.1))).as("3 s after the request was sent").isFalse();
    }

    @Test
    void aFollowerWhoseCoordinatorAnswersNoLeaseRequestStopsFollowingItOnceWhileItHearsAMajorityWithoutIt() {
        MemberReactions<String> b = member("b", LEASE);
        b.onView(MEMBERS, "a|1", false, now(0));
        b.onMessage("a", ClusterMessages.encodeGrant(1, 0), now(0.1)); // then "a" answers nothing more
        heard.add("c");

        for (double t = 0.75; t < 4.4; t += 0.75) {
            b.onLeaseTick(now(t));
        }
        assertThat(sent).as("its lease lapsed at 3 s; not yet a second past it with a lease of unanswered requests")
                .noneMatch(line -> line.startsWith("deserted"));

        for (double t = 4.5; t <= 9; t += 0.75) {
            b.onLeaseTick(now(t));
        }
        assertThat(sent).filteredOn(line -> line.startsWith("deserted")).containsExactly("deserted a");
    }

    @Test
    void aFollowerThatHearsNoMajorityWithoutItsCoordinatorKeepsFollowingIt() {
        // the follower itself is the one cut off: it hears nobody, so it is left to the leader
        MemberReactions<String> b = member("b", LEASE);
        b.onView(MEMBERS, "a|1", false, now(0));
        b.onMessage("a", ClusterMessages.encodeGrant(1, 0), now(0.1));

        for (double t = 0.75; t <= 9; t += 0.75) {
            b.onLeaseTick(now(t));
        }
        assertThat(sent).noneMatch(line -> line.startsWith("deserted"));
    }

    @Test
    void aFollowerThatStopsFollowingItsCoordinatorTellsEveryMemberAtOnceAndAtEveryLeaseTickOfThatView() {
        MemberReactions<String> b = member("b", LEASE);
        b.onView(MEMBERS, "a|1", false, now(0));
        hellos(b, now(0), "a", "b", "c");
        b.onMessage("a", ClusterMessages.encodeGrant(1, 0), now(0.1));
        heard.add("c");
        for (double t = 0.75; t <= 4.5; t += 0.75) {
            b.onLeaseTick(now(t));
        }
        assertThat(sent).filteredOn(line -> line.contains("deserted") || line.contains("stopped following"))
                .containsExactly("broadcast stopped following a", "deserted a");

        sent.clear();
        b.onLeaseTick(now(5.25));
        assertThat(sent).as("repeated: the report may be lost").contains("broadcast stopped following a");

        sent.clear();
        b.onView(List.of("c", "b"), "c|2", false, now(5.5));
        b.onLeaseTick(now(6));
        assertThat(sent).as("a new view, a new coordinator").noneMatch(line -> line.contains("stopped following"));
    }

    /**
     * The bed run that took 13.47 s: the member next in line did not hear the third node all through the lease (a
     * silence of a second on a loaded machine starts that count again), so only the third node stopped following the
     * deaf leader, and JGroups acts on the suspicion of the member next in line only.
     */
    @Test
    void aFollowerThatMissedAPeerForASecondStopsFollowingWhenThatPeerReportsItStoppedFollowing() {
        MemberReactions<String> b = member("b", LEASE);
        b.onView(MEMBERS, "a|1", false, now(0));
        hellos(b, now(0), "a", "b", "c");
        b.onMessage("a", ClusterMessages.encodeGrant(1, 0), now(0.1)); // then "a" answers nothing more
        for (double t = 0.75; t <= 6; t += 0.75) {
            b.onLeaseTick(now(t));
            b.onRound(now(t + 0.25));
        }
        assertThat(sent).as("it did not hear \"c\" all through the lease").noneMatch(line -> line.startsWith("deserted"));

        b.onMessage("c", ClusterMessages.encodeDeserted("a"), now(6.1));

        assertThat(sent).filteredOn(line -> line.startsWith("deserted")).containsExactly("deserted a");
        assertThat(sent).contains("broadcast stopped following a");
    }

    @Test
    void aReportDoesNotMakeAFollowerWhoseOwnLeaseRequestsAreAnsweredStopFollowing() {
        // the third node's packets to the leader are dropped, this node's are not: the leader still leads it
        MemberReactions<String> b = member("b", LEASE);
        b.onView(MEMBERS, "a|1", false, now(0));
        hellos(b, now(0), "a", "b", "c");
        b.onMessage("a", ClusterMessages.encodeGrant(1, 0), now(0.1));
        for (int request = 2; request <= 8; request++) {
            double t = 0.75 * (request - 1);
            b.onLeaseTick(now(t));
            b.onMessage("a", ClusterMessages.encodeGrant(request, 0), now(t + 0.01));
            b.onMessage("c", ClusterMessages.encodeDeserted("a"), now(t + 0.5));
        }
        assertThat(sent).noneMatch(line -> line.startsWith("deserted"));
    }

    @Test
    void onlyAFreshReportFromAnotherMemberAboutThisViewsCoordinatorCounts() {
        MemberReactions<String> b = member("b", LEASE);
        b.onView(MEMBERS, "a|1", false, now(0));
        hellos(b, now(0), "a", "b", "c");
        b.onMessage("a", ClusterMessages.encodeGrant(1, 0), now(0.1));
        // 2.5 s old at 4.5 s, when its own requests have gone unanswered long enough: older than half a lease
        b.onMessage("c", ClusterMessages.encodeDeserted("a"), now(2));
        for (double t = 0.75; t <= 6; t += 0.75) {
            b.onLeaseTick(now(t));
        }

        b.onMessage("a", ClusterMessages.encodeDeserted("a"), now(6.1));
        b.onMessage("b", ClusterMessages.encodeDeserted("a"), now(6.1)); // its own broadcast, come back
        b.onMessage("c", ClusterMessages.encodeDeserted("c"), now(6.1));
        b.onMessage("d", ClusterMessages.encodeDeserted("a"), now(6.1)); // not a member of this view
        assertThat(sent).noneMatch(line -> line.startsWith("deserted"));

        b.onMessage("c", ClusterMessages.encodeDeserted("a"), now(6.2));
        assertThat(sent).filteredOn(line -> line.startsWith("deserted")).containsExactly("deserted a");
    }

    @Test
    void aReportFromBeforeTheViewChangedCountsForNothing() {
        MemberReactions<String> b = member("b", LEASE);
        b.onView(MEMBERS, "a|1", false, now(0));
        hellos(b, now(0), "a", "b", "c");
        b.onMessage("a", ClusterMessages.encodeGrant(1, 0), now(0.1));
        for (double t = 0.75; t <= 3.75; t += 0.75) {
            b.onLeaseTick(now(t));
        }
        b.onMessage("c", ClusterMessages.encodeDeserted("a"), now(3.9)); // its own requests not unanswered long enough
        b.onView(MEMBERS, "a|2", true, now(3.95)); // a merge: the same coordinator, but the report was about a|1

        b.onRound(now(4.2));

        assertThat(sent).noneMatch(line -> line.startsWith("deserted"));
    }

    @Test
    void theLeaseTickRenewsOnlyOnceTheMemberHasAView() {
        MemberReactions<String> b = member("b", LEASE);

        b.onLeaseTick(now(1));
        assertThat(sent).isEmpty();

        b.onView(MEMBERS, "a|1", false, now(2));
        sent.clear();
        b.onLeaseTick(now(2.75));

        assertThat(sent).containsExactly("send a lease request 2");
    }

    @Test
    void withoutLeasesANodeHoldsAtOnceAndSendsNoLeaseMessages() {
        MemberReactions<String> b = member("b", null);

        b.onView(MEMBERS, "a|1", false, now(0));

        assertThat(b.leasesEnabled()).isFalse();
        assertThat(b.holdsLease(now(0))).isTrue();
        assertThat(sent).containsExactly("broadcast hello b map 0");
    }

    @Test
    void aNodeWithoutAMapFetchesOneFromAHolderAtMostOncePerInterval() {
        MemberReactions<String> c = member("c", null);
        c.onView(MEMBERS, "a|1", false, now(0));
        hellos(c, now(0), "b", "c");
        probe.answer = view(4);

        c.onMessage("a", hello("a", 4), now(0)); // a holds map 4: the round after the hello asks it for its view
        c.onRound(now(0.5));
        assertThat(probe.viewRequests).as("once within the interval").containsExactly(address("a"));
        assertThat(c.currentView()).as("the answer is adopted on the events thread").isNull();

        runEvents();

        assertThat(c.currentView().partitionMap().version()).isEqualTo(4);
        c.onRound(now(2));
        assertThat(probe.viewRequests).as("a held map needs no fetch").hasSize(1);
    }

    @Test
    void thePresenceListenerIsToldOnlyWhenThePresentNodesChange() {
        MemberReactions<String> a = member("a", null);
        AtomicInteger told = new AtomicInteger();
        a.onPresenceChanged(told::incrementAndGet);

        a.onView(MEMBERS, "a|1", false, now(0));
        hellos(a, now(0), "a", "b");
        a.onRound(now(1));
        assertThat(told).hasValue(2);

        a.onView(List.of("a", "b"), "a|2", false, now(2));

        assertThat(told).hasValue(2);
        assertThat(a.presentNodeIds()).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void aHandOverOnAFollowerIsRefused() {
        MemberReactions<String> b = member("b", null);
        b.onView(MEMBERS, "a|1", false, now(0));
        hellos(b, now(0), "a", "b", "c");
        b.onMessage("a", ClusterMessages.encodeView(view(3)), now(0));

        assertThatThrownBy(() -> b.handOver(0, "c", now(1)))
                .isInstanceOf(IllegalStateException.class);
    }

    private MemberReactions<String> member(String self, Duration lease) {
        MemberReactions<String> member = new MemberReactions<>(self, address(self), self + "-1", SETTINGS, lease,
                ReplicationSettings.defaults(), probe, time, events::add);
        member.attached(new RecordingLink(self));
        return member;
    }

    private void hellos(MemberReactions<String> member, long now, String... from) {
        for (String node : from) {
            member.onMessage(node, hello(node, 0), now);
        }
    }

    private void runEvents() {
        for (Runnable task = events.poll(); task != null; task = events.poll()) {
            task.run();
        }
    }

    /** {@code seconds} after the fake clock's origin, in its monotonic nanos. */
    private long now(double seconds) {
        return time.nanoTime() + (long) (seconds * SECOND);
    }

    private static byte[] hello(String node, long mapVersion) {
        return ClusterMessages.encodeHello(new ClusterMessages.NodeHello(node, address(node), node + "-1", mapVersion));
    }

    private static NodeAddress address(String node) {
        return new NodeAddress("127.0.0.1", 7100 + node.charAt(0));
    }

    /** A map of the three nodes, of the given version. */
    private static ClusterView view(long version) {
        PartitionMap map = new PartitionMap(version, 2, List.of(List.of("a", "b"), List.of("b", "c"),
                List.of("c", "a"), List.of("a", "c")));
        return new ClusterView(SETTINGS.layout(), map, RuntimeMap.initial(map, 1),
                Map.of("a", address("a"), "b", address("b"), "c", address("c")));
    }

    private static String describe(byte[] bytes) {
        Object message;
        try {
            message = ClusterMessages.decode(bytes);
        } catch (MalformedRequestException e) {
            throw new AssertionError(e);
        }
        if (message instanceof ClusterMessages.NodeHello hello) {
            return "hello " + hello.nodeId() + " map " + hello.mapVersion();
        } else if (message instanceof ClusterView view) {
            return "view " + view.partitionMap().version();
        } else if (message instanceof ClusterMessages.Deserted deserted) {
            return "stopped following " + deserted.coordinatorNodeId();
        } else if (message instanceof ClusterMessages.LeaseMessage lease) {
            return switch (lease.type()) {
                case ClusterMessages.LEASE_REQUEST -> "lease request " + lease.number();
                case ClusterMessages.BEAT -> "beat " + lease.number();
                case ClusterMessages.BEAT_ACK -> "beat ack " + lease.number();
                default -> "lease message " + lease.type();
            };
        }
        return message.getClass().getSimpleName();
    }

    private final class RecordingLink implements MemberReactions.Link<String> {
        private final String self;

        RecordingLink(String self) {
            this.self = self;
        }

        @Override
        public String self() {
            return self;
        }

        @Override
        public void send(String destination, byte[] message) {
            sent.add("send " + destination + " " + describe(message));
        }

        @Override
        public void broadcast(byte[] message) {
            sent.add("broadcast " + describe(message));
        }

        @Override
        public void memberLeaving(String member) {
            sent.add("leaving " + member);
        }

        @Override
        public boolean heardThroughout(String member, long fromNanos, long toNanos) {
            return heard.contains(member);
        }

        @Override
        public void coordinatorDeserted(String coordinator) {
            sent.add("deserted " + coordinator);
        }
    }

    /** Answers view requests with a set view; the leader's probes are never reached in these tests. */
    private static final class RecordingProbe implements PeerProbe {
        private final List<NodeAddress> viewRequests = new ArrayList<>();
        private ClusterView answer;

        @Override
        public CompletableFuture<Boolean> isReachable(NodeAddress address) {
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public CompletableFuture<Map<Integer, PartitionState>> partitionStates(NodeAddress address,
                                                                               Collection<Integer> partitions) {
            return CompletableFuture.completedFuture(Map.of());
        }

        @Override
        public CompletableFuture<ClusterView> clusterView(NodeAddress address) {
            viewRequests.add(address);
            return CompletableFuture.completedFuture(answer);
        }
    }
}
