package io.zaris.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.zaris.client.ClientMetrics;
import io.zaris.client.ForwardingClientMetrics;
import io.zaris.protocol.OpCode;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Makes each client operation a Micrometer {@link Observation} named by a {@link ZarisOperationObservationConvention}.
 *
 * <p>How attempts reach the observation: the observation is started, and put in {@link #STARTING}, on the
 * caller's thread for exactly as long as the client call takes to start. The client calls
 * {@link ClientMetrics#operationStarted} on that same thread, so {@link AttemptHearing} hands it the context;
 * the client then reports each attempt with that context, from whichever thread makes it, before the operation's
 * future completes. The observation stops when the future completes (or the blocking call returns), after which
 * the attempt count is final. A client call this observer did not wrap finds no context and is passed on.
 *
 * <p>Threads: {@link #STARTING} is the calling thread's own and is restored before {@code observe} returns, so
 * nested observed calls (a cache load that uses the template) each see their own.
 */
public final class ObservedZarisOperations implements ZarisOperationObserver {

    /** The context of the observed call this thread is starting, or {@code null}. */
    private static final ThreadLocal<ZarisOperationContext> STARTING = new ThreadLocal<>();

    private static final ZarisOperationObservationConvention DEFAULT_CONVENTION =
            new DefaultZarisOperationObservationConvention();

    private final ObservationRegistry registry;
    private final ZarisOperationObservationConvention customConvention;

    /** @param customConvention replaces the default convention; {@code null} keeps it */
    public ObservedZarisOperations(ObservationRegistry registry, ZarisOperationObservationConvention customConvention) {
        this.registry = Objects.requireNonNull(registry, "registry must not be null");
        this.customConvention = customConvention;
    }

    @Override
    public <T> CompletableFuture<T> observe(String name, Supplier<CompletableFuture<T>> operation) {
        ZarisOperationContext context = new ZarisOperationContext(name);
        Observation observation = start(context);
        CompletableFuture<T> future;
        try {
            future = startingOnThisThread(context, observation, operation);
        } catch (RuntimeException | Error e) {
            stop(observation, context, e);
            throw e;
        }
        return future.whenComplete((value, failure) -> stop(observation, context, failure));
    }

    @Override
    public <T> T observeBlocking(String name, Supplier<T> operation) {
        ZarisOperationContext context = new ZarisOperationContext(name);
        Observation observation = start(context);
        T result;
        try {
            result = startingOnThisThread(context, observation, operation);
        } catch (RuntimeException | Error e) {
            stop(observation, context, e);
            throw e;
        }
        stop(observation, context, null);
        return result;
    }

    @Override
    public ClientMetrics hearingAttempts(ClientMetrics delegate) {
        return new AttemptHearing(Objects.requireNonNull(delegate, "delegate must not be null"));
    }

    private Observation start(ZarisOperationContext context) {
        return Observation.createNotStarted(customConvention, DEFAULT_CONVENTION, () -> context, registry).start();
    }

    /** Runs {@code call} with the observation in scope (a parent for what it starts) and the context findable. */
    private static <R> R startingOnThisThread(ZarisOperationContext context, Observation observation, Supplier<R> call) {
        ZarisOperationContext outer = STARTING.get();
        STARTING.set(context);
        try (Observation.Scope scope = observation.openScope()) {
            return call.get();
        } finally {
            if (outer == null) {
                STARTING.remove();
            } else {
                STARTING.set(outer);
            }
        }
    }

    private static void stop(Observation observation, ZarisOperationContext context, Throwable failure) {
        ZarisOperationOutcome outcome = ZarisOperationOutcome.of(failure);
        context.outcome(outcome);
        if (failure != null) {
            observation.error(failure);
        }
        observation.stop();
    }

    /** Forwards everything; attempts of an operation this observer started are counted on its context. */
    private static final class AttemptHearing extends ForwardingClientMetrics {

        AttemptHearing(ClientMetrics delegate) {
            super(delegate);
        }

        @Override
        public Object operationStarted(OpCode op) {
            ZarisOperationContext context = STARTING.get();
            return context != null ? context : delegate.operationStarted(op);
        }

        @Override
        public void attemptRouted(Object operation, int partition) {
            if (operation instanceof ZarisOperationContext context) {
                context.attemptRouted(partition);
            } else {
                delegate.attemptRouted(operation, partition);
            }
        }
    }
}
