package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The lease keeper on plain monotonic readings: no clock, no channel. Members are named by strings. */
@Tag("unit")
class LeaseKeeperTests {

    private static final long SECOND = 1_000_000_000L;
    private static final long MILLI = 1_000_000L;
    private static final Duration LEASE = Duration.ofSeconds(3);

    private final LeaseKeeper<String> keeper = LeaseKeeper.withLease(LEASE);

    /** Makes the keeper a leader of three voters whose beat sent at {@code sentAt} two of them answered. */
    private void confirmLeadershipByABeatSentAt(long sentAt) {
        long round = keeper.beginBeat(sentAt, 2);
        keeper.onBeatAnswer(round, "leader", sentAt);
        assertThat(keeper.onBeatAnswer(round, "member", sentAt + 100 * MILLI)).isNotNull();
    }

    @Test
    void aGrantConfirmsTheLeaseUntilTheSendTimeOfItsRequestPlusTheLease() {
        assertThat(LeaseKeeper.holds(keeper.memberLeaseValidUntil(), 0)).as("never confirmed").isFalse();
        long request = keeper.renew(10 * SECOND).requestNumber();

        boolean confirmed = keeper.onGrant(request, false, 10 * SECOND + 500 * MILLI);

        assertThat(confirmed).as("reported as just confirmed").isTrue();
        assertThat(keeper.memberLeaseValidUntil()).isEqualTo(13 * SECOND);
        assertThat(LeaseKeeper.holds(keeper.memberLeaseValidUntil(), 13 * SECOND - 1)).isTrue();
        assertThat(LeaseKeeper.holds(keeper.memberLeaseValidUntil(), 13 * SECOND)).isFalse();
    }

    @Test
    void aSecondGrantWhileTheLeaseHoldsRenewsItWithoutReportingAConfirmation() {
        keeper.onGrant(keeper.renew(10 * SECOND).requestNumber(), false, 10 * SECOND);
        long request = keeper.renew(11 * SECOND).requestNumber();

        assertThat(keeper.onGrant(request, false, 11 * SECOND)).isFalse();
        assertThat(keeper.memberLeaseValidUntil()).isEqualTo(14 * SECOND);
    }

    @Test
    void aGrantAnsweringAnOlderRequestThanTheLastConfirmedExtendsNothing() {
        long early = keeper.renew(10 * SECOND).requestNumber();
        long late = keeper.renew(11 * SECOND).requestNumber();
        keeper.onGrant(late, false, 11 * SECOND);

        keeper.onGrant(early, false, 12 * SECOND); // answered during a pause, sent before it

        assertThat(keeper.memberLeaseValidUntil()).isEqualTo(14 * SECOND);
    }

    @Test
    void aLeadersGrantToItselfLastsNoLongerThanItsLeaderLease() {
        confirmLeadershipByABeatSentAt(10 * SECOND);
        long request = keeper.renew(11 * SECOND).requestNumber();
        assertThat(keeper.grant("leader", 11 * SECOND)).isTrue();

        keeper.onGrant(request, true, 11 * SECOND);

        assertThat(keeper.memberLeaseValidUntil()).as("capped at the beat's send time plus the lease")
                .isEqualTo(13 * SECOND);
    }

    @Test
    void aGrantFromAnotherLeaderIsNotCappedByThisNodesLeaderLease() {
        confirmLeadershipByABeatSentAt(10 * SECOND);
        long request = keeper.renew(11 * SECOND).requestNumber();

        keeper.onGrant(request, false, 11 * SECOND);

        assertThat(keeper.memberLeaseValidUntil()).isEqualTo(14 * SECOND);
    }

    @Test
    void anExpiredLeaseIsReportedOnceWithHowLongItWentUnconfirmed() {
        assertThat(keeper.renew(10 * SECOND).expired()).as("never held, so never expired").isFalse();
        keeper.onGrant(1, false, 10 * SECOND);
        assertThat(keeper.renew(12 * SECOND).expired()).isFalse();

        LeaseKeeper.Renewal lapsed = keeper.renew(13 * SECOND + 500 * MILLI);

        assertThat(lapsed.expired()).isTrue();
        assertThat(lapsed.unconfirmedForMillis()).isEqualTo(3_500);
        assertThat(keeper.renew(14 * SECOND).expired()).as("reported once").isFalse();
        assertThat(keeper.renew(15 * SECOND).expired()).isFalse();
    }

    @Test
    void renewalsAreNumberedInOrder() {
        assertThat(List.of(keeper.renew(0).requestNumber(), keeper.renew(1).requestNumber(),
                keeper.renew(2).requestNumber())).containsExactly(1L, 2L, 3L);
    }

    @Test
    void grantsForRequestNumbersOutsideTheRememberedWindowAreIgnored() {
        for (int i = 0; i <= LeaseKeeper.REMEMBERED_REQUESTS; i++) {
            keeper.renew(i * SECOND); // requests 1 to 17
        }
        long newest = LeaseKeeper.REMEMBERED_REQUESTS + 1;

        assertThat(keeper.onGrant(newest - LeaseKeeper.REMEMBERED_REQUESTS, false, 17 * SECOND))
                .as("forgotten request").isFalse();
        assertThat(keeper.onGrant(newest + 1, false, 17 * SECOND)).as("never sent").isFalse();
        assertThat(keeper.onGrant(0, false, 17 * SECOND)).as("never sent").isFalse();
        assertThat(keeper.memberLeaseValidUntil()).isEqualTo(Long.MIN_VALUE);

        keeper.onGrant(newest - LeaseKeeper.REMEMBERED_REQUESTS + 1, false, 17 * SECOND);
        assertThat(keeper.memberLeaseValidUntil()).as("the oldest remembered request counts: sent at 1 s")
                .isEqualTo(4 * SECOND);
    }

    @Test
    void aNewLeaderDecidesOnlyOnceAMajorityAnsweredOneOfItsBeats() {
        assertThat(keeper.leadershipConfirmed(10 * SECOND)).isFalse();
        long round = keeper.beginBeat(10 * SECOND, 2);

        assertThat(keeper.onBeatAnswer(round, "leader", 10 * SECOND)).as("one of three").isNull();
        assertThat(keeper.onBeatAnswer(round, "leader", 10 * SECOND)).as("the same member twice").isNull();
        assertThat(keeper.leadershipConfirmed(10 * SECOND)).isFalse();

        LeaseKeeper.BeatQuorum quorum = keeper.onBeatAnswer(round, "member", 10 * SECOND + 200 * MILLI);

        assertThat(quorum).isEqualTo(new LeaseKeeper.BeatQuorum(10 * SECOND, true));
        assertThat(keeper.onBeatAnswer(round, "third", 10 * SECOND + 300 * MILLI)).as("past the majority").isNull();
        assertThat(keeper.leadershipConfirmed(13 * SECOND - 1)).as("as of the beat's send time").isTrue();
        assertThat(keeper.leadershipConfirmed(13 * SECOND)).isFalse();
    }

    @Test
    void aLaterQuorumWhileLeadingRenewsWithoutReportingANewConfirmation() {
        confirmLeadershipByABeatSentAt(10 * SECOND);
        long round = keeper.beginBeat(11 * SECOND, 2);
        keeper.onBeatAnswer(round, "leader", 11 * SECOND);

        assertThat(keeper.onBeatAnswer(round, "member", 11 * SECOND))
                .isEqualTo(new LeaseKeeper.BeatQuorum(11 * SECOND, false));
        assertThat(keeper.leadershipConfirmed(13 * SECOND)).isTrue();
    }

    @Test
    void aLeaderLeaseThatRanOutIsReportedConfirmedAgainByTheNextQuorum() {
        confirmLeadershipByABeatSentAt(10 * SECOND);
        long round = keeper.beginBeat(20 * SECOND, 2);
        keeper.onBeatAnswer(round, "leader", 20 * SECOND);

        assertThat(keeper.onBeatAnswer(round, "member", 20 * SECOND).leadershipJustConfirmed()).isTrue();
    }

    @Test
    void anUnconfirmedLeaderGrantsNoLease() {
        assertThat(keeper.grant("member", 10 * SECOND)).isFalse();
        assertThat(keeper.surelyLapsed("member", 20 * SECOND)).as("no grant recorded").isFalse();
    }

    @Test
    void aGrantOlderThanALeaseMeansTheMembersLeaseSurelyLapsed() {
        confirmLeadershipByABeatSentAt(19 * SECOND);
        assertThat(keeper.grant("member", 20 * SECOND)).isTrue();

        assertThat(keeper.surelyLapsed("member", 23 * SECOND - 1)).isFalse();
        assertThat(keeper.renewedWithinLease("member", 23 * SECOND - 1)).isTrue();
        assertThat(keeper.surelyLapsed("member", 23 * SECOND)).isTrue();
        assertThat(keeper.renewedWithinLease("member", 23 * SECOND)).isFalse();
        assertThat(keeper.surelyLapsed("stranger", 60 * SECOND)).as("never granted by this leader").isFalse();
    }

    @Test
    void aMemberIsRenewedSteadilyOnlyAfterALeaseOfGrantsWithoutALapseBetweenThem() {
        for (long t = 20; t <= 22; t++) {
            confirmLeadershipByABeatSentAt(t * SECOND - 500 * MILLI);
            assertThat(keeper.grant("member", t * SECOND)).isTrue();
        }
        assertThat(keeper.renewedSteadily("member", 22 * SECOND)).as("grants over 2 s of a 3 s lease").isFalse();
        assertThat(keeper.renewedSteadily("member", 23 * SECOND + 100 * MILLI))
                .as("its link failed after 22 s: a lease after the first grant, but no grant for 1.1 s").isFalse();
        confirmLeadershipByABeatSentAt(22 * SECOND + 500 * MILLI);
        keeper.grant("member", 23 * SECOND);
        assertThat(keeper.renewedSteadily("member", 23 * SECOND)).isTrue();
        assertThat(keeper.renewedSteadily("member", 24 * SECOND + 500 * MILLI)).as("no grant for half a lease").isFalse();

        // its link goes down for longer than a lease, then a grant again: a new run starts
        confirmLeadershipByABeatSentAt(26 * SECOND);
        keeper.grant("member", 26 * SECOND + 500 * MILLI);
        assertThat(keeper.renewedWithinLease("member", 27 * SECOND)).isTrue();
        assertThat(keeper.renewedSteadily("member", 27 * SECOND)).as("renewed, but only since 26.5 s").isFalse();
        assertThat(keeper.renewedSteadily("stranger", 60 * SECOND)).isFalse();

        keeper.notLeading();
        assertThat(keeper.renewedSteadily("member", 27 * SECOND)).isFalse();
    }

    @Test
    void aLeaderForgetsItsGrantsWhenItStopsLeading() {
        confirmLeadershipByABeatSentAt(19 * SECOND);
        keeper.grant("member", 20 * SECOND);

        keeper.notLeading();

        assertThat(keeper.surelyLapsed("member", 30 * SECOND)).isFalse();
        assertThat(keeper.renewedWithinLease("member", 20 * SECOND)).isFalse();
        assertThat(keeper.lapsedWhileMember("member", "member-address", 30 * SECOND)).isFalse();
    }

    @Test
    void aMemberCountsAsLapsedOnlyAfterALeasePlusTheGraceWithoutAGrant() {
        long patience = LEASE.plus(LeaseKeeper.LEASE_LAPSE_GRACE).toNanos(); // 4 s
        keeper.viewChanged(Set.of("leader-address", "member-address"), 0);
        confirmLeadershipByABeatSentAt(0);
        keeper.grant("member", SECOND);
        // a majority still answers this leader, by a beat sent after the member's patience ran out
        confirmLeadershipByABeatSentAt(SECOND + patience);

        assertThat(keeper.lapsedWhileMember("member", "member-address", SECOND + patience - 1)).isFalse();
        assertThat(keeper.lapsedWhileMember("member", "member-address", SECOND + patience)).isTrue();
        assertThat(keeper.lapsedWhileMember("member", null, SECOND + patience)).as("not a member").isFalse();
    }

    @Test
    void aMemberDoesNotLapseBeforeItWasInTheViewForALeasePlusTheGrace() {
        long patience = LEASE.plus(LeaseKeeper.LEASE_LAPSE_GRACE).toNanos();
        keeper.viewChanged(Set.of("leader-address"), 0);
        confirmLeadershipByABeatSentAt(0);
        keeper.grant("member", SECOND);
        // the member left and came back (a healed split keeps its address): its old grant does not count yet
        for (long t = 2; t <= 10; t += 2) {
            confirmLeadershipByABeatSentAt(t * SECOND); // a majority answered this leader all along
        }
        keeper.viewChanged(Set.of("leader-address", "member-address"), 10 * SECOND);
        confirmLeadershipByABeatSentAt(12 * SECOND);

        assertThat(keeper.lapsedWhileMember("member", "member-address", 12 * SECOND)).isFalse();
        assertThat(keeper.lapsedWhileMember("member", "member-address", 10 * SECOND + patience)).isTrue();
    }

    @Test
    void aLeaderUnconfirmedForALeaseForgetsItsGrantsOnceConfirmedAgain() {
        long patience = LEASE.plus(LeaseKeeper.LEASE_LAPSE_GRACE).toNanos();
        keeper.viewChanged(Set.of("leader-address", "member-address"), 0);
        confirmLeadershipByABeatSentAt(0);
        keeper.grant("member", SECOND);
        // paused from 1 s to 12 s: its leader lease ran out at 3 s, and the member renewed with an interim leader
        confirmLeadershipByABeatSentAt(12 * SECOND);

        assertThat(keeper.lapsedWhileMember("member", "member-address", 12 * SECOND + patience)).isFalse();
        assertThat(keeper.surelyLapsed("member", 12 * SECOND)).isFalse();
        // its own grants count again
        keeper.grant("member", 13 * SECOND);
        confirmLeadershipByABeatSentAt(13 * SECOND + patience);
        assertThat(keeper.lapsedWhileMember("member", "member-address", 13 * SECOND + patience)).isTrue();
    }

    @Test
    void aLeaderUnconfirmedForLessThanALeaseKeepsItsGrants() {
        keeper.viewChanged(Set.of("leader-address", "member-address"), 0);
        confirmLeadershipByABeatSentAt(0);
        keeper.grant("member", SECOND);
        // its beats were answered late (a busy machine): unconfirmed from 3 s to 5 s, too short for another leader
        confirmLeadershipByABeatSentAt(5 * SECOND);

        assertThat(keeper.surelyLapsed("member", 5 * SECOND)).isTrue();
    }

    @Test
    void aLeaderNoMajorityAnsweredSinceTheLapseSuspendsNobody() {
        long patience = LEASE.plus(LeaseKeeper.LEASE_LAPSE_GRACE).toNanos();
        keeper.viewChanged(Set.of("leader-address", "member-address"), 0);
        confirmLeadershipByABeatSentAt(0);
        keeper.grant("member", SECOND);
        // cut off: its last answered beat precedes the member's lapse, so every member merely looks lapsed
        confirmLeadershipByABeatSentAt(SECOND + patience - 1);

        assertThat(keeper.lapsedWhileMember("member", "member-address", 10 * SECOND)).isFalse();
    }

    /**
     * Makes the keeper lead {@code leader}, {@code member} and {@code other} (in the view from 0), beating every
     * quarter lease from 0 to {@code until}; leader and other answer each beat 10 ms after it was sent, member
     * {@code memberDelay.applyAsLong(sentAt)} after (negative: not at all).
     */
    private void beatUntil(long until, java.util.function.LongUnaryOperator memberDelay) {
        keeper.viewChanged(List.of("leader", "member", "other"), 0);
        beat(0, until, memberDelay);
    }

    /** Beats of {@link #beatUntil} sent from {@code from} to {@code until}. */
    private void beat(long from, long until, java.util.function.LongUnaryOperator memberDelay) {
        for (long sent = from; sent <= until; sent += LEASE.toNanos() / 4) {
            long round = keeper.beginBeat(sent, 2);
            keeper.onBeatAnswer(round, "leader", sent + 10 * MILLI);
            keeper.onBeatAnswer(round, "other", sent + 10 * MILLI);
            long delay = memberDelay.applyAsLong(sent);
            if (delay >= 0) {
                keeper.onBeatAnswer(round, "member", sent + delay);
            }
        }
    }

    @Test
    void aMemberWhoseBeatAnswersLagWhileAMajoritysDoNotIsRefusedOnceTheLagWindowPassedSinceItsLastPromptAnswer() {
        // prompt up to the beat sent at 750 ms, then every answer 2 s late (a congested link)
        beatUntil(6 * SECOND, sent -> sent <= 750 * MILLI ? 10 * MILLI : 2 * SECOND);
        assertThat(keeper.lagWindowNanos()).as("half the 3 s lease and the 500 ms prompt bound").isEqualTo(2 * SECOND);

        assertThat(keeper.promptness("member", "member", 2, 2700 * MILLI)).isEqualTo(LeaseKeeper.Promptness.PROMPT);
        assertThat(keeper.promptness("member", "member", 2, 2800 * MILLI))
                .isEqualTo(LeaseKeeper.Promptness.STARTS_LAGGING);
        assertThat(keeper.promptness("member", "member", 2, 4 * SECOND)).isEqualTo(LeaseKeeper.Promptness.LAGGING);
        assertThat(keeper.promptness("other", "other", 2, 4 * SECOND)).isEqualTo(LeaseKeeper.Promptness.PROMPT);
    }

    @Test
    void aRefusedMemberLapsesALeaseAfterItsLastGrantWithoutTheGrace() {
        beatUntil(6 * SECOND, sent -> sent <= 750 * MILLI ? 10 * MILLI : 2 * SECOND);
        keeper.grant("member", 2 * SECOND);
        LeaseKeeper<String> granting = LeaseKeeper.withLease(LEASE); // the same history, without the refusal
        granting.viewChanged(List.of("leader", "member", "other"), 0);
        long round = granting.beginBeat(5250 * MILLI, 2);
        granting.onBeatAnswer(round, "leader", 5260 * MILLI);
        granting.onBeatAnswer(round, "other", 5260 * MILLI);
        granting.grant("member", 2 * SECOND);

        keeper.promptness("member", "member", 2, 4 * SECOND);

        assertThat(keeper.lapsedWhileMember("member", "member", 5300 * MILLI))
                .as("a lease after the last grant, confirmed by the majority's beat at 5.25 s").isTrue();
        assertThat(granting.lapsedWhileMember("member", "member", 5300 * MILLI))
                .as("not refused: it may still renew within the grace").isFalse();
    }

    @Test
    void aMemberThatLagsAndAsksNothingLapsesALeaseAfterItsLastGrantToo() {
        // its requests are lost on the congested link rather than late: lagging is enough, no refusal needed
        beatUntil(6 * SECOND, sent -> sent <= 750 * MILLI ? 10 * MILLI : -1);
        keeper.grant("member", 2 * SECOND);

        assertThat(keeper.lapsedWhileMember("member", "member", 5300 * MILLI)).isTrue();
    }

    @Test
    void aGrantAfterTheLinkRecoveredEndsTheRefusalAndBringsTheGraceBack() {
        // late from 1.5 s to 3 s, prompt again from 3.75 s
        beatUntil(3 * SECOND, sent -> sent >= 1500 * MILLI ? 2 * SECOND : 10 * MILLI);
        keeper.grant("member", SECOND);
        assertThat(keeper.promptness("member", "member", 2, 3300 * MILLI)).isEqualTo(LeaseKeeper.Promptness.STARTS_LAGGING);

        beat(3750 * MILLI, 6 * SECOND, sent -> 10 * MILLI);
        assertThat(keeper.promptness("member", "member", 2, 3800 * MILLI)).isEqualTo(LeaseKeeper.Promptness.PROMPT);
        keeper.grant("member", 3800 * MILLI);

        assertThat(keeper.lapsedWhileMember("member", "member", 6900 * MILLI)).as("a lease, but not the grace").isFalse();
        assertThat(keeper.promptness("member", "member", 2, 4 * SECOND)).isEqualTo(LeaseKeeper.Promptness.PROMPT);
    }

    @Test
    void oneLateOrLostAnswerIsForgiven() {
        beatUntil(6 * SECOND, sent -> sent == 1500 * MILLI ? -1 : sent == 3750 * MILLI ? 2 * SECOND : 10 * MILLI);

        for (long now = 0; now <= 6 * SECOND; now += 100 * MILLI) {
            assertThat(keeper.promptness("member", "member", 2, now)).as("at %d ms", now / MILLI)
                    .isEqualTo(LeaseKeeper.Promptness.PROMPT);
        }
    }

    @Test
    void whenMostMembersLagTheLeaderRefusesNobody() {
        // the leader's own link (or machine) is the likelier fault: refusing would take every lease
        keeper.viewChanged(List.of("leader", "member", "other"), 0);
        for (long sent = 0; sent <= 6 * SECOND; sent += LEASE.toNanos() / 4) {
            long round = keeper.beginBeat(sent, 2);
            keeper.onBeatAnswer(round, "leader", sent + 10 * MILLI);
            keeper.onBeatAnswer(round, "member", sent + 2 * SECOND);
            keeper.onBeatAnswer(round, "other", sent + 2 * SECOND);
        }

        assertThat(keeper.promptness("member", "member", 2, 5 * SECOND)).isEqualTo(LeaseKeeper.Promptness.PROMPT);
        assertThat(keeper.promptness("other", "other", 2, 5 * SECOND)).isEqualTo(LeaseKeeper.Promptness.PROMPT);
    }

    @Test
    void aMemberIsNotRefusedBeforeALagWindowInTheViewAndUnderThisLeadersBeats() {
        keeper.viewChanged(List.of("leader", "member", "other"), 0);
        for (long sent = 10 * SECOND; sent <= 16 * SECOND; sent += LEASE.toNanos() / 4) { // this node leads from 10 s
            long round = keeper.beginBeat(sent, 2);
            keeper.onBeatAnswer(round, "leader", sent + 10 * MILLI);
            keeper.onBeatAnswer(round, "other", sent + 10 * MILLI);
        }

        assertThat(keeper.promptness("member", "member", 2, 11900 * MILLI)).isEqualTo(LeaseKeeper.Promptness.PROMPT);
        assertThat(keeper.promptness("member", "member", 2, 12 * SECOND))
                .isEqualTo(LeaseKeeper.Promptness.STARTS_LAGGING);
        assertThat(keeper.promptness(null, "member", 2, 13 * SECOND))
                .as("not announced yet: never refused").isEqualTo(LeaseKeeper.Promptness.PROMPT);
    }

    @Test
    void aMemberSwitchesToANewCoordinatorWhileTheOldOneIsInItsViewOnlyAfterAFullLease() {
        Set<String> view = Set.of("old", "new");
        assertThat(keeper.answersBeat("old", view::contains, 10 * SECOND)).as("first coordinator").isTrue();
        assertThat(keeper.answersBeat("new", view::contains, 12 * SECOND)).isFalse();
        assertThat(keeper.answersBeat("old", view::contains, 12 * SECOND)).as("the same one").isTrue();

        assertThat(keeper.answersBeat("new", view::contains, 15 * SECOND - 1)).isFalse();
        assertThat(keeper.answersBeat("new", view::contains, 15 * SECOND)).isTrue();
        assertThat(keeper.answersBeat("old", view::contains, 15 * SECOND)).as("switched to the new one").isFalse();
    }

    @Test
    void aMemberSwitchesAtOnceWhenTheOldCoordinatorLeftItsView() {
        keeper.answersBeat("old", member -> true, 10 * SECOND);

        assertThat(keeper.answersBeat("new", Set.of("new")::contains, 10 * SECOND + MILLI)).isTrue();
    }

    @Test
    void aCoordinatorIsUnresponsiveOnceTheLeaseLapsedAGraceAgoAndRequestsWentUnansweredForALease() {
        keeper.viewChanged(List.of("leader", "self"), 0);
        long granted = keeper.renew(0).requestNumber();
        keeper.onGrant(granted, false, 10 * MILLI); // holds until 3 s
        long grace = LeaseKeeper.LEASE_LAPSE_GRACE.toNanos();
        for (long t = SECOND * 3 / 4; t <= 3 * SECOND + grace; t += SECOND * 3 / 4) { // the leader hears nothing more
            keeper.renew(t);
        }
        assertThat(keeper.coordinatorUnresponsive(3 * SECOND + grace - 1)).as("the grace has not passed").isFalse();
        assertThat(keeper.coordinatorUnresponsive(3 * SECOND + grace))
                .as("lapsed a grace ago, unanswered since 0.75 s").isTrue();
    }

    @Test
    void aNodeBackFromAPauseAsksForALeaseBeforeItCallsTheCoordinatorUnresponsive() {
        keeper.viewChanged(List.of("leader", "self"), 0);
        keeper.onGrant(keeper.renew(0).requestNumber(), false, 10 * MILLI);
        long woke = 20 * SECOND; // paused from 0.5 s to 20 s: its lease lapsed long ago, but it asked nobody meanwhile
        keeper.renew(woke);
        assertThat(keeper.coordinatorUnresponsive(woke + LEASE.toNanos() - 1)).isFalse();
        assertThat(keeper.coordinatorUnresponsive(woke + LEASE.toNanos())).as("a whole lease unanswered").isTrue();
        keeper.onGrant(keeper.renew(woke + SECOND).requestNumber(), false, woke + 2 * SECOND);
        assertThat(keeper.coordinatorUnresponsive(woke + LEASE.toNanos())).as("a grant answers").isFalse();
    }

    @Test
    void aNodeThatNeverHeldALeaseCallsNoCoordinatorUnresponsive() {
        keeper.viewChanged(List.of("leader", "self"), 0);
        for (long t = 0; t <= 60 * SECOND; t += SECOND) { // a slow first map: no lease yet
            keeper.renew(t);
        }
        assertThat(keeper.coordinatorUnresponsive(60 * SECOND)).isFalse();
    }

    @Test
    void aNewCoordinatorIsGivenAWholeLeaseToAnswerWhateverTheOldOneDid() {
        keeper.viewChanged(List.of("leader", "self"), 0);
        keeper.onGrant(keeper.renew(0).requestNumber(), false, 10 * MILLI);
        for (long t = SECOND; t <= 10 * SECOND; t += SECOND) {
            keeper.renew(t);
        }
        assertThat(keeper.coordinatorUnresponsive(10 * SECOND)).isTrue();
        keeper.viewChanged(List.of("next", "self"), 10 * SECOND);
        keeper.renew(10 * SECOND);
        assertThat(keeper.coordinatorUnresponsive(10 * SECOND + LEASE.toNanos() - 1)).isFalse();
        keeper.viewChanged(List.of("next", "self", "joiner"), 11 * SECOND); // same coordinator: the wait goes on
        assertThat(keeper.coordinatorUnresponsive(10 * SECOND + LEASE.toNanos())).isTrue();
    }

    @Test
    void withoutALeaseOwnersAlwaysHoldAndLeadersNeedNoConfirmation() {
        LeaseKeeper<String> none = LeaseKeeper.withoutLease();

        assertThat(none.enabled()).isFalse();
        assertThat(LeaseKeeper.holds(none.memberLeaseValidUntil(), Long.MIN_VALUE)).isTrue();
        assertThat(LeaseKeeper.holds(none.memberLeaseValidUntil(), -5 * SECOND)).as("a negative monotonic reading")
                .isTrue();
        assertThat(none.leadershipConfirmed(0)).isTrue();
        assertThat(none.surelyLapsed("member", 60 * SECOND)).isFalse();
        assertThat(none.renewedWithinLease("member", 0)).isFalse();
        assertThat(none.lapsedWhileMember("member", "member-address", 60 * SECOND)).isFalse();
        assertThatThrownBy(() -> none.renew(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("renew needs an owner lease");
        assertThatThrownBy(() -> none.grant("member", 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aMissingOrNonPositiveLeaseIsRefused() {
        assertThatThrownBy(() -> LeaseKeeper.withLease(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LeaseKeeper.withLease(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive");
    }
}
