package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.zaris.model.AckMode;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The checker checks itself: synthetic histories, each hiding one defect, must each be flagged with exactly
 * that kind of finding, and a clean history full of legal corner cases must pass. No cluster, no clock.
 */
@Tag("unit")
class CheckerTests {

    private static final String KEY = "w0-1";
    private static final String CAS = "cas-0";
    private static final String COUNTER = "ctr-0";

    @Test
    void aCleanHistoryPasses() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .read(4, KEY, null, 1, 2)
                .put(0, KEY, "w0:0", 10, 20)
                .read(4, KEY, "w0:0", 21, 22)
                .put(0, KEY, "w0:1", 30, 40, Reply.TIMEOUT, false)
                // the timed-out write may have taken effect, or not
                .read(4, KEY, "w0:1", 41, 42)
                .read(5, KEY, "w0:0", 43, 44)
                .put(0, KEY, "w0:2", 50, 60)
                // reads overlapping the write may see it or what came before
                .read(4, KEY, "w0:1", 55, 58)
                .read(5, KEY, "w0:2", 55, 58)
                .delete(0, KEY, 70, 80, Reply.OK)
                .read(5, KEY, null, 81, 82)
                .put(0, KEY, "w0:3", 90, 100, Reply.TRANSPORT_NOT_SENT, false)
                // refused on its last attempt, but an earlier attempt timed out: indeterminate
                .put(0, KEY, "w0:4", 110, 120, Reply.TRANSPORT_NOT_SENT, true)
                .read(4, KEY, "w0:4", 121, 122)
                .failedRead(5, KEY, 123, 124, Reply.TIMEOUT)
                .readAfterHealing(KEY, "w0:4", 200, 201)
                .read(4, "w1-0", null, 5, 6)
                .read(6, CAS, null, 10, 11)
                .cas(6, CAS, null, "c6:0", 12, 13, Reply.OK)
                .read(7, CAS, "c6:0", 14, 15)
                .cas(7, CAS, "c6:0", "c7:0", 16, 17, Reply.OK)
                .cas(6, CAS, "c6:0", "c6:1", 18, 19, Reply.CONFLICT)
                .read(6, CAS, "c7:0", 20, 21)
                .cas(6, CAS, "c7:0", "c6:2", 22, 23, Reply.TIMEOUT)
                .read(7, CAS, "c6:2", 24, 25)
                .cas(7, CAS, "c6:2", "c7:1", 26, 27, Reply.OK)
                .readAfterHealing(CAS, "c7:1", 200, 201)
                .increment(8, COUNTER, 5, 5, 10, 11)
                .failedIncrement(9, COUNTER, 100, 12, 13, Reply.TIMEOUT)
                .increment(8, COUNTER, 7, 112, 14, 15)
                .failedIncrement(9, COUNTER, 3, 16, 17, Reply.TRANSPORT_NOT_SENT)
                .read(4, COUNTER, "112", 18, 19)
                .readAfterHealing(COUNTER, "112", 200, 201)
                .build();

        Verdict verdict = Checker.check(history);

        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.passed()).isTrue();
        assertThat(verdict.tally()).isEqualTo(new Verdict.Tally(3, 2, 1, 3, 2, 14, 3, 3, 0));
        assertThat(verdict.replies(Reply.TIMEOUT)).isEqualTo(4);
        assertThat(verdict.retriedAttempts()).containsEntry(Reply.TIMEOUT, 1L);
    }

    @Test
    void aLostWriteIsFlagged() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .put(0, KEY, "w0:1", 3, 4)
                .readAfterHealing(KEY, "w0:0", 10, 11)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.LOST_WRITE);
    }

    @Test
    void aStaleReadByAnotherClientIsFlagged() {
        History history = HistoryBuilder.overwritten(KEY)
                .read(4, KEY, "w0:0", 5, 6)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.STALE_READ);
    }

    @Test
    void anOlderIndeterminateWriteDoesNotExcuseAStaleRead() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2, Reply.TIMEOUT, false)
                .put(0, KEY, "w0:1", 3, 4)
                .read(4, KEY, "w0:0", 5, 6)
                .readAfterHealing(KEY, "w0:1", 10, 11)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.STALE_READ);
    }

    @Test
    void anAbsentKeyIsALostWriteWhenTheOnlyLaterDeleteWasRefused() {
        HistoryBuilder refused = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .delete(0, KEY, 3, 4, Reply.TRANSPORT_NOT_SENT)
                .readAfterHealing(KEY, null, 10, 11);
        HistoryBuilder timedOut = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .delete(0, KEY, 3, 4, Reply.TIMEOUT)
                .readAfterHealing(KEY, null, 10, 11);

        assertOnly(Checker.check(refused.build()), Finding.Kind.LOST_WRITE);
        assertThat(Checker.check(timedOut.build()).findings()).isEmpty();
    }

    @Test
    void theValueOfARefusedWriteIsAnImpossibleRead() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .put(0, KEY, "w0:1", 3, 4, Reply.TRANSPORT_NOT_SENT, false)
                .readAfterHealing(KEY, "w0:1", 10, 11)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.IMPOSSIBLE_READ);
    }

    @Test
    void aValueReadBeforeItsWriteWasInvokedIsAnImpossibleRead() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .read(4, KEY, "w0:0", 1, 2)
                .put(0, KEY, "w0:0", 3, 4)
                .readAfterHealing(KEY, "w0:0", 10, 11)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.IMPOSSIBLE_READ);
    }

    @Test
    void aLostIncrementIsFlaggedEvenWhenIndeterminateIncrementsCoverItsAmount() {
        // +7 was acknowledged and lost; the two indeterminate increments were applied. The final 155 lies
        // between the acknowledged sum (12) and that plus the indeterminate ones (162), so a range check passes;
        // 155 - 12 = 143 is no sum of indeterminate deltas (100, 50), so the exact check does not.
        History history = new HistoryBuilder(AckMode.SYNC)
                .increment(8, COUNTER, 5, 5, 1, 2)
                .increment(8, COUNTER, 7, 12, 3, 4)
                .failedIncrement(9, COUNTER, 100, 5, 6, Reply.TIMEOUT)
                .failedIncrement(9, COUNTER, 50, 7, 8, Reply.TIMEOUT)
                .readAfterHealing(COUNTER, "155", 10, 11)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.LOST_INCREMENT);
    }

    @Test
    void anIncrementCountedAgainAfterALossIsFlagged() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .increment(8, COUNTER, 5, 5, 1, 2)
                .increment(8, COUNTER, 7, 12, 3, 4)
                .increment(9, COUNTER, 4, 9, 5, 6)
                .readAfterHealing(COUNTER, "9", 10, 11)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.LOST_INCREMENT);
    }

    @Test
    void anAsyncLostIncrementIsExcusedOnlyWhenThatIncrementWasNamedByRevision() {
        // +7 (revision 2) was acknowledged and lost; +4 (revision 3) counted again from 5, the value before it.
        Supplier<HistoryBuilder> lost = () -> new HistoryBuilder(AckMode.ASYNC)
                .increment(8, COUNTER, 5, 5, 1, 2)
                .increment(8, COUNTER, 7, 12, 3, 4)
                .read(9, COUNTER, "12", 4, 5)
                .increment(9, COUNTER, 4, 9, 5, 6)
                .readAfterHealing(COUNTER, "9", 10, 11);

        Verdict anotherNamed = Checker.check(lost.get().namedLoss(COUNTER, 3).build());
        Verdict thatNamed = Checker.check(lost.get().namedLoss(COUNTER, 2).build());

        assertOnly(anotherNamed, Finding.Kind.LOST_INCREMENT);
        assertThat(thatNamed.findings()).isEmpty();
        assertThat(thatNamed.excused()).extracting(Finding::kind).contains(Finding.Kind.LOST_INCREMENT);
    }

    @Test
    void aStaleCounterReadIsFlagged() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .increment(8, COUNTER, 5, 5, 1, 2)
                .read(4, COUNTER, "0", 3, 4)
                .readAfterHealing(COUNTER, "5", 10, 11)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.STALE_READ);
    }

    @Test
    void aLostCasUpdateIsFlagged() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .cas(6, CAS, null, "c6:0", 1, 2, Reply.OK)
                .cas(6, CAS, "c6:0", "c6:1", 3, 4, Reply.OK)
                .readAfterHealing(CAS, "c6:0", 10, 11)
                .build();

        Verdict verdict = Checker.check(history);

        assertOnly(verdict, Finding.Kind.LOST_CAS_UPDATE);
        assertThat(verdict.findings().get(0).detail()).contains("'c6:1'");
    }

    @Test
    void twoAcknowledgedCasUpdatesFromOneValueAreFlagged() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .cas(6, CAS, null, "c6:0", 1, 2, Reply.OK)
                .cas(6, CAS, "c6:0", "c6:1", 3, 4, Reply.OK)
                .cas(7, CAS, "c6:0", "c7:0", 5, 6, Reply.OK)
                .build();

        Verdict verdict = Checker.check(history);

        assertThat(verdict.of(Finding.Kind.LOST_CAS_UPDATE)).singleElement()
                .satisfies(finding -> assertThat(finding.detail()).contains("2 acknowledged updates replaced 'c6:0'"));
    }

    @Test
    void aStaleValueReadByTheCasLoopIsFlagged() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .cas(6, CAS, null, "c6:0", 1, 2, Reply.OK)
                .cas(6, CAS, "c6:0", "c6:1", 3, 4, Reply.OK)
                .read(7, CAS, "c6:0", 5, 6)
                .cas(7, CAS, "c6:0", "c7:0", 7, 8, Reply.CONFLICT)
                .readAfterHealing(CAS, "c6:1", 10, 11)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.STALE_READ);
    }

    @Test
    void anAsyncLossIsExcusedOnlyWhenEveryLostWriteWasNamedByKeyAndRevision() {
        // w0:1 (revision 2) and w0:2 (revision 3) were acknowledged and lost.
        HistoryBuilder lost = new HistoryBuilder(AckMode.ASYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .put(0, KEY, "w0:1", 3, 4)
                .put(0, KEY, "w0:2", 5, 6)
                .readAfterHealing(KEY, "w0:0", 10, 11);

        Verdict oneUnnamed = Checker.check(lost.namedLoss(KEY, 3).build());
        Verdict bothNamed = Checker.check(lost.namedLoss(KEY, 2).build());

        assertOnly(oneUnnamed, Finding.Kind.LOST_WRITE);
        assertThat(bothNamed.findings()).isEmpty();
        assertThat(bothNamed.excused()).singleElement().extracting(Finding::kind).isEqualTo(Finding.Kind.LOST_WRITE);
    }

    @Test
    void anAsyncLossNamedForAnotherWriteOfTheKeyExcusesNothing() {
        History history = new HistoryBuilder(AckMode.ASYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .put(0, KEY, "w0:1", 3, 4)
                .put(0, KEY, "w0:2", 5, 6)
                .readAfterHealing(KEY, "w0:1", 10, 11)
                .namedLoss(KEY, 1)
                .namedLoss("w0-2", 3)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.LOST_WRITE);
    }

    @Test
    void aNamedLossExcusesNothingUnderSync() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .put(0, KEY, "w0:1", 3, 4)
                .readAfterHealing(KEY, "w0:0", 10, 11)
                .namedLoss(KEY, 2)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.LOST_WRITE);
    }

    @Test
    void aSurfacedMigratingIsFlagged() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .put(0, KEY, "w0:1", 3, 4, Reply.MIGRATING, false)
                .readAfterHealing(KEY, "w0:0", 10, 11)
                .build();

        Verdict verdict = Checker.check(history);

        assertOnly(verdict, Finding.Kind.SURFACED_STATUS);
        assertThat(verdict.findings().get(0).detail()).startsWith("MIGRATING reached the application from a PUT");
        assertThat(verdict.replies()).containsEntry(Reply.MIGRATING, 1L);
    }

    @Test
    void everyStatusTheClientShouldResolveIsFlaggedWhenItSurfacesButTimeoutsAreOnlyCounted() {
        HistoryBuilder builder = new HistoryBuilder(AckMode.SYNC);
        List<Reply> resolvable = List.of(Reply.MOVED, Reply.OWNERSHIP_CHANGING, Reply.REPLICA_WRITE_REJECTED,
                Reply.MIGRATING, Reply.UNAVAILABLE);
        for (int i = 0; i < resolvable.size(); i++) {
            builder.failedRead(4, KEY, i, i + 1, resolvable.get(i));
        }
        builder.failedRead(4, KEY, 10, 11, Reply.TIMEOUT).failedRead(4, KEY, 12, 13, Reply.TRANSPORT)
                .failedRead(4, KEY, 14, 15, Reply.UNACKNOWLEDGED);

        Verdict verdict = Checker.check(builder.build());

        assertThat(verdict.of(Finding.Kind.SURFACED_STATUS)).hasSize(resolvable.size());
        assertThat(verdict.findings()).hasSize(resolvable.size());
        assertThat(verdict.replies(Reply.TIMEOUT, Reply.TRANSPORT, Reply.UNACKNOWLEDGED)).isEqualTo(3);
    }

    @Test
    void aWrittenKeyNoReadAnsweredAfterHealingIsFlagged() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.UNREADABLE_AFTER_HEALING);
    }

    @Test
    void aKeyWrittenByTwoClientsAtOnceIsRejectedAsMalformed() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 4)
                .put(1, KEY, "w1:0", 2, 3)
                .readAfterHealing(KEY, "w0:0", 10, 11)
                .build();

        assertThatIllegalArgumentException().isThrownBy(() -> Checker.check(history))
                .withMessageContaining("one client one write at a time");
    }

    private static void assertOnly(Verdict verdict, Finding.Kind kind) {
        assertThat(verdict.findings()).as("findings").isNotEmpty()
                .allSatisfy(finding -> assertThat(finding.kind()).isEqualTo(kind));
        assertThat(verdict.passed()).isFalse();
    }
}
