package io.zaris.cluster;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Bookkeeping of majority checks: a node asks the leader to prove that it still heads a majority <em>after</em>
 * the moment of asking, and the leader answers once a beat it sent after the question arrived was answered by a
 * majority of the voters. An active owner asks before it acknowledges a SYNC write that a connected replica did
 * not apply: a replica falls silent when it hangs, but also when the owner itself was cut off with part of the
 * cluster, and only the second case could see the silent replica promoted on the majority side without the write.
 * A lease cannot tell the two apart — it was confirmed up to a lease ago, before the silence began.
 *
 * <p>Two halves, both pure and owned by the membership events thread: {@link Requests} on the asking node (the
 * futures waiting, grouped by the check that covers them) and {@link Confirmations} on the leader (the checks
 * received and not yet covered by a beat a majority answered). Both are bounded: a check nobody answers fails
 * by its waiter's timeout and is forgotten.
 */
final class MajorityChecks {

    private MajorityChecks() {
    }

    /** The asking node's side. Events thread only. */
    static final class Requests {

        /** Checks sent and not yet answered; older ones are failed beyond this (a leader that never answers). */
        static final int MAX_OUTSTANDING = 64;

        private final TreeMap<Long, List<CompletableFuture<Void>>> sent = new TreeMap<>();
        private List<CompletableFuture<Void>> unsent = new ArrayList<>();
        private long sequence;

        /**
         * Adds a waiter for the next check; returns whether no check was pending to be sent yet (the caller then
         * schedules {@link #send}). Waiters that arrive before the send share one check.
         */
        boolean await(CompletableFuture<Void> waiter) {
            unsent.removeIf(CompletableFuture::isDone);
            unsent.add(waiter);
            return unsent.size() == 1;
        }

        /** Turns the waiters added since the last send into one check; returns its sequence, or -1 when none wait. */
        long send() {
            unsent.removeIf(CompletableFuture::isDone);
            sent.values().removeIf(waiters -> waiters.stream().allMatch(CompletableFuture::isDone));
            if (unsent.isEmpty()) {
                return -1;
            }
            long number = ++sequence;
            sent.put(number, unsent);
            unsent = new ArrayList<>();
            while (sent.size() > MAX_OUTSTANDING) {
                failAll(sent.pollFirstEntry().getValue(), "the leader answered none of the last " + MAX_OUTSTANDING + " checks");
            }
            return number;
        }

        /** The leader confirmed check {@code number}: it and every earlier one were asked before its beat. */
        void confirmed(long number) {
            Map<Long, List<CompletableFuture<Void>>> covered = sent.headMap(number, true);
            covered.values().forEach(waiters -> waiters.forEach(waiter -> waiter.complete(null)));
            covered.clear();
        }

        /** Fails every waiter (the node stops, or has no view to ask in). */
        void failAll(String reason) {
            sent.values().forEach(waiters -> failAll(waiters, reason));
            sent.clear();
            failAll(unsent, reason);
            unsent = new ArrayList<>();
        }

        private static void failAll(List<CompletableFuture<Void>> waiters, String reason) {
            IllegalStateException failure = new IllegalStateException("no majority confirmed: " + reason);
            waiters.forEach(waiter -> waiter.completeExceptionally(failure));
        }
    }

    /**
     * The leader's side: checks received, in arrival order, until a beat sent after each is answered by a
     * majority. Events thread only.
     *
     * @param <A> how the leader addresses the asking node
     */
    static final class Confirmations<A> {

        /** Checks held at most; beyond it the oldest are dropped and their askers time out. */
        static final int MAX_PENDING = 1024;

        record Check<A>(A source, long number, long receivedNanos) {
        }

        private final ArrayDeque<Check<A>> pending = new ArrayDeque<>();

        void received(A source, long number, long nowNanos) {
            pending.addLast(new Check<>(source, number, nowNanos));
            while (pending.size() > MAX_PENDING) {
                pending.pollFirst();
            }
        }

        /**
         * A majority answered the beat sent at {@code beatSentNanos}: removes and returns the checks received
         * before it, which it proves.
         */
        List<Check<A>> confirmedBy(long beatSentNanos) {
            List<Check<A>> confirmed = new ArrayList<>();
            for (Iterator<Check<A>> it = pending.iterator(); it.hasNext(); ) {
                Check<A> check = it.next();
                if (check.receivedNanos() - beatSentNanos <= 0) {
                    confirmed.add(check);
                    it.remove();
                }
            }
            return confirmed;
        }

        /** This node stopped leading: nobody will confirm what it received. */
        void clear() {
            pending.clear();
        }

        int size() {
            return pending.size();
        }
    }
}
