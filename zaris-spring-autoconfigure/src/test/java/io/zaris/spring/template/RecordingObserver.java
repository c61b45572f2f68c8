package io.zaris.spring.template;

import io.zaris.client.ClientMetrics;
import io.zaris.spring.observation.ZarisOperationObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** A template test's observer: records each operation's name in the given list (which must be thread-safe) and runs it. */
final class RecordingObserver implements ZarisOperationObserver {

    private final List<String> observed;

    RecordingObserver(List<String> observed) {
        this.observed = observed;
    }

    @Override
    public <T> CompletableFuture<T> observe(String name, Supplier<CompletableFuture<T>> operation) {
        observed.add(name);
        return operation.get();
    }

    @Override
    public <T> T observeBlocking(String name, Supplier<T> operation) {
        observed.add(name);
        return operation.get();
    }

    @Override
    public ClientMetrics hearingAttempts(ClientMetrics delegate) {
        return delegate;
    }
}
