package io.zaris.bench.peers;

import io.lettuce.core.RedisCommandExecutionException;
import io.zaris.transport.ZarisStatusException;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Names the exceptions a client reported, coarsely enough to count them: the exception's simple class name
 * (after unwrapping the future's {@link CompletionException} or {@link ExecutionException}), plus the status for
 * a Zaris status exception and the error code for a Redis error reply ({@code CLUSTERDOWN}, {@code MOVED}, …).
 */
final class ExceptionKinds {

    private ExceptionKinds() {
    }

    static String of(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String name = cause.getClass().getSimpleName().isEmpty() ? cause.getClass().getName() : cause.getClass().getSimpleName();
        if (cause instanceof ZarisStatusException status) {
            return name + " " + status.status();
        }
        if (cause instanceof RedisCommandExecutionException && cause.getMessage() != null && !cause.getMessage().isBlank()) {
            return name + " " + cause.getMessage().trim().split("\\s+", 2)[0];
        }
        return name;
    }

    /** Counts per kind, the most frequent first (ties by name). */
    static Map<String, Long> tally(List<String> kinds) {
        Map<String, Long> counts = kinds.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        return counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
    }
}
