package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.protocol.TakeoverRevisions;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Naming the acknowledged ASYNC writes a takeover lost, and only those. */
@Tag("unit")
class AsyncAckLedgerTests {

    /** Partition 3 owns segments 6 and 7; the new active (epoch 5) inherited revision 10 of 6 and 4 of 7. */
    private static final TakeoverRevisions TAKEOVER = new TakeoverRevisions(3, 5, 6, new long[] {10, 4});

    @Test
    void theRuleIsAnOlderEpochAboveTheInheritedRevision() {
        assertThat(LostWrite.isLost(4, 11, 5, 10)).isTrue();
        assertThat(LostWrite.isLost(4, 10, 5, 10)).isFalse();
        assertThat(LostWrite.isLost(5, 11, 5, 10)).isFalse();
        assertThat(LostWrite.isLost(4, 11, 5, TakeoverRevisions.UNKNOWN)).isFalse();
    }

    @Test
    void aTakeoverNamesExactlyTheAcknowledgementsAboveWhatWasInherited() {
        AsyncAckLedger ledger = new AsyncAckLedger(16);
        ledger.record(key("kept"), 3, 6, 4, 10);
        ledger.record(key("lost-a"), 3, 6, 4, 11);
        ledger.record(key("lost-b"), 3, 7, 4, 5);
        ledger.record(key("new-epoch"), 3, 7, 5, 6);
        ledger.record(key("other-partition"), 2, 4, 4, 99);
        assertThat(ledger.lostTo(TAKEOVER)).extracting(LostWrite::key).containsExactlyInAnyOrder("lost-a", "lost-b");
        assertThat(ledger.size()).isEqualTo(3);
        assertThat(ledger.lostTo(TAKEOVER)).as("a lost write is reported once").isEmpty();
    }

    @Test
    void anAcknowledgementArrivingAfterTheTakeoverIsCheckedOnArrival() {
        AsyncAckLedger ledger = new AsyncAckLedger(16);
        ledger.lostTo(TAKEOVER);
        LostWrite late = ledger.record(key("late"), 3, 6, 4, 12);
        assertThat(late).isNotNull();
        assertThat(late.inheritedRevision()).isEqualTo(10);
        assertThat(ledger.record(key("fine"), 3, 6, 4, 9)).isNull();
    }

    @Test
    void theOldestAcknowledgementIsForgottenFirst() {
        AsyncAckLedger ledger = new AsyncAckLedger(2);
        ledger.record(key("first"), 3, 6, 4, 11);
        ledger.record(key("second"), 3, 6, 4, 12);
        ledger.record(key("third"), 3, 6, 4, 13);
        assertThat(ledger.lostTo(TAKEOVER)).extracting(LostWrite::key).containsExactlyInAnyOrder("second", "third");
    }

    @Test
    void withNoHistoryOnlyLateAcknowledgementsAreNamed() {
        AsyncAckLedger ledger = new AsyncAckLedger(0);
        assertThat(ledger.record(key("early"), 3, 6, 4, 11)).isNull();
        assertThat(ledger.lostTo(TAKEOVER)).isEmpty();
        assertThat(ledger.record(key("late"), 3, 6, 4, 11)).isNotNull();
    }

    private static byte[] key(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
