package io.zaris.spring.observation;

import io.micrometer.observation.Observation;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one observed client operation is known by: its name, then, as the client makes attempts, their count and
 * the partition they went to, and at the end its outcome. Holds no key.
 *
 * <p>Threads: created and started on the caller's thread; the client's threads count attempts (before the
 * operation's future completes); the thread that completes the future sets the outcome and stops the observation.
 * The attempt fields are atomic because those threads differ.
 */
public final class ZarisOperationContext extends Observation.Context {

    /** {@link #partition()} before any attempt was routed (a near-cache hit, or a failure before routing). */
    public static final int NO_PARTITION = -1;

    /** {@link #partition()} when the operation's attempts went to more than one partition (a scan). */
    public static final int SEVERAL_PARTITIONS = -2;

    private final String operation;
    private final AtomicInteger attempts = new AtomicInteger();
    private final AtomicInteger partition = new AtomicInteger(NO_PARTITION);
    private volatile ZarisOperationOutcome outcome = ZarisOperationOutcome.SUCCESS;

    ZarisOperationContext(String operation) {
        this.operation = operation;
    }

    /** The operation's name, e.g. {@code get} or {@code put_if_version}. */
    public String operation() {
        return operation;
    }

    /** Attempts the client routed so far (0 when it answered without one, from its near cache). */
    public int attempts() {
        return attempts.get();
    }

    /** The partition its attempts went to, {@link #NO_PARTITION} or {@link #SEVERAL_PARTITIONS}. */
    public int partition() {
        return partition.get();
    }

    public ZarisOperationOutcome outcome() {
        return outcome;
    }

    void attemptRouted(int routedTo) {
        attempts.incrementAndGet();
        partition.accumulateAndGet(routedTo,
                (seen, now) -> seen == NO_PARTITION || seen == now ? now : SEVERAL_PARTITIONS);
    }

    void outcome(ZarisOperationOutcome outcome) {
        this.outcome = outcome;
    }
}
