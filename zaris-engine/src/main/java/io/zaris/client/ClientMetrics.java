package io.zaris.client;

import io.zaris.protocol.OpCode;

/**
 * What the client reports about itself. {@link #disabled()} is the default; {@code MicrometerClientMetrics}
 * records to a Micrometer registry (Micrometer is an optional dependency: only that class needs it).
 * Implementations must be thread-safe and cheap: they are called on network threads.
 */
public interface ClientMetrics {

    /** An operation finished; {@code outcome} is its status name, or the failure kind. */
    void request(OpCode op, String outcome, long nanos);

    /** The retry brain scheduled another attempt because of {@code reason} (a status or fault name). */
    void retry(String reason);

    /** The routing table was updated. */
    void refresh(RefreshTrigger trigger);

    /** A caller rode a map refresh already in flight instead of starting one. */
    void coalescedRefreshWait();

    /** A routing table was published for this partition map version and epoch sum. */
    void tablePublished(long mapVersion, long epochSum);

    /** Acknowledged ASYNC writes a takeover showed lost. */
    default void writesLost(int count) {
    }

    static ClientMetrics disabled() {
        return DisabledClientMetrics.INSTANCE;
    }

    /** The null object: records nothing. */
    enum DisabledClientMetrics implements ClientMetrics {
        INSTANCE;

        @Override
        public void request(OpCode op, String outcome, long nanos) {
        }

        @Override
        public void retry(String reason) {
        }

        @Override
        public void refresh(RefreshTrigger trigger) {
        }

        @Override
        public void coalescedRefreshWait() {
        }

        @Override
        public void tablePublished(long mapVersion, long epochSum) {
        }
    }
}
