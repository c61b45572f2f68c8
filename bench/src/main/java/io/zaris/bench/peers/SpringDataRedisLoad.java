package io.zaris.bench.peers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ValueOperations;

/**
 * The path a Spring user who switches from Redis Cluster takes: a Spring Boot application whose only Redis
 * configuration is Boot's cluster properties, calling the auto-configured {@link StringRedisTemplate} (Lettuce,
 * cluster mode, adaptive and periodic topology refresh) from many application threads, each with one blocking call
 * in flight. The same code, pointed at Redis Cluster or at Zaris's RESP ports, gives the {@code bench/redis-benchmark}
 * rows "Spring Data Redis".
 *
 * <p>Writes every key once, runs the mix unmeasured for the warm-up, prints {@code MEASURING}, runs it for the
 * measured time, and prints one
 * {@code RESULT|ops/s|avg ms|p50 ms|p99 ms|max ms|failures|misses} line (a failed call ends its
 * thread and is counted, in the warm-up too) for the script to parse.
 *
 * <p>Threads: each worker owns its random source; the latency {@link Recorder} and the counters are safe for
 * concurrent writers; {@code measuring} is set by the main thread and read by the workers (volatile).
 */
public final class SpringDataRedisLoad {

    private static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final String KEY_PREFIX = "sdr:";

    private final SpringDataRedisSettings settings;
    private final ValueOperations<String, String> values;
    private final String value;
    private final Recorder latencies = new Recorder(HIGHEST_TRACKABLE_NANOS, 3);
    private final LongAdder completed = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private volatile boolean measuring;
    private volatile boolean running = true;

    private SpringDataRedisLoad(SpringDataRedisSettings settings, ValueOperations<String, String> values) {
        this.settings = settings;
        this.values = values;
        this.value = "v".repeat(settings.valueBytes());
    }

    public static void main(String[] args) throws InterruptedException {
        SpringDataRedisSettings settings;
        try {
            settings = SpringDataRedisSettings.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE).properties(properties(settings))
                .properties("spring.main.banner-mode=off", "spring.main.log-startup-info=false")
                .run()) {
            SpringDataRedisLoad load = new SpringDataRedisLoad(settings, context.getBean(StringRedisTemplate.class).opsForValue());
            System.out.println(load.run());
        }
    }

    /** Boot's own Redis Cluster properties, as docs/redis-protocol.md gives them to a Spring application. */
    static Map<String, Object> properties(SpringDataRedisSettings settings) {
        return Map.of("spring.data.redis.cluster.nodes", String.join(",", settings.seeds()),
                "spring.data.redis.timeout", LettuceClusterKvClient.COMMAND_TIMEOUT.toMillis() + "ms",
                "spring.data.redis.lettuce.cluster.refresh.adaptive", "true",
                "spring.data.redis.lettuce.cluster.refresh.period", LettuceClusterKvClient.TOPOLOGY_REFRESH_PERIOD.toSeconds() + "s");
    }

    private String run() throws InterruptedException {
        runThreads(this::load);
        List<Thread> workers = startWorkers();
        Thread.sleep(settings.warmup().toMillis());
        latencies.reset();
        measuring = true;
        System.out.println("MEASURING");
        long start = System.nanoTime();
        Thread.sleep(settings.measured().toMillis());
        measuring = false;
        double seconds = (System.nanoTime() - start) / 1e9;
        running = false;
        for (Thread worker : workers) {
            worker.join();
        }
        Histogram histogram = latencies.getIntervalHistogram();
        return String.format(Locale.ROOT, "RESULT|%.2f|%.3f|%.3f|%.3f|%.3f|%d|%d", completed.sum() / seconds,
                histogram.getMean() / 1e6, histogram.getValueAtPercentile(50) / 1e6,
                histogram.getValueAtPercentile(99) / 1e6, histogram.getMaxValue() / 1e6, failures.sum(), misses.sum());
    }

    /** Worker {@code index} of {@code count} writes its share of the keys, so every GET of the mix finds its key. */
    private void load(int index, int count) {
        for (int key = index; key < settings.keys(); key += count) {
            values.set(KEY_PREFIX + key, value);
        }
    }

    private void runThreads(Worker work) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < settings.threads(); i++) {
            int index = i;
            Thread thread = new Thread(() -> work.run(index, settings.threads()), "load-" + i);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }

    private List<Thread> startWorkers() {
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < settings.threads(); i++) {
            Thread worker = new Thread(this::mix, "app-" + i);
            worker.start();
            workers.add(worker);
        }
        return workers;
    }

    /** One application thread: blocking GETs and SETs of random keys in the settings' mix until the run ends. */
    private void mix() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (running) {
            String key = KEY_PREFIX + random.nextInt(settings.keys());
            boolean counted = measuring;
            long begin = System.nanoTime();
            try {
                if (random.nextInt(100) < settings.getPercent()) {
                    if (values.get(key) == null && counted) {
                        misses.increment();
                    }
                } else {
                    values.set(key, value);
                }
            } catch (RuntimeException e) {
                // A failed call ends its thread (counted): a cluster that fails every call must not spin the loop.
                failures.increment();
                return;
            }
            // Counted only when it started and ended inside the measured time.
            if (counted && measuring) {
                latencies.recordValue(Math.min(System.nanoTime() - begin, HIGHEST_TRACKABLE_NANOS));
                completed.increment();
            }
        }
    }

    @FunctionalInterface
    private interface Worker {
        void run(int index, int count);
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(DataRedisAutoConfiguration.class)
    static class Application {
    }
}
