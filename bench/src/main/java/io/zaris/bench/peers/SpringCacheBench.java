package io.zaris.bench.peers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Cost of a {@code @Cacheable} call from one thread: a hit (the value is in the cache) and a miss (the
 * method runs and its value is stored). Each path is warmed up, then measured over several intervals.
 * The loader count checks each path did what it claims: hits never load, every miss loads once.
 */
final class SpringCacheBench {

    /** Distinct keys the hit path cycles over. */
    private static final int HIT_KEYS = 1000;
    /**
     * Least unmeasured time per path. A near-cache hit costs well under a microsecond once compiled; the half second
     * of the other rows' warm-up left it interpreted, at 10 µs and more.
     */
    static final Duration MIN_WARMUP = Duration.ofSeconds(3);

    private SpringCacheBench() {
    }

    static List<SpringRow> measure(SpringCacheProvider provider, List<String> seeds, BenchSettings settings)
            throws InterruptedException {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(provider.application())
                .web(WebApplicationType.NONE).properties(provider.properties(seeds))
                .properties("spring.main.banner-mode=off", "spring.main.log-startup-info=false")
                .run()) {
            CatalogService service = context.getBean(CatalogService.class);
            String[] hitKeys = new String[HIT_KEYS];
            for (int i = 0; i < HIT_KEYS; i++) {
                hitKeys[i] = "hit-" + i;
                service.describe(hitKeys[i]);
            }
            List<SpringRow> rows = new ArrayList<>();
            for (String path : List.of("hit", "miss")) {
                boolean hit = path.equals("hit");
                interval(service, hit, hitKeys, warmup(settings), provider + "-warm-" + path);
                List<Double> microsPerOp = new ArrayList<>();
                Histogram latencies = new Histogram(TimeUnit.SECONDS.toNanos(30), 3);
                for (int i = 0; i < settings.iterations(); i++) {
                    Interval measured = interval(service, hit, hitKeys, settings.measure(), provider + "-" + path + "-" + i);
                    microsPerOp.add(measured.microsPerOp());
                    latencies.add(measured.latencies());
                }
                rows.add(new SpringRow(provider.label(), path, microsPerOp, latencies));
            }
            return rows;
        }
    }

    /** The unmeasured time before each path: the run's warm-up, at least {@link #MIN_WARMUP}. */
    static Duration warmup(BenchSettings settings) {
        return settings.warmup().compareTo(MIN_WARMUP) < 0 ? MIN_WARMUP : settings.warmup();
    }

    /** {@code run} names the interval, provider included: two providers may share one cluster, never a miss key. */
    private static Interval interval(CatalogService service, boolean hit, String[] hitKeys, Duration duration, String run) {
        Histogram latencies = new Histogram(TimeUnit.SECONDS.toNanos(30), 3);
        long loadsBefore = service.loads();
        long calls = 0;
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        long now = start;
        while (now < deadline) {
            String key = hit ? hitKeys[(int) (calls % hitKeys.length)] : "miss-" + run + "-" + calls;
            service.describe(key);
            long done = System.nanoTime();
            latencies.recordValue(Math.min(done - now, latencies.getHighestTrackableValue()));
            now = done;
            calls++;
        }
        long loads = service.loads() - loadsBefore;
        long expected = hit ? 0 : calls;
        if (loads != expected) {
            throw new IllegalStateException((hit ? "hit" : "miss") + " path loaded " + loads + " times in " + calls
                    + " calls, expected " + expected);
        }
        return new Interval((now - start) / 1000.0 / calls, latencies);
    }

    private record Interval(double microsPerOp, Histogram latencies) {
    }
}
