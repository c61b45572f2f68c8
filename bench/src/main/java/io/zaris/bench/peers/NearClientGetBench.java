package io.zaris.bench.peers;

import io.zaris.client.NearCacheOptions;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Cost of a near-cache hit through {@code ZarisClient.get} from one thread, with no Spring in between: the floor under
 * the {@code @Cacheable} near-cache row. The same 1,000 keys and 100-character values as the Spring rows; every key
 * is read once to fill the near cache, then read in turn. The client's near-cache hit count says how many measured
 * calls were answered locally (the row's label gives the share): on a loaded machine a connection can be closed as
 * silent, and its segments' reads then go to their owners until the streams resume. Below {@link #MIN_LOCAL_SHARE}
 * the row would not measure a near-cache hit, and the run fails.
 */
final class NearClientGetBench {

    static final String LABEL = "ZarisClient.get, near-cache hit";
    private static final int KEYS = 1000;
    static final double MIN_LOCAL_SHARE = 0.99;

    private NearClientGetBench() {
    }

    static SpringRow measure(List<String> seeds, BenchSettings settings) {
        ZarisClientOptions options = ZarisClientOptions.builder().seeds(seeds.toArray(String[]::new))
                .environment(Map.of()).nearCache(NearCacheOptions.builder().build()).build();
        try (ZarisClient client = ZarisClient.connect(options)) {
            String[] keys = new String[KEYS];
            byte[] value = "x".repeat(100).getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < KEYS; i++) {
                keys[i] = "near-get-" + i;
                client.put(keys[i], value).join();
                client.get(keys[i]).join();
            }
            interval(client, keys, SpringCacheBench.warmup(settings));
            List<Double> microsPerOp = new ArrayList<>();
            Histogram latencies = new Histogram(TimeUnit.SECONDS.toNanos(30), 3);
            long calls = 0;
            long local = 0;
            for (int i = 0; i < settings.iterations(); i++) {
                Interval measured = interval(client, keys, settings.measure());
                microsPerOp.add(measured.microsPerOp());
                latencies.add(measured.latencies());
                calls += measured.calls();
                local += measured.local();
            }
            double share = (double) local / calls;
            if (share < MIN_LOCAL_SHARE) {
                throw new IllegalStateException("near-cache get: only " + local + " of " + calls + " calls answered locally");
            }
            return new SpringRow(String.format(java.util.Locale.ROOT, "%s (%.3f %% answered locally)", LABEL, 100 * share),
                    "hit", microsPerOp, latencies);
        }
    }

    private static Interval interval(ZarisClient client, String[] keys, Duration duration) {
        Histogram latencies = new Histogram(TimeUnit.SECONDS.toNanos(30), 3);
        long hitsBefore = client.nearCacheStats().hits();
        long calls = 0;
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        long now = start;
        while (now < deadline) {
            if (client.get(keys[(int) (calls % keys.length)]).join().isEmpty()) {
                throw new IllegalStateException("a key written before the measurement read back absent");
            }
            long done = System.nanoTime();
            latencies.recordValue(Math.min(done - now, latencies.getHighestTrackableValue()));
            now = done;
            calls++;
        }
        long hits = client.nearCacheStats().hits() - hitsBefore;
        return new Interval((now - start) / 1000.0 / calls, latencies, calls, hits);
    }

    private record Interval(double microsPerOp, Histogram latencies, long calls, long local) {
    }
}
