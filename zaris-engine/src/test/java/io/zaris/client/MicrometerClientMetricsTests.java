package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zaris.protocol.OpCode;
import io.zaris.time.FakeTime;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class MicrometerClientMetricsTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerClientMetrics metrics = MicrometerClientMetrics.create(registry);

    @Test
    void requestsAreTimedByOperationAndStatus() {
        metrics.request(OpCode.GET, "ok", 1_000);
        metrics.request(OpCode.GET, "ok", 3_000);
        metrics.request(OpCode.GET, "not_found", 3_000);
        metrics.request(OpCode.PUT, "moved", 2_000);
        assertThat(registry.get("zaris.client.requests").tag("op", "get").tag("status", "ok").timer().count()).isEqualTo(2);
        assertThat(registry.get("zaris.client.requests").tag("op", "get").tag("status", "not_found").timer().count())
                .isEqualTo(1);
        assertThat(registry.get("zaris.client.requests").tag("op", "put").tag("status", "moved").timer().count())
                .isEqualTo(1);
    }

    @Test
    void ambiguousFailuresAreCountedByOperation() {
        metrics.ambiguousFailure(OpCode.INCREMENT);
        metrics.ambiguousFailure(OpCode.INCREMENT);
        assertThat(registry.get("zaris.client.requests.ambiguous").tag("op", "increment").counter().count()).isEqualTo(2);
    }

    @Test
    void retriesRefreshesAndCoalescedWaitsAreCounted() {
        metrics.retry("moved");
        metrics.retry("moved");
        metrics.refresh(RefreshTrigger.PUSH);
        metrics.refresh(RefreshTrigger.POLL);
        metrics.refresh(RefreshTrigger.REACT);
        metrics.coalescedRefreshWait();
        assertThat(registry.get("zaris.client.retries").tag("status", "moved").counter().count()).isEqualTo(2);
        assertThat(registry.get("zaris.client.map.refreshes").tag("trigger", "push").counter().count()).isEqualTo(1);
        assertThat(registry.get("zaris.client.map.refreshes").tag("trigger", "react").counter().count()).isEqualTo(1);
        assertThat(registry.get("zaris.client.map.refresh.coalesced").counter().count()).isEqualTo(1);
    }

    @Test
    void routingTableVersionAndEpochSumAreGauges() {
        metrics.tablePublished(7, 300);
        assertThat(registry.get("zaris.client.routing.table.version").gauge().value()).isEqualTo(7);
        assertThat(registry.get("zaris.client.routing.table.epochs").gauge().value()).isEqualTo(300);
        assertThat(registry.get("zaris.client.routing.table.age").gauge().value()).isGreaterThanOrEqualTo(0);
    }

    @Test
    void theTableAgeCountsOnTheGivenClockFromTheLastPublishedTable() {
        FakeTime clock = new FakeTime();
        SimpleMeterRegistry ownRegistry = new SimpleMeterRegistry();
        MicrometerClientMetrics timed = MicrometerClientMetrics.create(ownRegistry, clock);
        clock.advance(Duration.ofSeconds(3));
        timed.tablePublished(1, 64);
        clock.advance(Duration.ofMillis(4_500));

        assertThat(ownRegistry.get("zaris.client.routing.table.age").gauge().value()).isEqualTo(4.5);

        timed.tablePublished(2, 65);
        assertThat(ownRegistry.get("zaris.client.routing.table.age").gauge().value()).isZero();
    }
}
