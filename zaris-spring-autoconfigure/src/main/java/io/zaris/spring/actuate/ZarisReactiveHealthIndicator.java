package io.zaris.spring.actuate;

import org.springframework.boot.health.contributor.AbstractReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import reactor.core.publisher.Mono;

/**
 * The {@code zaris} health component for Reactor: the same check, statuses and details as
 * {@link ZarisHealthIndicator}, but no thread waits for the node probes; the {@link Mono} completes when the
 * last probe answers (or times out after {@link ZarisHealthIndicator#PROBE_TIMEOUT}). A WebFlux health endpoint
 * thus never blocks an event-loop thread, and Boot's blocking endpoint still serves it.
 */
public final class ZarisReactiveHealthIndicator extends AbstractReactiveHealthIndicator {

    private final ZarisHealthIndicator check;

    public ZarisReactiveHealthIndicator(ZarisHealthIndicator check) {
        super("Zaris health check failed");
        this.check = check;
    }

    @Override
    protected Mono<Health> doHealthCheck(Health.Builder builder) {
        return Mono.fromFuture(() -> check.describe(builder)).map(Health.Builder::build);
    }
}
