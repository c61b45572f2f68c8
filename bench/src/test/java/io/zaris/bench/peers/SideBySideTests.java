package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SideBySideTests {

    @Test
    void theDefaultRunGroupsEverySystemWithThoseKeepingAsManyCopies() {
        assertThat(SideBySide.groups(BenchSettings.DEFAULT_SYSTEMS)).containsExactly(
                List.of("zaris-async", "zaris-sync", "redis-replicas", "hazelcast"), List.of("redis"));
        assertThat(SideBySide.groups(List.of("redis", "zaris-async", "zaris-async-1copy", "zaris-sync", "hazelcast",
                "redis-replicas"))).containsExactly(List.of("zaris-async-1copy", "redis"),
                List.of("zaris-async", "zaris-sync", "redis-replicas", "hazelcast"));
    }

    @Test
    void aGroupHoldsOnlyTheSelectedSystemsAndOneWithoutPartnersRunsAlone() {
        assertThat(SideBySide.groups(List.of("redis-replicas", "zaris-async", "zaris-async-1copy")))
                .containsExactly(List.of("zaris-async", "redis-replicas"), List.of("zaris-async-1copy"));
    }

    @Test
    void groupsFollowTheFirstSystemAskedForAndKeepTheirOwnOrder() {
        assertThat(SideBySide.groups(List.of("hazelcast", "redis", "zaris-async")))
                .containsExactly(List.of("zaris-async", "hazelcast"), List.of("redis"));
    }

    @Test
    void eachIntervalStartsWithTheNextMember() {
        List<String> pair = List.of("a", "b");
        assertThat(SideBySide.orderFor(0, pair)).containsExactly("a", "b");
        assertThat(SideBySide.orderFor(1, pair)).containsExactly("b", "a");
        assertThat(SideBySide.orderFor(2, pair)).containsExactly("a", "b");
        assertThat(SideBySide.orderFor(7, List.of("alone"))).containsExactly("alone");
        List<String> four = List.of("a", "b", "c", "d");
        assertThat(SideBySide.orderFor(1, four)).containsExactly("b", "c", "d", "a");
        assertThat(SideBySide.orderFor(6, four)).containsExactly("c", "d", "a", "b");
    }

    @Test
    void aMemberWarmsUpFullyBeforeARowAndRefillsAfterItsPartnersInterval() {
        Duration row = Duration.ofMillis(500);
        assertThat(SideBySide.warmupBefore(0, 2, row)).isEqualTo(row);
        assertThat(SideBySide.warmupBefore(1, 2, row)).isEqualTo(Duration.ofMillis(250));
        assertThat(SideBySide.warmupBefore(2, 2, row)).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void aMemberMeasuredAloneGoesStraightOnToItsNextInterval() {
        Duration row = Duration.ofMillis(500);
        assertThat(SideBySide.warmupBefore(0, 1, row)).isEqualTo(row);
        assertThat(SideBySide.warmupBefore(1, 1, row)).isZero();
    }
}
