package io.zaris.client;

import io.zaris.protocol.OpCode;

/**
 * Client metrics that pass every report on to a delegate; a subclass overrides the reports it also wants to hear
 * (an observer of routing-table publications, of operations and their attempts), so a report added to
 * {@link ClientMetrics} later is never silently dropped by one of them.
 */
public abstract class ForwardingClientMetrics implements ClientMetrics {

    protected final ClientMetrics delegate;

    protected ForwardingClientMetrics(ClientMetrics delegate) {
        this.delegate = delegate;
    }

    @Override
    public void request(OpCode op, String status, long nanos) {
        delegate.request(op, status, nanos);
    }

    @Override
    public void retry(String status) {
        delegate.retry(status);
    }

    @Override
    public void refresh(RefreshTrigger trigger) {
        delegate.refresh(trigger);
    }

    @Override
    public void coalescedRefreshWait() {
        delegate.coalescedRefreshWait();
    }

    @Override
    public void tablePublished(long mapVersion, long epochSum) {
        delegate.tablePublished(mapVersion, epochSum);
    }

    @Override
    public void writesLost(int count) {
        delegate.writesLost(count);
    }

    @Override
    public void ambiguousFailure(OpCode op) {
        delegate.ambiguousFailure(op);
    }

    @Override
    public Object operationStarted(OpCode op) {
        return delegate.operationStarted(op);
    }

    @Override
    public void attemptRouted(Object operation, int partition) {
        delegate.attemptRouted(operation, partition);
    }
}
