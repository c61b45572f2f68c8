package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Times in these tests are plain numbers on the run's clock; the kill is at 1000 and the writes stop at 5000. */
class KeyOutageTests {

    private static final long KILL = 1000;
    private static final long STOP = 5000;

    private static KeyOutage outage(long inFlightSince, WriteAttempt... attempts) {
        return KeyOutage.of(new KeyHistory(List.of(attempts), inFlightSince), KILL, STOP);
    }

    private static KeyOutage outage(WriteAttempt... attempts) {
        return outage(KeyHistory.NONE_IN_FLIGHT, attempts);
    }

    @Test
    void anUntouchedKeyShowsOnlyItsFirstWriteAfterTheKillNotThePacingBeforeIt() {
        KeyOutage outage = outage(WriteAttempt.acknowledged(1, 900, 902), WriteAttempt.acknowledged(2, 1040, 1043));
        assertThat(outage).isEqualTo(new KeyOutage(3, true, 0));
        assertThat(outage.affected(10)).isFalse();
    }

    @Test
    void aWriteInFlightAtTheKillCountsFromTheKillThenTheNextWriteToo() {
        KeyOutage outage = outage(WriteAttempt.acknowledged(1, 990, 1004), WriteAttempt.acknowledged(2, 1090, 1093));
        assertThat(outage).isEqualTo(new KeyOutage(4 + 3, true, 0));
    }

    @Test
    void aWriteAcknowledgedAfterTheKillButSentBeforeItIsNoRecovery() {
        KeyOutage outage = outage(WriteAttempt.acknowledged(1, 990, 3000), WriteAttempt.acknowledged(2, 3000, 3005));
        assertThat(outage).isEqualTo(new KeyOutage(2000 + 5, true, 0));
        assertThat(outage.affected(10)).isTrue();
    }

    @Test
    void theWaitAfterAFailedWriteCountsUntilTheNextOneSucceeds() {
        KeyOutage outage = outage(
                WriteAttempt.acknowledged(1, 950, 951),
                WriteAttempt.failed(2, 1050, 1300, "Timeout"),
                WriteAttempt.failed(3, 1400, 1410, "Timeout"),
                WriteAttempt.acknowledged(4, 1500, 1502),
                WriteAttempt.acknowledged(5, 1600, 1601));
        // idle 1000-1050 after a success: not counted; 1050-1502 counted
        assertThat(outage).isEqualTo(new KeyOutage(452, true, 2));
        assertThat(outage.affected(Long.MAX_VALUE)).as("a failure makes a key affected at any threshold").isTrue();
    }

    @Test
    void aKeyWhoseLastWriteBeforeTheKillFailedCountsFromTheKill() {
        KeyOutage outage = outage(WriteAttempt.failed(1, 900, 950, "Refused"), WriteAttempt.acknowledged(2, 1050, 1052));
        assertThat(outage).isEqualTo(new KeyOutage(52, true, 0));
    }

    @Test
    void aKeyThatNeverRecoveredCountsToTheStopAsALowerBound() {
        KeyOutage failing = outage(WriteAttempt.acknowledged(1, 900, 901), WriteAttempt.failed(2, 1100, 3000, "Timeout"));
        assertThat(failing).isEqualTo(new KeyOutage(STOP - 1100, false, 1));

        KeyOutage stuck = outage(990, WriteAttempt.acknowledged(1, 900, 901));
        assertThat(stuck).isEqualTo(new KeyOutage(STOP - KILL, false, 0));
        assertThat(stuck.affected(Long.MAX_VALUE)).isTrue();

        KeyOutage stuckAfterFailure = outage(2000, WriteAttempt.failed(1, 990, 1500, "Timeout"));
        assertThat(stuckAfterFailure).isEqualTo(new KeyOutage(STOP - KILL, false, 1));
    }

    @Test
    void aWriteAcknowledgedAfterTheStopStillEndsTheOutage() {
        KeyOutage outage = outage(WriteAttempt.failed(1, 990, 4000, "Timeout"), WriteAttempt.acknowledged(2, 4990, 6000));
        assertThat(outage).isEqualTo(new KeyOutage(6000 - KILL, true, 1));
    }
}
