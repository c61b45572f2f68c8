package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.time.FakeTime;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** How an operation counts its attempts per routing, and when its wait on the map starts. */
@Tag("unit")
class RoutingAttemptsTests {

    private static final RoutingWatch.Routing AT_A = new RoutingWatch.Routing("a", 1, true);

    private final FakeTime clock = new FakeTime();
    private final RoutingAttempts attempts = new RoutingAttempts();

    @Test
    void attemptsOnTheSameRoutingAreCountedTogether() {
        attempts.routedTo(4, AT_A);
        attempts.routedTo(4, new RoutingWatch.Routing("a", 1, true));
        attempts.routedTo(4, AT_A);

        assertThat(attempts.count()).isEqualTo(3);
    }

    @Test
    void aNewOwnerANewEpochOrANewConnectionStartsANewCount() {
        for (RoutingWatch.Routing moved : new RoutingWatch.Routing[] {new RoutingWatch.Routing("b", 2, true),
                new RoutingWatch.Routing("a", 2, true), new RoutingWatch.Routing("a", 1, false)}) {
            RoutingAttempts counted = new RoutingAttempts();
            counted.routedTo(4, AT_A);
            counted.routedTo(4, AT_A);

            counted.routedTo(4, moved);

            assertThat(counted.count()).as(moved.toString()).isEqualTo(1);
            assertThat(counted.routing()).isEqualTo(moved);
        }
    }

    @Test
    void anotherPartitionStartsANewCount() {
        attempts.routedTo(4, AT_A);
        attempts.routedTo(5, AT_A);

        assertThat(attempts.count()).isEqualTo(1);
        assertThat(attempts.partition()).isEqualTo(5);
    }

    @Test
    void theWaitCountsFromTheFirstFailureOnARoutingAndStartsAgainOnTheNext() {
        long first = clock.nanoTime();
        attempts.routedTo(4, AT_A);
        attempts.failed(first);
        clock.advance(Duration.ofSeconds(3));
        attempts.routedTo(4, AT_A);
        attempts.failed(clock.nanoTime());

        assertThat(attempts.stalledSince()).isEqualTo(first);

        clock.advance(Duration.ofSeconds(3));
        attempts.routedTo(4, new RoutingWatch.Routing("b", 2, true));
        attempts.failed(clock.nanoTime());

        assertThat(attempts.stalledSince()).isEqualTo(clock.nanoTime());
    }
}
