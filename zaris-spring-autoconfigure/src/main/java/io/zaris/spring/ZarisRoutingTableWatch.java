package io.zaris.spring;

import io.zaris.client.ClientMetrics;
import io.zaris.client.ForwardingClientMetrics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Remembers when the client's routing table last changed (and to which partition-map version and epoch
 * sum), for the health indicator's "routing table age": the client reports only tables that differ from the
 * one before, so a refresh that found the same map does not reset the age. It listens through the client's
 * {@link ClientMetrics} hook: {@link #observing(ClientMetrics)} wraps the real meters (or the disabled
 * ones) and forwards every event to them.
 *
 * <p>The client calls the hook on its network and map threads; the last publication is one immutable
 * {@link Publication} in a volatile field, so a reader always sees a consistent triple.
 */
public final class ZarisRoutingTableWatch {

    /** One routing-table publication. */
    public record Publication(long mapVersion, long epochSum, Instant at) {
    }

    private final Clock clock;
    private volatile Publication last;

    public ZarisRoutingTableWatch(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock must not be null");
    }

    /** Client metrics that record publications here and forward everything to {@code delegate}. */
    public ClientMetrics observing(ClientMetrics delegate) {
        return new Observer(Objects.requireNonNull(delegate, "delegate must not be null"));
    }

    /** The last publication, or {@code null} before the client connected. */
    public Publication lastPublication() {
        return last;
    }

    /** Time since the last publication, or {@code null} before the client connected. */
    public Duration age() {
        Publication publication = last;
        return publication == null ? null : Duration.between(publication.at(), clock.instant());
    }

    private final class Observer extends ForwardingClientMetrics {

        Observer(ClientMetrics delegate) {
            super(delegate);
        }

        @Override
        public void tablePublished(long mapVersion, long epochSum) {
            ZarisRoutingTableWatch.this.last = new Publication(mapVersion, epochSum, clock.instant());
            delegate.tablePublished(mapVersion, epochSum);
        }
    }
}
