package io.zaris.replication;

/** A SYNC write could not be acknowledged: too few replicas applied it in time. Not applied everywhere; retryable. */
public final class ReplicationException extends RuntimeException {

    public ReplicationException(String message) {
        super(message, null, false, false);
    }
}
