package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.time.FakeTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A node's drain on a fake clock: its repeated request and when its future settles. */
@Tag("unit")
class DrainProgressTests {

    private final FakeTime time = new FakeTime();
    private final DrainProgress drain = new DrainProgress();

    @Test
    void theRequestIsDueAtOnceThenOncePerIntervalAndAgainAtOnceWhenAskedAgain() {
        assertThat(drain.requestDue(time.nanoTime())).as("before any ask").isFalse();

        assertThat(drain.request()).as("first ask").isTrue();
        assertThat(drain.requestDue(time.nanoTime())).isTrue();
        time.advance(DrainProgress.REPEAT_INTERVAL.minusMillis(1));
        assertThat(drain.requestDue(time.nanoTime())).isFalse();
        time.advance(Duration.ofMillis(1));
        assertThat(drain.requestDue(time.nanoTime())).isTrue();

        assertThat(drain.request()).as("second ask").isFalse();
        assertThat(drain.requestDue(time.nanoTime())).as("an ask sends at once").isTrue();
    }

    @Test
    void aDrainCompletesOnceTheViewGivesTheNodeNoRole() {
        drain.request();
        assertThat(drain.settle(view(List.of(List.of("a", "b"), List.of("b", "a")), "b", "a"), "a", Set.of("a", "b")))
                .isEqualTo(DrainProgress.Outcome.PENDING);
        assertThat(drain.future()).isNotDone();

        ClusterView withoutA = view(List.of(List.of("b", "c"), List.of("c", "b")), "b", "c");
        assertThat(drain.settle(withoutA, "a", Set.of("a", "b", "c"))).isEqualTo(DrainProgress.Outcome.DRAINED);
        assertThat(drain.future()).isCompleted();
        assertThat(drain.settle(withoutA, "a", Set.of("a"))).as("settled once").isEqualTo(DrainProgress.Outcome.PENDING);
    }

    @Test
    void anActiveRoleLeftOverKeepsTheDrainPending() {
        ClusterView stillActive = view(List.of(List.of("b", "c"), List.of("c", "b")), "a", "c");

        assertThat(DrainProgress.outcome(stillActive, "a", Set.of("a", "b"))).isEqualTo(DrainProgress.Outcome.PENDING);
    }

    @Test
    void aNodeAloneCannotDrainAndAStoppedOneFails() {
        drain.request();
        assertThat(drain.settle(view(List.of(List.of("a"), List.of("a")), "a", "a"), "a", Set.of("a")))
                .isEqualTo(DrainProgress.Outcome.NOBODY_TO_TAKE_OVER);
        assertThatThrownBy(drain.future()::join).hasMessageContaining("no other node is present");

        DrainProgress stopped = new DrainProgress();
        stopped.request();
        stopped.stopped("a");
        assertThatThrownBy(stopped.future()::join).hasMessageContaining("stopped before it was drained");
    }

    @Test
    void nothingSettlesWithoutAnAskOrAView() {
        ClusterView withoutA = view(List.of(List.of("b", "c"), List.of("c", "b")), "b", "c");

        assertThat(drain.settle(withoutA, "a", Set.of("a", "b"))).isEqualTo(DrainProgress.Outcome.PENDING);
        drain.request();
        assertThat(drain.settle(null, "a", Set.of("a", "b"))).isEqualTo(DrainProgress.Outcome.PENDING);
        assertThat(drain.future()).isNotDone();
    }

    private static ClusterView view(List<List<String>> owners, String active0, String active1) {
        int replicas = owners.get(0).size();
        return new ClusterView(PartitionLayout.of(2, 2), new PartitionMap(2, replicas, owners),
                new RuntimeMap(List.of(new PartitionRuntime(active0, 3, PartitionHealth.HEALTHY),
                        new PartitionRuntime(active1, 3, PartitionHealth.HEALTHY))),
                Map.of("a", new NodeAddress("127.0.0.1", 1), "b", new NodeAddress("127.0.0.1", 2),
                        "c", new NodeAddress("127.0.0.1", 3)));
    }
}
