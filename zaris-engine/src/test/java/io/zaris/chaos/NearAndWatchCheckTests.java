package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.WatchGap;
import io.zaris.model.AckMode;
import io.zaris.placement.SegmentMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The checker's rules for near-cache reads and key watches, each shown to fail on a hand-made history that breaks it,
 * and to pass the legal cases next to it. Times are whole seconds of a virtual clock; the near-cache bound is
 * {@link NearReadStaleness#BOUND} (20 s).
 */
@Tag("unit")
class NearAndWatchCheckTests {

    private static final String KEY = "w0-1";
    private static final int SEGMENT = new SegmentMapper(HistoryBuilder.SEGMENTS).segmentOf(KEY);
    private static final int WATCHER = 20;

    @Test
    void theBoundIsTheMapPollIntervalPlusAnAttemptTimeout() {
        assertThat(NearReadStaleness.BOUND).hasSeconds(20);
    }

    @Test
    void aLocalReadStaleWithinTheBoundPassesAndIsMeasured() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .localRead(9, KEY, "w0:0", 3, 3)
                .put(0, KEY, "w0:1", 4, 5)
                .localRead(9, KEY, "w0:0", 11, 11)
                .localRead(9, KEY, "w0:1", 12, 12)
                .readAfterHealing(KEY, "w0:1", 100, 101)
                .build();

        Verdict verdict = Checker.check(history);

        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.nearReads()).isEqualTo(new Verdict.NearReads(3, 1, 0, 6_000_000_000L, 6_000_000_000L,
                20_000_000_000L));
    }

    @Test
    void aLocalReadStalerThanTheBoundIsFlagged() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .put(0, KEY, "w0:1", 4, 5)
                .localRead(9, KEY, "w0:0", 26, 26)
                .readAfterHealing(KEY, "w0:1", 100, 101)
                .build();

        Verdict verdict = Checker.check(history);

        assertOnly(verdict, Finding.Kind.STALE_NEAR_READ);
        assertThat(verdict.findings().get(0).detail()).contains("21.000 s after 'w0:1' was acknowledged, the bound is 20.000 s");
        assertThat(verdict.nearReads().staleBeyondBound()).isEqualTo(1);
    }

    @Test
    void stalenessCountsFromTheFirstAcknowledgedWriteTheValueMissedNotTheNewest() {
        // 'w0:1' was acknowledged at 5, 'w0:2' at 26: the read at 27 missed 'w0:1' for 22 s.
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .put(0, KEY, "w0:1", 4, 5)
                .put(0, KEY, "w0:2", 25, 26)
                .localRead(9, KEY, "w0:0", 27, 27)
                .readAfterHealing(KEY, "w0:2", 100, 101)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.STALE_NEAR_READ);
    }

    @Test
    void anUnacknowledgedWriteStartsNoStaleness() {
        // 'w0:1' timed out (it may or may not have applied), so only 'w0:2' (acknowledged at 30) is owed.
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .put(0, KEY, "w0:1", 4, 5, Reply.TIMEOUT, false)
                .put(0, KEY, "w0:2", 29, 30)
                .localRead(9, KEY, "w0:0", 40, 40)
                .readAfterHealing(KEY, "w0:2", 100, 101)
                .build();

        Verdict verdict = Checker.check(history);

        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.nearReads().maxStalenessNanos()).isEqualTo(10_000_000_000L);
    }

    @Test
    void aLocalReadIsHeldToTheOtherRulesAsAnyRead() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .localRead(9, KEY, "w0:9", 3, 3)
                .readAfterHealing(KEY, "w0:0", 100, 101)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.IMPOSSIBLE_READ);
    }

    @Test
    void aReadTheOwnerAnsweredGetsNoBound() {
        // Read 2 s after 'w0:1' was acknowledged, well within the near-cache bound.
        History history = HistoryBuilder.overwritten(KEY)
                .read(9, KEY, "w0:0", 6, 6)
                .build();

        assertOnly(Checker.check(history), Finding.Kind.STALE_READ);
    }

    @Test
    void aWatchHandedEveryChangeInOrderPasses() {
        History history = watched()
                .watched(WATCHER, KEY, 1, false, 2)
                .watched(WATCHER, KEY, 2, false, 4)
                .watched(WATCHER, KEY, 3, true, 6)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();

        Verdict verdict = Checker.check(history);

        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.watching()).isEqualTo(new Verdict.Watching(1, 4, java.util.Map.of(), 3, 3, 0));
    }

    @Test
    void aChangeSkippedWithoutANoticeIsFlagged() {
        History history = watched()
                .watched(WATCHER, KEY, 1, false, 2)
                .watched(WATCHER, KEY, 3, true, 6)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();

        Verdict verdict = Checker.check(history);

        assertOnly(verdict, Finding.Kind.WATCH_SKIPPED_CHANGE);
        assertThat(verdict.findings().get(0).detail()).contains("was never handed 'w0:1' (revision 2");
        assertThat(verdict.watching().missing()).isEqualTo(1);
    }

    @Test
    void aGapNoticeOfTheKeysSegmentCoveringTheRevisionExcusesTheSkip() {
        History covered = watched()
                .watched(WATCHER, KEY, 1, false, 2)
                .gap(WATCHER, WatchGap.Reason.HISTORY_LOST, SEGMENT, 1, 3, 6)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();
        History inverted = watched()
                .watched(WATCHER, KEY, 1, false, 2)
                .gap(WATCHER, WatchGap.Reason.HISTORY_LOST, SEGMENT, 7, 3, 6)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();
        History otherSegment = watched()
                .watched(WATCHER, KEY, 1, false, 2)
                .gap(WATCHER, WatchGap.Reason.HISTORY_LOST, (SEGMENT + 1) % HistoryBuilder.SEGMENTS, 1, 3, 6)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();
        History otherRange = watched()
                .watched(WATCHER, KEY, 1, false, 2)
                .gap(WATCHER, WatchGap.Reason.CHANGE_NOT_HEARD, SEGMENT, 2, 3, 6)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();

        assertThat(Checker.check(covered).findings()).isEmpty();
        assertThat(Checker.check(covered).watching().coveredByGap()).isEqualTo(1);
        assertThat(Checker.check(inverted).findings()).isEmpty();
        assertOnly(Checker.check(otherSegment), Finding.Kind.WATCH_SKIPPED_CHANGE);
        assertOnly(Checker.check(otherRange), Finding.Kind.WATCH_SKIPPED_CHANGE);
    }

    @Test
    void aHistoryLostNoticeCoversEveryRevisionUpToItsEndWhenTheWatchsPositionLayBesideTheNewOwnersHistory() {
        // The watch reached revision 3 through changes its old active pushed but never replicated; the new owner
        // wrote 'w0:1' under revision 2 of its own history. A notice "after 3" leaves that write skipped silently,
        // as a chaos run found; the client's notice now says "any change up to 4".
        History afterThePosition = watched()
                .watched(WATCHER, KEY, 1, false, 2)
                .gap(WATCHER, WatchGap.Reason.HISTORY_LOST, SEGMENT, 3, 4, 6)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();
        WatchGap notice = new WatchGap(WatchGap.Reason.HISTORY_LOST, SEGMENT, -1, 4, -1);
        History upToItsEnd = watched()
                .watched(WATCHER, KEY, 1, false, 2)
                .gap(WATCHER, notice.reason(), notice.segment(), notice.afterRevision(), notice.upToRevision(), 6)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();

        assertOnly(Checker.check(afterThePosition), Finding.Kind.WATCH_SKIPPED_CHANGE);
        assertThat(Checker.check(upToItsEnd).findings()).isEmpty();
        assertThat(Checker.check(upToItsEnd).watching().coveredByGap()).isEqualTo(1);
    }

    @Test
    void aTooSlowNoticeCoversOnlyWritesInvokedBeforeIt() {
        History after = watched()
                .watched(WATCHER, KEY, 1, false, 2)
                .gap(WATCHER, WatchGap.Reason.LISTENER_TOO_SLOW, -1, -1, -1, 6)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();
        History before = watched()
                .gap(WATCHER, WatchGap.Reason.LISTENER_TOO_SLOW, -1, -1, -1, 2)
                .watched(WATCHER, KEY, 1, false, 2)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();

        assertThat(Checker.check(after).findings()).isEmpty();
        assertOnly(Checker.check(before), Finding.Kind.WATCH_SKIPPED_CHANGE);
    }

    @Test
    void changesOfAKeyOutOfOrderOrTwiceAreFlagged() {
        History swapped = watched()
                .watched(WATCHER, KEY, 2, false, 4)
                .watched(WATCHER, KEY, 1, false, 4)
                .watched(WATCHER, KEY, 3, true, 6)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();
        History repeated = watched()
                .watched(WATCHER, KEY, 1, false, 2)
                .watched(WATCHER, KEY, 2, false, 4)
                .watched(WATCHER, KEY, 2, false, 5)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();

        assertOnly(Checker.check(swapped), Finding.Kind.WATCH_OUT_OF_ORDER);
        assertOnly(Checker.check(repeated), Finding.Kind.WATCH_OUT_OF_ORDER);
    }

    @Test
    void aLostHistoryNoticeOfTheKeysSegmentStartsItsOrderAfresh() {
        History history = watched()
                .watched(WATCHER, KEY, 1, false, 2)
                .watched(WATCHER, KEY, 2, false, 4)
                .watched(WATCHER, KEY, 3, true, 6)
                .gap(WATCHER, WatchGap.Reason.HISTORY_LOST, SEGMENT, 3, 1, 7)
                .watched(WATCHER, KEY, 2, false, 8)
                .watched(WATCHER, KEY, 4, false, 8)
                .build();

        assertThat(Checker.check(history).findings()).isEmpty();
    }

    @Test
    void onlyAcknowledgedWritesInvokedWhileTheWatchWasLiveAreOwed() {
        History history = new HistoryBuilder(AckMode.SYNC)
                .put(0, KEY, "w0:0", 1, 2)
                .watch(WATCHER, "w", 3, 50)
                .put(0, KEY, "w0:1", 4, 5, Reply.TIMEOUT, false)
                .put(0, KEY, "w0:2", 6, 7)
                .put(0, "cas-0", "x", 8, 9)
                .put(0, KEY, "w0:3", 60, 61)
                .watched(WATCHER, KEY, 2, false, 7)
                .readAfterHealing(KEY, "w0:3", 100, 101)
                .readAfterHealing("cas-0", "x", 100, 101)
                .build();

        Verdict verdict = Checker.check(history);

        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.watching().owed()).isEqualTo(1);
    }

    @Test
    void underAsyncASkippedWriteNamedLostIsExcused() {
        History named = new HistoryBuilder(AckMode.ASYNC)
                .watch(WATCHER, "w", 0, 50)
                .put(0, KEY, "w0:0", 1, 2)
                .namedLoss(KEY, 1)
                .build();
        History unnamed = new HistoryBuilder(AckMode.ASYNC)
                .watch(WATCHER, "w", 0, 50)
                .put(0, KEY, "w0:0", 1, 2)
                .build();

        Verdict excused = Checker.check(named);
        assertThat(excused.of(Finding.Kind.WATCH_SKIPPED_CHANGE)).isEmpty();
        assertThat(excused.excused()).extracting(Finding::kind).contains(Finding.Kind.WATCH_SKIPPED_CHANGE);
        assertThat(Checker.check(unnamed).of(Finding.Kind.WATCH_SKIPPED_CHANGE)).hasSize(1);
    }

    /** One watch of "w" from 0 to 50; PUT, PUT, DELETE, PUT of {@link #KEY} (revisions 1 to 4), read back. */
    private static HistoryBuilder watched() {
        return new HistoryBuilder(AckMode.SYNC)
                .watch(WATCHER, "w", 0, 50)
                .put(0, KEY, "w0:0", 1, 2)
                .put(0, KEY, "w0:1", 3, 4)
                .delete(0, KEY, 5, 6, Reply.OK)
                .put(0, KEY, "w0:2", 7, 8)
                .readAfterHealing(KEY, "w0:2", 100, 101);
    }

    private static void assertOnly(Verdict verdict, Finding.Kind kind) {
        assertThat(verdict.findings()).isNotEmpty();
        assertThat(verdict.findings()).extracting(Finding::kind).containsOnly(kind);
    }
}
