package io.zaris.cluster;

import java.util.concurrent.CompletableFuture;

/**
 * One node's majority checks, both sides (see {@link MajorityChecks} for why they exist): as an asker it batches
 * the waiters into checks sent to the coordinator and completes them on its answer; as the leader it holds the
 * checks received until a beat a majority answered proves them, and answers each asker. It sends through an
 * {@link Outbox} and never reads the clock or the membership view: the caller passes the coordinator, the times and
 * whether it leads, so the bookkeeping runs without JGroups.
 *
 * <p>Concurrency: not thread-safe; owned by the membership events thread, like everything {@link ClusterMember}
 * keeps there.
 *
 * @param <A> how a member is addressed
 */
final class MajorityCheckRelay<A> {

    /** Sends one encoded cluster message to one member; failures are the sender's to log (checks time out). */
    interface Outbox<A> {
        void send(A destination, byte[] message);
    }

    private final Outbox<A> outbox;
    /** This node's checks waiting for the leader's answer. */
    private final MajorityChecks.Requests requests = new MajorityChecks.Requests();
    /** While this node leads: checks received and not yet proven by a beat. */
    private final MajorityChecks.Confirmations<A> confirmations = new MajorityChecks.Confirmations<>();

    MajorityCheckRelay(Outbox<A> outbox) {
        this.outbox = outbox;
    }

    /**
     * Adds a waiter for the next check; returns whether the caller must schedule {@link #sendCheck} (no check was
     * pending yet: waiters added before that send share its check).
     */
    boolean await(CompletableFuture<Void> waiter) {
        return requests.await(waiter);
    }

    /**
     * Asks {@code coordinator} about every waiter added since the last check; with no coordinator (no membership
     * view yet) fails them all, naming {@code nodeId}.
     */
    void sendCheck(A coordinator, String nodeId) {
        if (coordinator == null) {
            requests.failAll("node " + nodeId + " has no membership view yet");
            return;
        }
        long number = requests.send();
        if (number > 0) {
            outbox.send(coordinator, ClusterMessages.encodeLease(ClusterMessages.MAJORITY_CHECK, number));
        }
    }

    /** Fails every waiter this node holds. */
    void failAll(String reason) {
        requests.failAll(reason);
    }

    /** An answer to check {@code number}; counted only from the coordinator of this node's view. */
    void onConfirmed(A source, A coordinator, long number) {
        if (source.equals(coordinator)) {
            requests.confirmed(number);
        }
    }

    /** Leader: a check from a member of its view arrived at {@code nowNanos}; the caller then sends a beat. */
    void onCheck(A source, long number, long nowNanos) {
        confirmations.received(source, number, nowNanos);
    }

    /** Leader: a majority answered the beat sent at {@code beatSentNanos}; answers every check it proves. */
    void onBeatQuorum(long beatSentNanos) {
        for (MajorityChecks.Confirmations.Check<A> check : confirmations.confirmedBy(beatSentNanos)) {
            outbox.send(check.source(), ClusterMessages.encodeLease(ClusterMessages.MAJORITY_CONFIRMED, check.number()));
        }
    }

    /** This node does not lead (any more): nobody will prove what it received; the askers time out. */
    void notLeading() {
        confirmations.clear();
    }
}
