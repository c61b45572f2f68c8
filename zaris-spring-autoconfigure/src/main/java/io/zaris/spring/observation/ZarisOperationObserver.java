package io.zaris.spring.observation;

import io.zaris.client.ClientMetrics;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Wraps each client operation that the template and the caches send, so that it can be observed. The
 * {@link #none()} observer only runs the operation; {@link ObservedZarisOperations} makes each one a Micrometer
 * Observation.
 *
 * <p>An operation is named by a fixed lower-case word ({@code get}, {@code put_if_absent}, ...), never by its
 * key: nothing about a key reaches an observer.
 */
public interface ZarisOperationObserver {

    /** Runs {@code operation}, which starts the client call on this thread and returns its future. */
    <T> CompletableFuture<T> observe(String name, Supplier<CompletableFuture<T>> operation);

    /** Runs {@code operation}, which makes a blocking client call on this thread. */
    <T> T observeBlocking(String name, Supplier<T> operation);

    /**
     * The client metrics to give the client, so that this observer hears how many attempts each operation took
     * and where they went; forwards everything to {@code delegate}.
     */
    ClientMetrics hearingAttempts(ClientMetrics delegate);

    /** An observer that observes nothing. */
    static ZarisOperationObserver none() {
        return NoOperationObserver.INSTANCE;
    }

    /** The null object: runs each operation as it is. */
    enum NoOperationObserver implements ZarisOperationObserver {
        INSTANCE;

        @Override
        public <T> CompletableFuture<T> observe(String name, Supplier<CompletableFuture<T>> operation) {
            return operation.get();
        }

        @Override
        public <T> T observeBlocking(String name, Supplier<T> operation) {
            return operation.get();
        }

        @Override
        public ClientMetrics hearingAttempts(ClientMetrics delegate) {
            return delegate;
        }
    }
}
