package io.zaris.client;

import static io.zaris.client.ClientFailures.reasonOf;
import static io.zaris.client.ClientFailures.unwrap;

import io.zaris.model.KvStatus;
import io.zaris.model.PartitionRuntime;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.Request;
import io.zaris.time.TimeSource;
import io.zaris.transport.NodeConnection;
import io.zaris.transport.ResponseReader;
import io.zaris.transport.ZarisException;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTimeoutException;
import io.zaris.transport.ZarisTransportException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one key-addressed operation to completion: routes each attempt by the {@link TopologyKeeper}'s table, sends
 * it on the owner's connection, and after a failure asks {@link RetryPolicy#nextStep} (its rules: which failure is
 * retried, waited on or surfaced, and how long to wait, by the count of attempts {@link RoutingAttempts} keeps) what
 * comes next, then acts on the answer: applies a wrong-node answer's hint, asks for a map refresh, waits on the timer
 * and on the map for a new owner, and tries again. The decisions are pure; this class is their I/O.
 *
 * <p>Threads and state: an {@link Operation} is handed from attempt to attempt: the caller's thread sends the
 * first, the event loop that hears a failure decides the next, the "zaris-client-timer" thread (or the thread that
 * published a new table) starts it. One attempt of an operation is in flight at a time and each hands over through
 * a future's completion, so the operation's fields need no lock. Retry delays are timer tasks, never sleeps. The
 * executor's own state is the timer and the {@code closed} flag.
 */
final class RequestExecutor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RequestExecutor.class);
    /** An idempotent attempt unanswered this long is given up once its partition has another owner ({@link #movedAway}). */
    private static final Duration STUCK_ATTEMPT = Duration.ofMillis(500);

    private final ZarisClientOptions options;
    private final TimeSource time;
    private final RetryPolicy retryPolicy;
    private final ClientMetrics metrics;
    private final TopologyKeeper topology;
    private final ScheduledExecutorService timer;
    /** The waits {@link #after} handed out and not yet ended; concurrent, as any thread may add or end one. */
    private final Set<CompletableFuture<Void>> delays = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    RequestExecutor(ZarisClientOptions options, TimeSource time, TopologyKeeper topology) {
        this.options = options;
        this.time = time;
        this.retryPolicy = options.retryPolicy();
        this.metrics = options.metrics();
        this.topology = topology;
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "zaris-client-timer");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Runs one operation to completion: routes it, sends it, and on failure asks the retry brain whether
     * and when to try again (after refreshing the map if the brain says the map is wrong). {@code onAnswer}, when
     * given, hears the answer that completes the operation, with the connection it came on and the epoch it was
     * routed by, on that connection's event loop before any later frame of it (a push) is read.
     *
     * @param idempotent whether repeating it after it may already have been applied is harmless
     */
    <T> CompletableFuture<T> execute(OpCode op, byte[] routingKey, boolean idempotent,
                                     LongFunction<Request> requestFactory, ResponseReader<T> reader,
                                     Answered<T> onAnswer) {
        long startNanos = time.nanoTime();
        long deadline = options.requestTimeout().deadlineFrom(startNanos);
        Operation<T> operation = new Operation<>(op, routingKey, idempotent, requestFactory, reader, deadline, onAnswer,
                metrics.operationStarted(op));
        if (metrics != ClientMetrics.disabled()) {
            // Without metrics the timing callback is skipped: one completion stage less per request.
            operation.result.whenComplete((value, error) -> metrics.request(op, statusOf(operation, error),
                    time.nanoTime() - startNanos));
        }
        attempt(operation, 1, null);
        return operation.result;
    }

    /**
     * Runs {@link #tryAttempt}; an exception escaping it would otherwise vanish inside a future callback or
     * a timer task and leave the caller waiting forever, so it fails the operation instead.
     *
     * @param lastFailure how the previous attempt failed ({@code null} for the first)
     */
    private <T> void attempt(Operation<T> operation, int attempt, Throwable lastFailure) {
        try {
            tryAttempt(operation, attempt, lastFailure);
        } catch (RuntimeException e) {
            log.error("{} attempt {} failed unexpectedly", operation.op, attempt, e);
            if (lastFailure != null) {
                e.addSuppressed(lastFailure);
            }
            operation.result.completeExceptionally(e);
        }
    }

    private <T> void tryAttempt(Operation<T> operation, int attempt, Throwable lastFailure) {
        if (closed) {
            operation.result.completeExceptionally(new ZarisException("client is closed"));
            return;
        }
        long now = time.nanoTime();
        // Checked again right before sending: a map refresh may have used up the time the retry brain saw when
        // it scheduled this attempt.
        if (pastDeadline(now, operation.deadline)) {
            operation.result.completeExceptionally(timedOut(operation, attempt, lastFailure));
            return;
        }
        RoutingTable current = topology.table();
        int segment = topology.segmentMapper().segmentOf(operation.routingKey);
        int partition = current.view().layout().partitionOf(segment);
        operation.attempts.routedTo(partition, RoutingWatch.Routing.of(current, partition));
        metrics.attemptRouted(operation.observed, partition);
        NodeConnection connection = current.connectionFor(segment);
        if (connection == null) {
            // Never sent, so safe to repeat for any operation; and like a lost node it means the table may
            // be out of date: the retry brain refreshes it before the next attempt.
            PartitionRuntime runtime = current.view().runtimeOfSegment(segment);
            onAttemptFailed(operation, attempt, null, runtime.health().isServing()
                    ? new ZarisTransportException("no connection to node " + runtime.activeNode() + ", the owner of segment "
                            + segment, false)
                    : new NoServingOwnerException("partition " + current.view().layout().partitionOf(segment)
                            + " has no serving owner (" + runtime.health() + ") in the client's map"));
            return;
        }
        int deadlineMillis = operation.deadline == Long.MAX_VALUE ? 0
                : (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(operation.deadline - now)));
        // The connection measures its timeout on the same clock (the keeper opens it with this time). One
        // attempt waits at most attemptTimeout, so a node that stopped answering costs one timeout, not the
        // whole operation deadline.
        long attemptNanos = options.attemptTimeout().toNanos();
        long left = operation.deadline == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, operation.deadline - now);
        long answerDeadline = now + Math.min(attemptNanos, left);
        long routedEpoch = current.epochOf(segment);
        connection.send(operation.requestFactory, operation.statusRecordingReader, routedEpoch, deadlineMillis,
                        answerDeadline, 0, operation.idempotent ? movedAway(partition, operation.attempts.routing()) : null)
                .whenComplete((value, error) -> {
                    if (error == null) {
                        if (operation.onAnswer != null) {
                            operation.onAnswer.answered(value, connection, routedEpoch);
                        }
                        operation.result.complete(value);
                    } else {
                        onAttemptFailed(operation, attempt, connection.nodeId(), unwrap(error));
                    }
                });
    }

    /**
     * Whether an idempotent attempt still unanswered after {@link #STUCK_ATTEMPT} should be given up because the
     * table now routes its partition to another owner: a hung owner (paused, cut off) does not answer until long
     * after the cluster replaced it, and waiting out the attempt timeout would keep the request from the new
     * owner. Asked by the connection's timeout sweep; reads only the volatile table.
     */
    BooleanSupplier movedAway(int partition, RoutingWatch.Routing sentOn) {
        long sentAt = time.nanoTime();
        return () -> time.nanoTime() - sentAt > STUCK_ATTEMPT.toNanos()
                && !Objects.equals(RoutingWatch.Routing.of(topology.table(), partition).activeNode(), sentOn.activeNode());
    }

    /**
     * Like {@link #attempt}: whatever goes wrong deciding the next step fails the operation, never strands it.
     *
     * @param sentTo the node the failed attempt went to ({@code null} when it was not sent)
     */
    private <T> void onAttemptFailed(Operation<T> operation, int attempt, String sentTo, Throwable failure) {
        try {
            decideNextAttempt(operation, attempt, sentTo, failure);
        } catch (RuntimeException e) {
            log.error("{} attempt {}: deciding the retry failed unexpectedly", operation.op, attempt, e);
            e.addSuppressed(failure);
            operation.result.completeExceptionally(e);
        }
    }

    private <T> void decideNextAttempt(Operation<T> operation, int attempt, String sentTo, Throwable failure) {
        boolean retargeted = false;
        if (failure instanceof ZarisStatusException statusFailure && statusFailure.routingHint() != null) {
            retargeted = topology.applyHint(statusFailure.routingHint(), sentTo);
        }
        long now = time.nanoTime();
        operation.attempts.failed(now);
        RetryPolicy.Decision decision = retryPolicy.nextStep(failure, operation.idempotent,
                operation.attempts.count(), operation.attempts.stalledSince(), now, operation.deadline,
                options.mapRefreshWait().toNanos(), retargeted);
        if (!decision.retry()) {
            if (RetryPolicy.ambiguous(failure, operation.idempotent)) {
                metrics.ambiguousFailure(operation.op); // final only because repeating it could apply it twice
            }
            operation.result.completeExceptionally(failure);
            return;
        }
        metrics.retry(reasonOf(failure));
        long timeLeft = operation.deadline == Long.MAX_VALUE ? Long.MAX_VALUE : operation.deadline - now;
        // The wait for a shared refresh ends at the deadline at the latest; the next attempt then times out.
        CompletableFuture<Void> mapReady = decision.refreshMap()
                ? topology.refresh(RefreshTrigger.REACT, timeLeft) : CompletableFuture.completedFuture(null);
        CompletableFuture<Void> delayElapsed = new CompletableFuture<>();
        try {
            timer.schedule(() -> delayElapsed.complete(null), decision.delayNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            operation.result.completeExceptionally(new ZarisException("client is closed"));
            return;
        }
        // A table that routes the partition differently (a push, a hint, a refresh) ends the wait at once.
        RoutingWatch.Waiter routed = topology.changeOf(operation.attempts.partition(), operation.attempts.routing());
        CompletableFuture<Void> next = new CompletableFuture<>();
        routed.changed.thenRun(() -> next.complete(null));
        CompletableFuture.allOf(mapReady, delayElapsed).whenComplete((ignored, error) -> next.complete(null));
        next.whenComplete((ignored, error) -> {
            topology.stopWaiting(routed);
            attempt(operation, attempt + 1, failure);
        });
    }

    private static boolean pastDeadline(long now, long deadline) {
        return deadline != Long.MAX_VALUE && now - deadline >= 0;
    }

    /** The deadline passed before attempt number {@code attempt} could start; the last failure travels along. */
    private ZarisTimeoutException timedOut(Operation<?> operation, int attempt, Throwable lastFailure) {
        ZarisTimeoutException timeout = new ZarisTimeoutException(operation.op + " did not complete within the request "
                + "timeout of " + options.requestTimeout() + " (" + (attempt - 1) + " attempt(s) made)");
        if (lastFailure != null) {
            timeout.addSuppressed(lastFailure);
        }
        return timeout;
    }

    /** One operation's fixed parts, shared by its attempts. */
    private static final class Operation<T> {
        final OpCode op;
        final byte[] routingKey;
        final boolean idempotent;
        final LongFunction<Request> requestFactory;
        final ResponseReader<T> reader;
        final long deadline;
        final CompletableFuture<T> result = new CompletableFuture<>();
        /** Hears the answer that completes the operation; {@code null} for none. */
        final Answered<T> onAnswer;
        /** What {@link ClientMetrics#operationStarted} returned for this operation (may be {@code null}). */
        final Object observed;
        /** The count of attempts per routing the retry rules decide by. */
        final RoutingAttempts attempts = new RoutingAttempts();
        /**
         * The status of the last answer read, so meters tell NOT_FOUND and CONFLICT from OK. Written on the
         * event loop of the attempt's connection before {@code result} completes, read after it did.
         */
        volatile KvStatus lastStatus;
        final ResponseReader<T> statusRecordingReader;

        Operation(OpCode op, byte[] routingKey, boolean idempotent, LongFunction<Request> requestFactory,
                  ResponseReader<T> reader, long deadline, Answered<T> onAnswer, Object observed) {
            this.op = op;
            this.observed = observed;
            this.onAnswer = onAnswer;
            this.routingKey = routingKey;
            this.idempotent = idempotent;
            this.requestFactory = requestFactory;
            this.reader = reader;
            this.deadline = deadline;
            this.statusRecordingReader = (status, body) -> {
                lastStatus = status;
                return reader.read(status, body);
            };
        }
    }

    /** The meters' {@code status} tag: the answer's status (ok, not_found, conflict) or how it failed. */
    private static String statusOf(Operation<?> operation, Throwable error) {
        if (error != null) {
            return reasonOf(unwrap(error));
        }
        KvStatus answered = operation.lastStatus;
        return answered == null ? "ok" : answered.name().toLowerCase(Locale.ROOT);
    }

    /**
     * Completes after {@code delayNanos} on the timer thread, so a caller waits between operations without holding a
     * thread; fails with "client is closed" when the client closes first (the timer then runs nothing more).
     */
    CompletableFuture<Void> after(long delayNanos) {
        CompletableFuture<Void> elapsed = new CompletableFuture<>();
        delays.add(elapsed);
        elapsed.whenComplete((ignored, error) -> delays.remove(elapsed));
        if (closed) { // checked after the add: close() fails what it finds, this fails what it missed
            elapsed.completeExceptionally(new ZarisException("client is closed"));
            return elapsed;
        }
        try {
            timer.schedule(() -> elapsed.complete(null), Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            elapsed.completeExceptionally(new ZarisException("client is closed"));
        }
        return elapsed;
    }

    /** Fails every later attempt with "client is closed" and stops the timer; idempotent. */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        for (CompletableFuture<Void> delay : delays) { // their timer tasks were dropped: nothing else ends them
            delay.completeExceptionally(new ZarisException("client is closed"));
        }
    }

    /** What hears the answer that completed an operation (see {@link #execute}). */
    @FunctionalInterface
    interface Answered<T> {
        void answered(T value, NodeConnection connection, long routedEpoch);
    }
}
