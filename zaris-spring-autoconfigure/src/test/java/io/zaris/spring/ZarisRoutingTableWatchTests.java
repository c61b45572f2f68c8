package io.zaris.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ClientMetrics;
import io.zaris.client.RefreshTrigger;
import io.zaris.protocol.OpCode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ZarisRoutingTableWatchTests {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final ZarisRoutingTableWatch watch = new ZarisRoutingTableWatch(clock);

    @Test
    void beforeAnyPublicationShouldKnowNothing() {
        assertThat(watch.lastPublication()).isNull();
        assertThat(watch.age()).isNull();
    }

    @Test
    void publicationShouldBeRememberedAndAgeWithTheClock() {
        ClientMetrics observer = watch.observing(ClientMetrics.disabled());

        observer.tablePublished(3, 40);
        clock.advance(Duration.ofSeconds(7));

        assertThat(watch.lastPublication()).isEqualTo(
                new ZarisRoutingTableWatch.Publication(3, 40, Instant.parse("2026-01-01T00:00:00Z")));
        assertThat(watch.age()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void everyEventShouldReachTheDelegate() {
        List<String> seen = new ArrayList<>();
        ClientMetrics recording = new ClientMetrics() {
            @Override
            public void request(OpCode op, String outcome, long nanos) {
                seen.add("request " + op + " " + outcome);
            }

            @Override
            public void retry(String reason) {
                seen.add("retry " + reason);
            }

            @Override
            public void refresh(RefreshTrigger trigger) {
                seen.add("refresh " + trigger);
            }

            @Override
            public void coalescedRefreshWait() {
                seen.add("coalesced");
            }

            @Override
            public void tablePublished(long mapVersion, long epochSum) {
                seen.add("published " + mapVersion + " " + epochSum);
            }

            @Override
            public void writesLost(int count) {
                seen.add("lost " + count);
            }
        };
        ClientMetrics observer = watch.observing(recording);

        observer.request(OpCode.GET, "ok", 5);
        observer.retry("moved");
        observer.refresh(RefreshTrigger.POLL);
        observer.coalescedRefreshWait();
        observer.tablePublished(1, 2);
        observer.writesLost(4);

        assertThat(seen).containsExactly("request GET ok", "retry moved", "refresh POLL", "coalesced", "published 1 2",
                "lost 4");
    }

    /** A clock the test moves by hand. */
    private static final class MutableClock extends Clock {

        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
