package io.zaris.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.KvStatus;
import io.zaris.transport.ZarisException;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTimeoutException;
import io.zaris.transport.ZarisTransportException;
import org.junit.jupiter.api.Test;

class OutcomeTests {

    @Test
    void onlyNoAnswerOrAnAmbiguousOneIsIndeterminate() {
        assertThat(Outcome.of(Reply.of(new ZarisTimeoutException("late")), false)).isEqualTo(Outcome.INDETERMINATE);
        assertThat(Outcome.of(Reply.of(new ZarisTransportException("reset", true)), false))
                .isEqualTo(Outcome.INDETERMINATE);
        assertThat(Outcome.of(Reply.of(new ZarisStatusException(KvStatus.UNACKNOWLEDGED, "")), false))
                .isEqualTo(Outcome.INDETERMINATE);
        assertThat(Outcome.of(Reply.of(new ZarisException("not understood")), false)).isEqualTo(Outcome.INDETERMINATE);
    }

    @Test
    void aRefusalIsDeterminate() {
        for (KvStatus status : new KvStatus[] {KvStatus.MOVED, KvStatus.OWNERSHIP_CHANGING,
                KvStatus.REPLICA_WRITE_REJECTED, KvStatus.MIGRATING, KvStatus.UNAVAILABLE, KvStatus.BAD_REQUEST,
                KvStatus.OUT_OF_MEMORY}) {
            assertThat(Outcome.of(Reply.of(new ZarisStatusException(status, "")), false)).as(status.name())
                    .isEqualTo(Outcome.FAILED);
        }
        assertThat(Outcome.of(Reply.of(new ZarisTransportException("never sent", false)), false))
                .isEqualTo(Outcome.FAILED);
        assertThat(Outcome.of(Reply.CONFLICT, false)).isEqualTo(Outcome.FAILED);
    }

    @Test
    void aRefusalAfterAnAmbiguousAttemptOfTheSameCallIsIndeterminate() {
        assertThat(Outcome.of(Reply.UNAVAILABLE, true)).isEqualTo(Outcome.INDETERMINATE);
        assertThat(Outcome.of(Reply.OK, true)).isEqualTo(Outcome.OK);
    }

    @Test
    void aRetriedAttemptIsNamedAsTheClientNamesIt() {
        assertThat(Reply.ofRetryReason("ownership_changing")).isEqualTo(Reply.OWNERSHIP_CHANGING);
        assertThat(Reply.ofRetryReason("unavailable")).isEqualTo(Reply.UNAVAILABLE);
        assertThat(Reply.ofRetryReason("timeout")).isEqualTo(Reply.TIMEOUT);
        assertThat(Reply.ofRetryReason("transport").isAmbiguous()).isTrue();
        assertThat(Reply.ofRetryReason("something new")).isEqualTo(Reply.OTHER);
    }
}
