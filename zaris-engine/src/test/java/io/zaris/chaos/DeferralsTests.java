package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.chaos.Nemesis.Kind;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The report's count of deferred faults, on the nemesis' clock passed in (nanoseconds from an arbitrary start). */
@Tag("unit")
class DeferralsTests {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aFaultRetriedUntilItStartsIsOneDeferralAndItsWaitIsMeasured() {
        Deferrals deferrals = new Deferrals();

        deferrals.deferred(Kind.KILL, 10 * SECOND);
        deferrals.deferred(Kind.KILL, 11 * SECOND);
        deferrals.deferred(Kind.KILL, 12 * SECOND);
        deferrals.resolved(13 * SECOND);
        deferrals.runEnded(20 * SECOND);

        assertThat(deferrals.summary()).isEqualTo(new Deferrals.Summary(Map.of("KILL", 1L), 3.0, 0));
    }

    @Test
    void aFaultStillWaitingWhenTheRunEndsWasNeverInjected() {
        Deferrals deferrals = new Deferrals();

        deferrals.deferred(Kind.PAUSE, SECOND);
        deferrals.resolved(2 * SECOND);
        deferrals.deferred(Kind.ONE_WAY_PARTITION, 5 * SECOND);
        deferrals.deferred(Kind.ONE_WAY_PARTITION, 6 * SECOND);
        deferrals.runEnded(9 * SECOND);

        Deferrals.Summary summary = deferrals.summary();
        assertThat(summary.byKind()).containsExactlyInAnyOrderEntriesOf(Map.of("PAUSE", 1L, "ONE_WAY_PARTITION", 1L));
        assertThat(summary.total()).isEqualTo(2);
        assertThat(summary.longestSeconds()).isEqualTo(4.0);
        assertThat(summary.neverInjected()).isEqualTo(1);
    }

    @Test
    void aRunWithoutDeferralsReportsNone() {
        Deferrals deferrals = new Deferrals();

        deferrals.resolved(SECOND);
        deferrals.runEnded(2 * SECOND);

        assertThat(deferrals.summary()).isEqualTo(Deferrals.Summary.NONE);
    }
}
