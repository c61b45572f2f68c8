package io.zaris.client;

import io.zaris.protocol.OpCode;

/**
 * What the client reports about itself. {@link #disabled()} is the default; {@code MicrometerClientMetrics}
 * records to a Micrometer registry (Micrometer is an optional dependency: only that class needs it).
 * Implementations must be thread-safe and cheap: they are called on network threads. Every callback does nothing
 * by default, so an implementation overrides only what it watches.
 */
public interface ClientMetrics {

    /**
     * An operation finished; {@code status} is the lower-case status of its answer ({@code ok},
     * {@code not_found}, {@code conflict}), of the status it failed with (e.g. {@code moved}), or the failure
     * kind ({@code timeout}, {@code transport}, {@code error}).
     */
    default void request(OpCode op, String status, long nanos) {
    }

    /** The retry brain scheduled another attempt after a failed one with {@code status} (named as above). */
    default void retry(String status) {
    }

    /** The routing table was updated. */
    default void refresh(RefreshTrigger trigger) {
    }

    /** A caller rode a map refresh already in flight instead of starting one. */
    default void coalescedRefreshWait() {
    }

    /**
     * A routing table that differs from the previous one (its map fingerprint changed: partition map version,
     * epoch sum or addresses) was published, with this partition map version and epoch sum. Not called for a
     * refresh that found the same map.
     */
    default void tablePublished(long mapVersion, long epochSum) {
    }

    /** Acknowledged ASYNC writes a takeover showed lost. */
    default void writesLost(int count) {
    }

    /**
     * A non-idempotent operation (increment, conditional write) failed after it may have been applied (no answer,
     * or UNACKNOWLEDGED) and was not retried, so that it is not applied twice: its outcome is unknown to the caller.
     */
    default void ambiguousFailure(OpCode op) {
    }

    /**
     * An operation is about to make its first attempt; called on the thread that asked for it, so an implementation
     * may read what that thread has in scope (e.g. a trace) and return it. Whatever it returns is handed to
     * {@link #attemptRouted} for each of the operation's attempts; {@code null} is allowed.
     */
    default Object operationStarted(OpCode op) {
        return null;
    }

    /**
     * One attempt of the operation {@link #operationStarted} returned {@code operation} for is routed to
     * {@code partition}. Called on whichever thread makes the attempt, always before the operation's future
     * completes, so that the attempts are all counted by the time its caller hears the outcome.
     */
    default void attemptRouted(Object operation, int partition) {
    }

    static ClientMetrics disabled() {
        return DisabledClientMetrics.INSTANCE;
    }

    /** The null object: records nothing. */
    enum DisabledClientMetrics implements ClientMetrics {
        INSTANCE
    }
}
