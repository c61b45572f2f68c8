package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The writers against an in-memory client that answers at once. Real time passes (a fraction of a second) but
 * nothing is asserted about how long anything took beyond the pacing floor, which holds by construction.
 */
class PacedWritersTests {

    private static final Duration INTERVAL = Duration.ofMillis(5);

    /** Acknowledges every put of an even sequence number at once; fails the others, one in three by throwing. */
    private static final class AnsweringClient implements KvClient {

        final AtomicInteger puts = new AtomicInteger();

        @Override
        public void putAsync(String key, byte[] value, Completion completion) {
            long sequence = SequenceValue.decode(value);
            if (puts.incrementAndGet() % 3 == 0 && sequence % 2 == 1) {
                throw new IllegalStateException("refused at once");
            }
            completion.complete(value.length, sequence % 2 == 0 ? null : new IllegalArgumentException("odd"));
        }

        @Override
        public int get(String key) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void put(String key, byte[] value) {
            throw new UnsupportedOperationException();
        }

        @Override
        public byte[] value(String key) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void getAsync(String key, Completion completion) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
        }
    }

    @Test
    void everyKeyWritesNumberedPutsOneAtATimeNoFasterThanItsPaceAndEveryChainEndsAfterTheStop() throws Exception {
        AnsweringClient client = new AnsweringClient();
        List<KeyHistory> histories;
        try (PacedWriters writers = new PacedWriters(client, 8, INTERVAL, System::nanoTime)) {
            writers.start();
            Thread.sleep(150);
            writers.stop();
            assertThat(writers.awaitQuiet(Duration.ofSeconds(5))).isZero();
            histories = writers.snapshots();
            assertThat(writers.acknowledged() + writers.failed()).isEqualTo(client.puts.get());
        }
        assertThat(histories).hasSize(8);
        for (KeyHistory history : histories) {
            List<WriteAttempt> attempts = history.attempts();
            assertThat(history.hasWriteInFlight()).isFalse();
            assertThat(attempts).hasSizeGreaterThan(2);
            for (int i = 0; i < attempts.size(); i++) {
                WriteAttempt attempt = attempts.get(i);
                assertThat(attempt.sequence()).isEqualTo(i + 1);
                assertThat(attempt.isAcknowledged()).isEqualTo(attempt.sequence() % 2 == 0);
                if (i > 0) {
                    assertThat(attempt.sentNanos() - attempts.get(i - 1).sentNanos()).isGreaterThanOrEqualTo(INTERVAL.toNanos());
                }
            }
        }
        assertThat(histories.stream().flatMap(h -> h.attempts().stream()).map(WriteAttempt::failure))
                .as("a put that throws counts as failed, like one whose future fails")
                .contains("IllegalStateException", "IllegalArgumentException");
    }

    @Test
    void keysAreNamedByTheirIndex() {
        assertThat(PacedWriters.key(7)).isEqualTo("failover-7");
    }
}
