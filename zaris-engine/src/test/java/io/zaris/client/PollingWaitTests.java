package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.time.FakeTime;
import io.zaris.transport.ZarisException;
import io.zaris.transport.ZarisWrongTypeException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The wait of the blocking list operations, on a fake clock and a timer the test fires by hand: looks spaced by
 * {@link PopPollDelay}, the first answer returned, {@code null} once the timeout passed, a look under way at the timeout
 * waited for, and a failing look, a look that cannot start or a pause the closed client fails ending the wait.
 */
@Tag("unit")
class PollingWaitTests {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final FakeTime time = new FakeTime();
    /** The pauses asked for, in order, with their lengths; the test completes them. */
    private final Deque<CompletableFuture<Void>> pauses = new ArrayDeque<>();
    private final List<Long> pauseLengths = new ArrayList<>();
    private final PollingWait wait = new PollingWait(time, nanos -> {
        CompletableFuture<Void> pause = new CompletableFuture<>();
        pauses.add(pause);
        pauseLengths.add(nanos);
        return pause;
    });

    @Test
    void looksAgainAfterEachEmptyLookUntilOneFindsSomething() {
        int[] looks = {0};
        CompletableFuture<String> result = wait.until(Duration.ofSeconds(10).toNanos(),
                () -> CompletableFuture.completedFuture(++looks[0] == 4 ? "found" : null));
        for (int i = 0; i < 3; i++) {
            assertThat(result).isNotDone();
            time.advance(Duration.ofNanos(pauseLengths.get(i)));
            pauses.poll().complete(null);
        }
        assertThat(result).isCompletedWithValue("found");
        assertThat(looks[0]).isEqualTo(4);
        assertThat(pauseLengths).containsExactly(5 * MS, 10 * MS, 20 * MS);
    }

    @Test
    void answersNullOnceTheTimeoutPassedAndNeverPausesPastIt() {
        CompletableFuture<String> result = wait.until(12 * MS, () -> CompletableFuture.completedFuture(null));
        time.advance(Duration.ofMillis(5));
        pauses.poll().complete(null);
        assertThat(pauseLengths).containsExactly(5 * MS, 7 * MS);
        time.advance(Duration.ofMillis(7));
        pauses.poll().complete(null);
        assertThat(result).isCompletedWithValue(null);
        assertThat(pauses).isEmpty();
    }

    @Test
    void aLookUnderWayWhenTheTimeoutPassesIsWaitedForAndItsFindReturned() {
        CompletableFuture<String> slowLook = new CompletableFuture<>();
        CompletableFuture<String> result = wait.until(MS, () -> slowLook);
        time.advance(Duration.ofSeconds(5));
        assertThat(result).isNotDone();
        slowLook.complete("taken just in time");
        assertThat(result).isCompletedWithValue("taken just in time");
    }

    @Test
    void aFailingLookEndsTheWaitWithItsFailure() {
        CompletableFuture<String> result = wait.until(Duration.ofHours(1).toNanos(),
                () -> CompletableFuture.failedFuture(new ZarisWrongTypeException("WRONGTYPE")));
        assertThatThrownBy(result::join).cause().isInstanceOf(ZarisWrongTypeException.class);
        assertThat(pauses).isEmpty();
    }

    @Test
    void aClosedClientEndsTheWaitWhetherItWasPausedOrAboutToLook() {
        int[] looks = {0};
        CompletableFuture<String> paused = wait.until(Duration.ofHours(1).toNanos(), () -> {
            if (++looks[0] > 1) {
                throw new ZarisException("client is closed");
            }
            return CompletableFuture.completedFuture(null);
        });
        CompletableFuture<Void> firstPause = pauses.poll();
        firstPause.completeExceptionally(new ZarisException("client is closed"));
        assertThatThrownBy(paused::join).cause().isInstanceOf(ZarisException.class).hasMessage("client is closed");

        looks[0] = 1;
        CompletableFuture<String> looking = wait.until(Duration.ofHours(1).toNanos(), () -> {
            if (looks[0]++ > 1) {
                throw new ZarisException("client is closed");
            }
            return CompletableFuture.completedFuture(null);
        });
        pauses.poll().complete(null);
        assertThatThrownBy(looking::join).cause().isInstanceOf(ZarisException.class).hasMessage("client is closed");
    }
}
