package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.zaris.model.VersionedValue;
import io.zaris.time.TimeSource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * How a blocking direct request waits for its answer, against a node on a real loopback socket that answers
 * late or never: an answer spread over several wait slices is read whole, an attempt whose partition moved away
 * is given up (the ordinary path then asks the new owner), and one never abandoned waits out its timeout.
 */
@Tag("unit")
class DirectRequestsWaitTests {

    private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);
    /** Far longer than any test may take: reaching it would mean the attempt was not given up. */
    private static final int ATTEMPT_TIMEOUT_MILLIS = 120_000;

    private StubNode node;
    private DirectRequests direct;

    @BeforeEach
    void start() throws Exception {
        node = StubNode.start("n1");
        direct = new DirectRequests(2, "test", null, Duration.ofSeconds(5), 1 << 20, takeover -> { },
                TimeSource.system());
    }

    @AfterEach
    void stop() throws Exception {
        direct.close();
        node.close();
    }

    @Test
    void anAnswerThatArrivesAfterSeveralWaitSlicesIsReadWhole() {
        node.fallback(StubNode.value("late".getBytes(StandardCharsets.UTF_8), 7)
                .after(() -> pause(DirectRequests.WAIT_SLICE_MILLIS * 5)));
        AtomicInteger asked = new AtomicInteger();

        Optional<VersionedValue> answer = direct.get(node.address(), KEY, 1, ATTEMPT_TIMEOUT_MILLIS, () -> {
            asked.incrementAndGet();
            return false;
        });

        assertThat(answer).isPresent();
        assertThat(new String(answer.get().value(), StandardCharsets.UTF_8)).isEqualTo("late");
        assertThat(asked.get()).as("asked between slices while waiting").isPositive();
        // the connection went back to the pool in a clean state: the next request is answered normally
        node.fallback(StubNode.value("next".getBytes(StandardCharsets.UTF_8), 8));
        assertThat(direct.get(node.address(), KEY, 1, ATTEMPT_TIMEOUT_MILLIS, null)).isPresent();
        assertThat(direct.openConnections()).isEqualTo(1);
    }

    @Test
    void anUnansweredAttemptWhosePartitionMovedIsGivenUpForTheOrdinaryPath() {
        node.fallback(StubNode.silence());
        AtomicBoolean moved = new AtomicBoolean();
        Thread mover = new Thread(() -> {
            pause(300);
            moved.set(true);
        });
        mover.start();

        Optional<VersionedValue> answer = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> direct.get(node.address(), KEY, 1, ATTEMPT_TIMEOUT_MILLIS, moved::get));

        assertThat(answer).as("null: the caller takes the ordinary path").isNull();
        assertThat(moved).isTrue();
        assertThat(direct.openConnections()).as("the connection that may still get the late answer is closed").isZero();
    }

    @Test
    void anUnansweredAttemptThatIsNeverAbandonedWaitsOutItsTimeout() {
        node.fallback(StubNode.silence());

        assertThat(direct.get(node.address(), KEY, 1, 300, () -> false)).isNull();
        assertThat(direct.put(node.address(), KEY, new byte[] {1}, 0, io.zaris.model.AckMode.SYNC, 1, 300, null))
                .isNull();
        assertThat(direct.openConnections()).isZero();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis); // the scenario: a node that is slow to answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
