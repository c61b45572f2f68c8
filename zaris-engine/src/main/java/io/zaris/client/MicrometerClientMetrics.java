package io.zaris.client;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.zaris.protocol.OpCode;
import io.zaris.time.TimeSource;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Client meters in a Micrometer registry:
 * <ul>
 *   <li>{@code zaris.client.requests} (timer) tagged {@code op}, {@code status} (ok, not_found, conflict, or the
 *       status or fault the operation failed with)</li>
 *   <li>{@code zaris.client.retries} tagged {@code status} of the attempt that failed</li>
 *   <li>{@code zaris.client.map.refreshes} tagged {@code trigger} (push, hint, poll, react)</li>
 *   <li>{@code zaris.client.map.refresh.coalesced} — callers that rode a refresh in flight</li>
 *   <li>{@code zaris.client.routing.table.version} (partition map version), {@code .epochs} (sum of the
 *       partition epochs: rises with every ownership move) and {@code .age} (seconds since the table last
 *       changed)</li>
 *   <li>{@code zaris.client.writes.lost} — acknowledged ASYNC writes a takeover showed lost</li>
 * </ul>
 * Meters are created once per tag combination and cached, so recording is a map lookup and an add. The table age
 * is measured on the {@link TimeSource} given to {@link #create(MeterRegistry, TimeSource)} (the system clock by
 * default); request durations are measured by the client on its own and handed in.
 */
public final class MicrometerClientMetrics implements ClientMetrics {

    private final MeterRegistry registry;
    private final TimeSource time;
    private final Map<String, Timer> requestTimers = new ConcurrentHashMap<>();
    private final Map<String, Counter> retryCounters = new ConcurrentHashMap<>();
    private final Map<RefreshTrigger, Counter> refreshCounters = new ConcurrentHashMap<>();
    private final Counter coalesced;
    private final Counter writesLost;
    private final Map<OpCode, Counter> ambiguousCounters = new ConcurrentHashMap<>();
    /** The last changed table's figures; written by the client's map and network threads, read by gauges. */
    private final AtomicLong tableVersion = new AtomicLong();
    private final AtomicLong tableEpochSum = new AtomicLong();
    private final AtomicLong tablePublishedAtNanos;

    private MicrometerClientMetrics(MeterRegistry registry, TimeSource time) {
        this.registry = registry;
        this.time = time;
        this.tablePublishedAtNanos = new AtomicLong(time.nanoTime());
        this.coalesced = Counter.builder("zaris.client.map.refresh.coalesced")
                .description("Callers that waited for a map refresh already in flight").register(registry);
        this.writesLost = Counter.builder("zaris.client.writes.lost")
                .description("Acknowledged ASYNC writes that a new active owner did not inherit").register(registry);
        Gauge.builder("zaris.client.routing.table.version", tableVersion, AtomicLong::get)
                .description("Partition map version of the client's routing table").register(registry);
        Gauge.builder("zaris.client.routing.table.epochs", tableEpochSum, AtomicLong::get)
                .description("Sum of the partition epochs in the client's routing table; rises with every ownership move")
                .register(registry);
        Gauge.builder("zaris.client.routing.table.age", tablePublishedAtNanos,
                        published -> (time.nanoTime() - published.get()) / 1e9)
                .description("Seconds since the routing table last changed").baseUnit("seconds").register(registry);
    }

    @Override
    public void ambiguousFailure(OpCode op) {
        ambiguousCounters.computeIfAbsent(op, key -> Counter.builder("zaris.client.requests.ambiguous")
                .description("Non-idempotent operations that failed after they may have been applied and were not "
                        + "retried (their outcome is unknown to the caller)")
                .tag("op", key.name().toLowerCase(Locale.ROOT)).register(registry)).increment();
    }

    @Override
    public void writesLost(int count) {
        writesLost.increment(count);
    }

    /**
     * Meters in {@code registry} whose table age is measured on the system clock: the clock of a client built with
     * the default options ({@link ZarisClientOptions.Builder#timeSource}), as the Spring auto-configuration builds
     * it. A client on a clock of its own takes {@link #create(MeterRegistry, TimeSource)}.
     */
    public static MicrometerClientMetrics create(MeterRegistry registry) {
        return create(registry, TimeSource.system());
    }

    /** Meters in {@code registry} whose table age is measured on {@code time}. */
    public static MicrometerClientMetrics create(MeterRegistry registry, TimeSource time) {
        return new MicrometerClientMetrics(registry, time);
    }

    @Override
    public void request(OpCode op, String status, long nanos) {
        requestTimers.computeIfAbsent(op.name() + '|' + status, key -> Timer.builder("zaris.client.requests")
                        .description("Zaris operations by operation and status")
                        .tag("op", op.name().toLowerCase(Locale.ROOT))
                        .tag("status", status)
                        .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void retry(String status) {
        retryCounters.computeIfAbsent(status, key -> Counter.builder("zaris.client.retries")
                .description("Attempts repeated by the retry brain, by the status of the failed attempt")
                .tag("status", status)
                .register(registry)).increment();
    }

    @Override
    public void refresh(RefreshTrigger trigger) {
        refreshCounters.computeIfAbsent(trigger, key -> Counter.builder("zaris.client.map.refreshes")
                .description("Routing table updates by trigger")
                .tag("trigger", trigger.name().toLowerCase(Locale.ROOT))
                .register(registry)).increment();
    }

    @Override
    public void coalescedRefreshWait() {
        coalesced.increment();
    }

    @Override
    public void tablePublished(long mapVersion, long epochSum) {
        tableVersion.set(mapVersion);
        tableEpochSum.set(epochSum);
        tablePublishedAtNanos.set(time.nanoTime());
    }
}
