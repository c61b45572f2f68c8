package io.zaris.spring.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Concurrent HTTP callers of {@code GET /prices/{key}}. Each caller alternates a key it never asked for
 * (a miss: the method runs and the cache is written) with a key it asked for before (a hit: a read), so
 * both kinds of cache operation go on for the whole run. Answers are tallied: requests answered before and
 * after {@link #mark()}, failures by kind (a status other than 200 with the body the application answered,
 * or the exception the call ended with), and the slowest answer after the mark.
 *
 * <p><b>Threads.</b> One platform thread per caller, owned by this object; {@link #stop()} ends them. The
 * tallies are concurrent; {@code markNanos} and {@code running} are written by the test thread only.
 */
final class HttpLoad {

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final Duration requestTimeout;
    private final List<Thread> callers = new ArrayList<>();
    private final LongAdder before = new LongAdder();
    private final LongAdder after = new LongAdder();
    private final ConcurrentMap<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final LongAccumulator slowestAfterMarkMillis = new LongAccumulator(Math::max, 0);
    private volatile boolean running = true;
    private volatile long markNanos = Long.MAX_VALUE;

    private HttpLoad(int port, Duration requestTimeout) {
        this.base = "http://127.0.0.1:" + port + "/prices/";
        this.requestTimeout = requestTimeout;
    }

    /** Starts {@code count} callers against the application on {@code port}. */
    static HttpLoad start(int port, int count, Duration requestTimeout) {
        HttpLoad load = new HttpLoad(port, requestTimeout);
        for (int i = 0; i < count; i++) {
            int caller = i;
            Thread thread = new Thread(() -> load.call(caller), "http-caller-" + caller);
            thread.setDaemon(true);
            load.callers.add(thread);
            thread.start();
        }
        return load;
    }

    /** From now on answers count as "after" (the fault). */
    void mark() {
        markNanos = System.nanoTime();
    }

    /** Stops issuing requests, waits for those in flight and returns the tally. */
    Result stop() throws InterruptedException {
        running = false;
        for (Thread caller : callers) {
            caller.join(requestTimeout.toMillis() + 10_000);
        }
        Map<String, Long> byKind = new TreeMap<>();
        failures.forEach((kind, count) -> byKind.put(kind, count.sum()));
        return new Result(before.sum(), after.sum(), byKind, slowestAfterMarkMillis.get());
    }

    private void call(int caller) {
        Random random = new Random(caller);
        int asked = 0;
        for (long n = 0; running; n++) {
            boolean fresh = asked == 0 || n % 2 == 0;
            int key = fresh ? asked++ : random.nextInt(asked);
            long start = System.nanoTime();
            String failure = request("c" + caller + "-" + key);
            long end = System.nanoTime();
            // By when the answer came: a request in flight at the mark is answered in the world after it.
            boolean afterMark = end >= markNanos;
            if (afterMark) {
                after.increment();
                slowestAfterMarkMillis.accumulate(TimeUnit.NANOSECONDS.toMillis(end - start));
            } else {
                before.increment();
            }
            if (failure != null) {
                String when = afterMark ? "after the mark: " : "before the mark: ";
                failures.computeIfAbsent(when + failure, kind -> new LongAdder()).increment();
            }
        }
    }

    /** Null when answered 200, else the kind of failure. */
    private String request(String key) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + key)).timeout(requestTimeout).GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? null : "HTTP " + response.statusCode() + " " + kind(response.body());
        } catch (IOException e) {
            return kind(e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
            return "interrupted";
        }
    }

    /** A failure's text with numbers blanked (partition, segment, request ids), so that kinds group. */
    static String kind(String text) {
        String kind = text == null ? "" : text.replaceAll("\\d+", "N");
        return kind.length() > 200 ? kind.substring(0, 200) + "..." : kind;
    }

    /** What the callers saw: requests before and after the mark, failures by kind, slowest answer after it. */
    record Result(long before, long after, Map<String, Long> failures, long slowestAfterMarkMillis) {

        long failed() {
            return failures.values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
