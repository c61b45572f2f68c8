package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.protocol.MalformedRequestException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The lease messages of a node of three ("a" coordinates, "b" and "c" follow), driven by (message, now) with members
 * named by strings; what the relay sends and asks is recorded as text.
 */
@Tag("unit")
class LeaseRelayTests {

    private static final long SECOND = 1_000_000_000L;
    private static final Duration LEASE = Duration.ofSeconds(3);

    private final List<String> effects = new ArrayList<>();
    private final LeaseRelay<String> relay = new LeaseRelay<>(LeaseKeeper.withLease(LEASE), new Recorder());
    private final MembershipRoster<String> roster = new MembershipRoster<>();

    LeaseRelayTests() {
        roster.viewChanged(List.of("a", "b", "c"));
    }

    @Test
    void aLeaderRenewingBeatsAndAsksItselfForItsLease() {
        relay.renew(seat("a", null), 10 * SECOND);

        assertThat(effects).containsExactly("broadcast BEAT 1", "send a LEASE_REQUEST 1");
    }

    @Test
    void aMemberRenewingOnlyAsksTheCoordinator() {
        relay.renew(seat("b", null), 10 * SECOND);

        assertThat(effects).containsExactly("send a LEASE_REQUEST 1");
    }

    @Test
    void aMemberAnswersTheBeatsOfItsCoordinatorOnly() {
        relay.onMessage("c", lease(ClusterMessages.BEAT, 4), seat("b", null), 10 * SECOND);
        assertThat(effects).isEmpty();

        relay.onMessage("a", lease(ClusterMessages.BEAT, 4), seat("b", null), 10 * SECOND);

        assertThat(effects).containsExactly("send a BEAT_ACK 4");
    }

    @Test
    void aLeaderGrantsNothingUntilAMajorityAnsweredABeatAndBeatsAtOnceInstead() {
        LeaseRelay.Seat<String> leader = seat("a", null);
        relay.onMessage("b", lease(ClusterMessages.LEASE_REQUEST, 1), leader, 10 * SECOND);
        assertThat(effects).as("unconfirmed: a beat, no grant").containsExactly("broadcast BEAT 1");

        relay.onMessage("a", lease(ClusterMessages.BEAT_ACK, 1), leader, 10 * SECOND);
        relay.onMessage("b", lease(ClusterMessages.BEAT_ACK, 1), leader, 10 * SECOND);
        relay.onMessage("c", lease(ClusterMessages.BEAT_ACK, 1), leader, 10 * SECOND);
        assertThat(effects).as("confirmed once, by the second answer, which grants the request asked before")
                .containsExactly("broadcast BEAT 1", "send b LEASE_GRANT 1 map 0", "leadershipConfirmed");

        roster.announced("b", new ClusterMessages.NodeHello("b", new NodeAddress("127.0.0.1", 2), "b-1", 0));
        relay.onMessage("b", lease(ClusterMessages.LEASE_REQUEST, 2), leader, 11 * SECOND);

        assertThat(effects).last().isEqualTo("send b LEASE_GRANT 2 map 0");
        assertThat(relay.keeper().renewedWithinLease("b", 11 * SECOND)).as("the grant is recorded by node id").isTrue();
    }

    @Test
    void onlyTheLatestRequestOfAQuarterLeaseBeforeTheConfirmationIsGrantedThen() {
        LeaseRelay.Seat<String> leader = seat("a", null);
        relay.onMessage("b", lease(ClusterMessages.LEASE_REQUEST, 1), leader, 10 * SECOND);
        relay.onMessage("b", lease(ClusterMessages.LEASE_REQUEST, 2), leader, 10 * SECOND + SECOND / 2);
        relay.onMessage("c", lease(ClusterMessages.LEASE_REQUEST, 7), leader, 10 * SECOND);
        effects.clear();

        // a lease of 3 s: c's request came 0.8 s before, more than a quarter lease, and c asks again by now
        long confirmedAt = 10 * SECOND + 800_000_000L;
        relay.onMessage("a", lease(ClusterMessages.BEAT_ACK, 1), leader, confirmedAt);
        relay.onMessage("b", lease(ClusterMessages.BEAT_ACK, 1), leader, confirmedAt);

        assertThat(effects).containsExactly("send b LEASE_GRANT 2 map 0", "leadershipConfirmed");
        effects.clear();
        relay.onMessage("c", lease(ClusterMessages.BEAT_ACK, 1), leader, confirmedAt);
        assertThat(effects).as("requests answered once; later answers confirm nothing new").isEmpty();
    }

    @Test
    void aMemberWhoseBeatAnswersLagIsRefusedItsLeaseAndReportedOnceWhileTheOthersAreGranted() {
        LeaseRelay.Seat<String> leader = seat("a", null);
        relay.keeper().viewChanged(List.of("a", "b", "c"), 0);
        roster.announced("b", new ClusterMessages.NodeHello("b", new NodeAddress("127.0.0.1", 2), "b-1", 0));
        roster.announced("c", new ClusterMessages.NodeHello("c", new NodeAddress("127.0.0.1", 3), "c-1", 0));
        long round = 0;
        for (long sent = 10 * SECOND; sent <= 14 * SECOND; sent += LEASE.toNanos() / 4) { // b never answers
            relay.renew(leader, sent); // beats round 1, 2, ...
            round++;
            relay.onMessage("a", lease(ClusterMessages.BEAT_ACK, round), leader, sent);
            relay.onMessage("c", lease(ClusterMessages.BEAT_ACK, round), leader, sent);
        }
        effects.clear();

        relay.onMessage("b", lease(ClusterMessages.LEASE_REQUEST, 9), leader, 14 * SECOND);
        relay.onMessage("b", lease(ClusterMessages.LEASE_REQUEST, 10), leader, 14 * SECOND);
        relay.onMessage("c", lease(ClusterMessages.LEASE_REQUEST, 11), leader, 14 * SECOND);

        assertThat(effects).containsExactly("leaseRefused b", "send c LEASE_GRANT 11 map 0");
    }

    @Test
    void answersFromOutsideTheLeadersViewCountForNothing() {
        LeaseRelay.Seat<String> leader = seat("a", null);
        relay.renew(leader, 10 * SECOND);

        relay.onMessage("a", lease(ClusterMessages.BEAT_ACK, 1), leader, 10 * SECOND);
        relay.onMessage("x", lease(ClusterMessages.BEAT_ACK, 1), leader, 10 * SECOND);

        assertThat(effects).doesNotContain("leadershipConfirmed");
        assertThat(relay.keeper().leadershipConfirmed(10 * SECOND)).isFalse();
    }

    @Test
    void aMemberThatDoesNotLeadIgnoresBeatAnswersChecksAndRequests() {
        LeaseRelay.Seat<String> member = seat("b", null);

        relay.onMessage("a", lease(ClusterMessages.BEAT_ACK, 1), member, 10 * SECOND);
        relay.onMessage("c", lease(ClusterMessages.MAJORITY_CHECK, 1), member, 10 * SECOND);
        relay.onMessage("c", lease(ClusterMessages.LEASE_REQUEST, 1), member, 10 * SECOND);

        assertThat(effects).isEmpty();
    }

    @Test
    void aMajorityCheckIsProvenByABeatSentAfterItArrived() {
        LeaseRelay.Seat<String> leader = seat("a", null);

        relay.onMessage("b", lease(ClusterMessages.MAJORITY_CHECK, 7), leader, 10 * SECOND);
        assertThat(effects).containsExactly("broadcast BEAT 1");
        relay.onMessage("a", lease(ClusterMessages.BEAT_ACK, 1), leader, 10 * SECOND);
        relay.onMessage("c", lease(ClusterMessages.BEAT_ACK, 1), leader, 10 * SECOND);

        assertThat(effects).containsExactly("broadcast BEAT 1", "leadershipConfirmed", "send b MAJORITY_CONFIRMED 7");
    }

    @Test
    void theCoordinatorsGrantConfirmsTheLeaseFromTheRequestsSendTime() {
        ClusterView held = view(1);
        relay.renew(seat("b", held), 10 * SECOND);
        effects.clear();

        relay.onMessage("c", grant(1, 1), seat("b", held), 10 * SECOND);
        assertThat(effects).as("not the coordinator").isEmpty();
        relay.onMessage("a", grant(1, 1), seat("b", held), 10 * SECOND + SECOND / 2);

        assertThat(effects).containsExactly("leaseGranted " + 13 * SECOND + " true");
    }

    @Test
    void aGrantForANewerMapThanHeldAsksForThatMapInsteadOfRenewing() {
        ClusterView held = view(1);
        relay.renew(seat("b", held), 10 * SECOND);
        effects.clear();

        relay.onMessage("a", grant(1, 2), seat("b", held), 10 * SECOND);

        assertThat(effects).containsExactly("newerMapHeld");
        assertThat(relay.keeper().memberLeaseValidUntil()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void withoutALeaseMessagesAreIgnored() {
        LeaseRelay<String> withoutLease = new LeaseRelay<>(LeaseKeeper.withoutLease(), new Recorder());

        withoutLease.onMessage("a", lease(ClusterMessages.BEAT, 1), seat("b", null), 10 * SECOND);

        assertThat(effects).isEmpty();
    }

    private LeaseRelay.Seat<String> seat(String self, ClusterView held) {
        return new LeaseRelay.Seat<>(self, roster, held, 3);
    }

    private static ClusterMessages.LeaseMessage lease(int type, long number) {
        return decode(ClusterMessages.encodeLease(type, number));
    }

    private static ClusterMessages.LeaseMessage grant(long number, long mapVersion) {
        return decode(ClusterMessages.encodeGrant(number, mapVersion));
    }

    private static ClusterMessages.LeaseMessage decode(byte[] bytes) {
        try {
            return (ClusterMessages.LeaseMessage) ClusterMessages.decode(bytes);
        } catch (MalformedRequestException e) {
            throw new AssertionError(e);
        }
    }

    private static String describe(byte[] bytes) {
        ClusterMessages.LeaseMessage message = decode(bytes);
        String name = switch (message.type()) {
            case ClusterMessages.BEAT -> "BEAT";
            case ClusterMessages.BEAT_ACK -> "BEAT_ACK";
            case ClusterMessages.LEASE_REQUEST -> "LEASE_REQUEST";
            case ClusterMessages.LEASE_GRANT -> "LEASE_GRANT";
            case ClusterMessages.MAJORITY_CHECK -> "MAJORITY_CHECK";
            case ClusterMessages.MAJORITY_CONFIRMED -> "MAJORITY_CONFIRMED";
            default -> "type " + message.type();
        };
        return name + " " + message.number()
                + (message.type() == ClusterMessages.LEASE_GRANT ? " map " + message.mapVersion() : "");
    }

    /** A map of one partition owned by the three nodes. */
    private static ClusterView view(long version) {
        PartitionMap map = new PartitionMap(version, 3, List.of(List.of("a", "b", "c")));
        return new ClusterView(PartitionLayout.of(1, 1), map, RuntimeMap.initial(map, 1),
                Map.of("a", new NodeAddress("127.0.0.1", 1)));
    }

    private final class Recorder implements LeaseRelay.Effects<String> {
        @Override
        public void send(String destination, byte[] message) {
            effects.add("send " + destination + " " + describe(message));
        }

        @Override
        public void broadcast(byte[] message) {
            effects.add("broadcast " + describe(message));
        }

        @Override
        public void leadershipConfirmed() {
            effects.add("leadershipConfirmed");
        }

        @Override
        public void newerMapHeld() {
            effects.add("newerMapHeld");
        }

        @Override
        public void leaseGranted(long validUntil, boolean justConfirmed) {
            effects.add("leaseGranted " + validUntil + " " + justConfirmed);
        }

        @Override
        public void leaseRefused(String nodeId) {
            effects.add("leaseRefused " + nodeId);
        }
    }
}
