package io.zaris.spring.client;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.zaris.spring.cache.ZarisCacheErrorHandler;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * A node crash as most users meet it: a Spring Boot application in client mode, with every {@code zaris.*}
 * setting at its default, serves one {@code @Cacheable} method behind an HTTP endpoint on a real web server
 * to {@value #CALLERS} concurrent callers (misses write, hits read). Three standalone server processes with
 * the server's defaults (replication factor 2, SYNC acknowledgements) hold the cache; after
 * {@link #BEFORE_KILL} the leader gets {@code kill -9}, and the callers go on for {@link #AFTER_KILL}.
 *
 * <p>Every request must answer 200, and no cache failure may have fallen through to the method
 * ({@code zaris.cache.on-error=fall-through}, the default, would otherwise hide a cache that did not ride
 * the crash out by itself). What was measured is printed whether or not it passes.
 */
@Tag("multi-process")
class ZarisCacheNodeKillIntegrationTests {

    static final int CALLERS = 16;
    static final Duration BEFORE_KILL = Duration.ofSeconds(5);
    static final Duration AFTER_KILL = Duration.ofSeconds(20);
    /** Above the client's default 60 s deadline, so an answer that fell through still arrives. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(75);

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyRequestShouldBeAnsweredThroughAKillOfTheLeaderWithoutFallingThrough() throws Exception {
        try (StandaloneServers servers = new StandaloneServers(Path.of("target", "node-kill-servers"))) {
            List<String> seeds = servers.start(3);
            String leader = StandaloneServers.awaitEveryPartitionWritable(seeds, Duration.ofSeconds(120));
            try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PriceApplication.class)
                    .properties("server.port=0", "spring.main.banner-mode=off",
                            "zaris.client.seeds=" + String.join(",", seeds))
                    .run()) {
                FallThroughKinds fallThroughKinds = FallThroughKinds.attach();
                int port = app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
                HttpLoad load = HttpLoad.start(port, CALLERS, REQUEST_TIMEOUT);
                Thread.sleep(BEFORE_KILL.toMillis());
                load.mark();
                servers.kill(leader == null ? 0 : Integer.parseInt(leader.substring(1)) - 1);
                Thread.sleep(AFTER_KILL.toMillis());
                HttpLoad.Result result = load.stop();
                fallThroughKinds.detach();

                ZarisCacheErrorHandler errors = app.getBean(ZarisCacheErrorHandler.class);
                System.out.printf("kill -9 of the leader %s under %d HTTP callers: %d requests before the kill, %d"
                                + " after (%d s); slowest answer after the kill %d ms; method ran %d times;"
                                + " non-200 answers %d %s; fall-throughs %d (get %d, put %d) %s%n",
                        leader, CALLERS, result.before(), result.after(), AFTER_KILL.toSeconds(),
                        result.slowestAfterMarkMillis(), app.getBean(PriceService.class).loads(), result.failed(),
                        result.failures(), errors.fallThroughCount(),
                        errors.fallThroughCount("prices", ZarisCacheErrorHandler.Operation.GET),
                        errors.fallThroughCount("prices", ZarisCacheErrorHandler.Operation.PUT),
                        fallThroughKinds.counts());

                SoftAssertions softly = new SoftAssertions();
                softly.assertThat(result.after()).as("requests answered after the kill").isPositive();
                softly.assertThat(result.failures()).as("answers other than 200").isEmpty();
                softly.assertThat(errors.fallThroughCount()).as("cache failures that fell through to the method")
                        .isZero();
                softly.assertAll();
            }
        }
    }

    /** Cached prices: the method runs on a miss only, and counts its runs. */
    public static class PriceService {

        private final AtomicLong loads = new AtomicLong();

        /** Through a method: callers hold the caching proxy, whose own fields are unset. */
        public long loads() {
            return loads.get();
        }

        @Cacheable("prices")
        public String price(String item) {
            loads.incrementAndGet();
            return "price of " + item;
        }
    }

    /** The endpoint; an exception is answered 500 with its kind, for the tally. */
    @RestController
    public static class PriceController {

        private final PriceService prices;

        public PriceController(PriceService prices) {
            this.prices = prices;
        }

        @GetMapping("/prices/{item}")
        public String price(@PathVariable String item) {
            return prices.price(item);
        }

        @ExceptionHandler(RuntimeException.class)
        public ResponseEntity<String> failed(RuntimeException e) {
            return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).body(e.toString());
        }
    }

    /** The application: Boot's auto-configuration, Zaris's included, and the two beans above. */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @EnableCaching
    static class PriceApplication {

        @Bean
        PriceService priceService() {
            return new PriceService();
        }

        @Bean
        PriceController priceController(PriceService prices) {
            return new PriceController(prices);
        }
    }

    /**
     * Counts the failures that fell through by kind, from the handler's WARN lines (whose fourth argument
     * is the failure as text). Attached once the application has configured logging, which would remove it.
     */
    static final class FallThroughKinds extends AppenderBase<ILoggingEvent> {

        private final ConcurrentMap<String, LongAdder> kinds = new ConcurrentHashMap<>();

        static FallThroughKinds attach() {
            FallThroughKinds appender = new FallThroughKinds();
            appender.start();
            logger().addAppender(appender);
            return appender;
        }

        void detach() {
            logger().detachAppender(this);
            stop();
        }

        Map<String, Long> counts() {
            Map<String, Long> counts = new TreeMap<>();
            kinds.forEach((kind, count) -> counts.put(kind, count.sum()));
            return counts;
        }

        @Override
        protected void append(ILoggingEvent event) {
            Object[] arguments = event.getArgumentArray();
            String kind = arguments != null && arguments.length == 4 ? HttpLoad.kind(String.valueOf(arguments[3]))
                    : event.getFormattedMessage();
            kinds.computeIfAbsent(kind, k -> new LongAdder()).increment();
        }

        private static Logger logger() {
            return (Logger) LoggerFactory.getLogger(ZarisCacheErrorHandler.class);
        }
    }
}
