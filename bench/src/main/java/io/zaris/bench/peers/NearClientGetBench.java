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
 * is read once to fill the near cache, then read in turn. The client's near-cache hit count checks every measured call
 * was answered locally.
 */
final class NearClientGetBench {

    static final String LABEL = "ZarisClient.get, near-cache hit";
    private static final int KEYS = 1000;

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
            for (int i = 0; i < settings.iterations(); i++) {
                Interval measured = interval(client, keys, settings.measure());
                microsPerOp.add(measured.microsPerOp());
                latencies.add(measured.latencies());
            }
            return new SpringRow(LABEL, "hit", microsPerOp, latencies);
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
        if (hits != calls) {
            throw new IllegalStateException("near-cache get: " + hits + " of " + calls + " calls answered locally");
        }
        return new Interval((now - start) / 1000.0 / calls, latencies);
    }

    private record Interval(double microsPerOp, Histogram latencies) {
    }
}
