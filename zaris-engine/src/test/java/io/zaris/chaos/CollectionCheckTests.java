package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.zaris.model.AckMode;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The checks of the collection operations check themselves: synthetic histories of sets of unique adds, counters in a
 * hash field and a sorted-set score, and lists used as queues, each hiding one defect, must each be flagged with that
 * kind of finding, and clean histories full of legal corner cases must pass. No cluster, no clock.
 */
@Tag("unit")
class CollectionCheckTests {

    private static final String SET = "set-0";
    private static final String HASH = "hctr-0";
    private static final String SCORE = "zctr-0";
    private static final String QUEUE = "queue-0";
    private static final int PRODUCER = 20;
    private static final int CONSUMER = 21;

    @Test
    void aCleanSetHistoryPasses() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .setRead(4, SET, Set.of(), 1, 2)
                .setAdd(13, SET, "s13:0", 3, 4, Reply.OK)
                .setAdd(14, SET, "s14:0", 5, 6, Reply.TIMEOUT)
                // a read overlapping an add may see it or not
                .setAdd(13, SET, "s13:1", 7, 12, Reply.OK)
                .setRead(4, SET, Set.of("s13:0"), 8, 9)
                .setRead(5, SET, Set.of("s13:0", "s13:1"), 8, 9)
                // the indeterminate add was never seen, so it need not be there
                .setAdd(14, SET, "s14:1", 13, 14, Reply.TRANSPORT_NOT_SENT)
                .setRead(4, SET, Set.of("s13:0", "s13:1"), 15, 16)
                .setReadAfterHealing(SET, Set.of("s13:0", "s13:1"), 100, 101)
                .build();

        Verdict verdict = Checker.check(history);

        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.collections().setAddsAcknowledged()).isEqualTo(2);
        assertThat(verdict.collections().setReadsAnswered()).isEqualTo(4);
        assertThat(verdict.tally().keysReadAfterHealing()).isEqualTo(1);
    }

    @Test
    void anAcknowledgedAddMissingAfterHealingIsALostAdd() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .setAdd(13, SET, "s13:0", 1, 2, Reply.OK)
                .setAdd(13, SET, "s13:1", 3, 4, Reply.OK)
                .setReadAfterHealing(SET, Set.of("s13:0"), 100, 101)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.LOST_SET_ADD);
    }

    @Test
    void anAddOfUnknownOutcomeThatAReadSawMustStay() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .setAdd(13, SET, "s13:0", 1, 2, Reply.TIMEOUT)
                .setRead(4, SET, Set.of("s13:0"), 3, 4)
                .setReadAfterHealing(SET, Set.of(), 100, 101)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.LOST_SET_ADD);
    }

    @Test
    void aReadDuringTheRunMissingAnAcknowledgedAddIsStale() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .setAdd(13, SET, "s13:0", 1, 2, Reply.OK)
                .setRead(4, SET, Set.of(), 3, 4)
                .setReadAfterHealing(SET, Set.of("s13:0"), 100, 101)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.STALE_READ);
    }

    @Test
    void aMemberNoAddCouldHavePutThereIsAnImpossibleRead() {
        HistoryBuilder refused = new HistoryBuilder(AckMode.SYNC)
                .setAdd(13, SET, "s13:0", 1, 2, Reply.TRANSPORT_NOT_SENT)
                .setReadAfterHealing(SET, Set.of("s13:0"), 100, 101);
        HistoryBuilder neverAdded = new HistoryBuilder(AckMode.SYNC)
                .setAdd(13, SET, "s13:0", 1, 2, Reply.OK)
                .setReadAfterHealing(SET, Set.of("s13:0", "s99:0"), 100, 101);
        HistoryBuilder readBeforeTheAdd = new HistoryBuilder(AckMode.SYNC)
                .setRead(4, SET, Set.of("s13:0"), 1, 2)
                .setAdd(13, SET, "s13:0", 3, 4, Reply.OK)
                .setReadAfterHealing(SET, Set.of("s13:0"), 100, 101);

        assertOnly(Checker.check(refused.build()), Finding.Kind.IMPOSSIBLE_READ);
        assertOnly(Checker.check(neverAdded.build()), Finding.Kind.IMPOSSIBLE_READ);
        assertOnly(Checker.check(readBeforeTheAdd.build()), Finding.Kind.IMPOSSIBLE_READ);
    }

    @Test
    void aSetNoReadAfterHealingAnsweredIsUnchecked() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .setAdd(13, SET, "s13:0", 1, 2, Reply.OK)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.UNREADABLE_AFTER_HEALING);
    }

    @Test
    void aMemberAddedTwiceBreaksTheWorkloadsInvariant() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .setAdd(13, SET, "s13:0", 1, 2, Reply.OK)
                .setAdd(13, SET, "s13:0", 3, 4, Reply.OK)
                .build();

        assertThatIllegalArgumentException().isThrownBy(() -> Checker.check(history)).withMessageContaining("added twice");
    }

    @Test
    void cleanHashFieldAndScoreCountersPass() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .increment(8, HASH, Op.Increment.Target.HASH_FIELD, 5, 5, 1, 2)
                .increment(9, HASH, Op.Increment.Target.HASH_FIELD, 7, 12, 3, 4)
                .read(4, HASH, "12", 5, 6)
                .readAfterHealing(HASH, "12", 100, 101)
                .increment(8, SCORE, Op.Increment.Target.SORTED_SET_SCORE, 3, 3, 1, 2)
                .increment(9, SCORE, Op.Increment.Target.SORTED_SET_SCORE, 4, 7, 3, 4)
                .readAfterHealing(SCORE, "7", 100, 101)
                .build();

        Verdict verdict = Checker.check(history);

        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.collections().hashIncrementsAcknowledged()).isEqualTo(2);
        assertThat(verdict.collections().scoreIncrementsAcknowledged()).isEqualTo(2);
        assertThat(verdict.tally().incrementsAcknowledged()).as("string counters only").isZero();
    }

    @Test
    void aLostHashFieldIncrementIsFlagged() {
        History history = incrementsBy5And7ThenARead(AckMode.SYNC, HASH, Op.Increment.Target.HASH_FIELD, "5").build();

        assertOnly(Checker.check(history), Finding.Kind.LOST_INCREMENT);
    }

    @Test
    void underAsyncALostHashFieldIncrementIsExcusedOnlyWhenItsRevisionWasNamed() {
        HistoryBuilder named = incrementsBy5And7ThenARead(AckMode.ASYNC, HASH, Op.Increment.Target.HASH_FIELD, "5")
                .namedLoss(HASH, 2);
        HistoryBuilder otherNamed = incrementsBy5And7ThenARead(AckMode.ASYNC, HASH, Op.Increment.Target.HASH_FIELD, "5")
                .namedLoss(HASH, 1);

        Verdict excused = Checker.check(named.build());
        assertThat(excused.findings()).isEmpty();
        assertThat(excused.excused()).isNotEmpty()
                .allSatisfy(finding -> assertThat(finding.kind()).isEqualTo(Finding.Kind.LOST_INCREMENT));
        assertOnly(Checker.check(otherNamed.build()), Finding.Kind.LOST_INCREMENT);
    }

    @Test
    void aLostScoreIncrementIsFlagged() {
        History history = incrementsBy5And7ThenARead(AckMode.SYNC, SCORE, Op.Increment.Target.SORTED_SET_SCORE, "7").build();

        assertOnly(Checker.check(history), Finding.Kind.LOST_INCREMENT);
    }

    /** Two acknowledged increments of {@code key} (by 5, then by 7: 12 in all), then a read after healing of {@code read}. */
    private static HistoryBuilder incrementsBy5And7ThenARead(AckMode ack, String key, Op.Increment.Target target, String read) {
        return new HistoryBuilder(ack)
                .increment(8, key, target, 5, 5, 1, 2)
                .increment(9, key, target, 7, 12, 3, 4)
                .readAfterHealing(key, read, 100, 101);
    }

    @Test
    void aCleanQueueHistoryPasses() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .pop(CONSUMER, QUEUE, null, 1, 2)
                .push(PRODUCER, QUEUE, "q20:0", 3, 4, Reply.OK)
                .push(PRODUCER, QUEUE, "q20:1", 5, 6, Reply.TIMEOUT)
                .push(PRODUCER, QUEUE, "q20:2", 7, 8, Reply.OK)
                .push(PRODUCER, QUEUE, "q20:3", 9, 10, Reply.TRANSPORT_NOT_SENT)
                .pop(CONSUMER, QUEUE, "q20:0", 11, 12)
                // the indeterminate push was applied late, after the next one: allowed
                .pop(CONSUMER, QUEUE, "q20:2", 13, 14)
                .pop(CONSUMER, QUEUE, "q20:1", 15, 16)
                .pop(CONSUMER, QUEUE, null, 17, 18)
                .push(PRODUCER, QUEUE, "q20:4", 19, 20, Reply.OK)
                .push(PRODUCER, QUEUE, "q20:5", 21, 22, Reply.OK)
                .push(PRODUCER, QUEUE, "q20:6", 23, 24, Reply.OK)
                // took q20:4 unseen
                .failedPop(CONSUMER, QUEUE, 25, 26, Reply.TIMEOUT)
                .pop(CONSUMER, QUEUE, "q20:5", 27, 28)
                .listReadAfterHealing(QUEUE, List.of("q20:6"), 100, 101)
                .build();

        Verdict verdict = Checker.check(history);

        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.collections().queues()).isEqualTo(new QueueCheck.Counts(5, 4, 2, 1, 1));
    }

    @Test
    void anElementPoppedTwiceIsADuplicatePop() {
        HistoryBuilder twice = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .pop(CONSUMER, QUEUE, "q20:0", 3, 4)
                .pop(CONSUMER, QUEUE, "q20:0", 5, 6)
                .listReadAfterHealing(QUEUE, List.of(), 100, 101);
        HistoryBuilder poppedAndStillThere = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .pop(CONSUMER, QUEUE, "q20:0", 3, 4)
                .listReadAfterHealing(QUEUE, List.of("q20:0"), 100, 101);

        assertOnly(Checker.check(twice.build()), Finding.Kind.DUPLICATE_POP);
        assertOnly(Checker.check(poppedAndStillThere.build()), Finding.Kind.DUPLICATE_POP);
    }

    @Test
    void anAcknowledgedPushNeverSeenIsLost() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .push(PRODUCER, QUEUE, "q20:1", 3, 4, Reply.OK)
                .pop(CONSUMER, QUEUE, "q20:1", 5, 6)
                .listReadAfterHealing(QUEUE, List.of(), 100, 101)
                .build();

        // q20:1 came out first, so q20:0 is reported lost and nothing out of order is left to see
        assertOnly(Checker.check(history), Finding.Kind.LOST_PUSH);
    }

    @Test
    void aPopOfUnknownOutcomeCoversOneUnseenPushAtMostAndOnlyIfItCameAfterIt() {
        HistoryBuilder oneCoversOne = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .failedPop(CONSUMER, QUEUE, 3, 4, Reply.TIMEOUT)
                .listReadAfterHealing(QUEUE, List.of(), 100, 101);
        HistoryBuilder oneCannotCoverTwo = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .push(PRODUCER, QUEUE, "q20:1", 3, 4, Reply.OK)
                .failedPop(CONSUMER, QUEUE, 5, 6, Reply.TIMEOUT)
                .listReadAfterHealing(QUEUE, List.of(), 100, 101);
        HistoryBuilder popEndedBeforeThePush = new HistoryBuilder(AckMode.SYNC)
                .failedPop(CONSUMER, QUEUE, 1, 2, Reply.TIMEOUT)
                .push(PRODUCER, QUEUE, "q20:0", 3, 4, Reply.OK)
                .listReadAfterHealing(QUEUE, List.of(), 100, 101);
        HistoryBuilder refusedPopCoversNothing = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .failedPop(CONSUMER, QUEUE, 3, 4, Reply.TRANSPORT_NOT_SENT)
                .listReadAfterHealing(QUEUE, List.of(), 100, 101);

        assertThat(Checker.check(oneCoversOne.build()).findings()).isEmpty();
        assertOnly(Checker.check(oneCannotCoverTwo.build()), Finding.Kind.LOST_PUSH);
        assertOnly(Checker.check(popEndedBeforeThePush.build()), Finding.Kind.LOST_PUSH);
        assertOnly(Checker.check(refusedPopCoversNothing.build()), Finding.Kind.LOST_PUSH);
    }

    @Test
    void anElementPoppedBeforeOneAcknowledgedEarlierIsReordered() {
        HistoryBuilder byPops = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .push(PRODUCER, QUEUE, "q20:1", 3, 4, Reply.OK)
                .pop(CONSUMER, QUEUE, "q20:1", 5, 6)
                .pop(CONSUMER, QUEUE, "q20:0", 7, 8)
                .listReadAfterHealing(QUEUE, List.of(), 100, 101);
        HistoryBuilder inTheListLeft = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .push(PRODUCER, QUEUE, "q20:1", 3, 4, Reply.OK)
                .listReadAfterHealing(QUEUE, List.of("q20:1", "q20:0"), 100, 101);

        assertOnly(Checker.check(byPops.build()), Finding.Kind.REORDERED_POP);
        assertOnly(Checker.check(inTheListLeft.build()), Finding.Kind.REORDERED_POP);
    }

    @Test
    void aPopFindingTheListEmptyWhileAnAcknowledgedPushWaitsIsStale() {
        HistoryBuilder stale = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .pop(CONSUMER, QUEUE, null, 3, 4)
                .pop(CONSUMER, QUEUE, "q20:0", 5, 6)
                .listReadAfterHealing(QUEUE, List.of(), 100, 101);
        HistoryBuilder afterAPopOfUnknownOutcome = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .failedPop(CONSUMER, QUEUE, 3, 4, Reply.TIMEOUT)
                .pop(CONSUMER, QUEUE, null, 5, 6)
                .listReadAfterHealing(QUEUE, List.of(), 100, 101);

        assertOnly(Checker.check(stale.build()), Finding.Kind.STALE_READ);
        assertThat(Checker.check(afterAPopOfUnknownOutcome.build()).findings()).isEmpty();
    }

    @Test
    void anElementNoPushCouldHavePutThereIsAnImpossibleRead() {
        HistoryBuilder refusedPush = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.TRANSPORT_NOT_SENT)
                .pop(CONSUMER, QUEUE, "q20:0", 3, 4)
                .listReadAfterHealing(QUEUE, List.of(), 100, 101);
        HistoryBuilder neverPushed = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .listReadAfterHealing(QUEUE, List.of("q20:0", "q99:0"), 100, 101);

        assertOnly(Checker.check(refusedPush.build()), Finding.Kind.IMPOSSIBLE_READ);
        assertOnly(Checker.check(neverPushed.build()), Finding.Kind.IMPOSSIBLE_READ);
    }

    @Test
    void aListWithTwoConsumersBreaksTheWorkloadsInvariant() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .push(PRODUCER, QUEUE, "q20:0", 1, 2, Reply.OK)
                .pop(CONSUMER, QUEUE, "q20:0", 3, 4)
                .pop(CONSUMER + 1, QUEUE, null, 5, 6)
                .build();

        assertThatIllegalArgumentException().isThrownBy(() -> Checker.check(history))
                .withMessageContaining("more than one producer or consumer");
    }

    private static void assertOnly(Verdict verdict, Finding.Kind kind) {
        assertThat(verdict.findings()).as("findings").isNotEmpty()
                .allSatisfy(finding -> assertThat(finding.kind()).isEqualTo(kind));
        assertThat(verdict.passed()).isFalse();
    }
}
