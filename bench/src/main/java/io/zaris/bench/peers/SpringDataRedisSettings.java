package io.zaris.bench.peers;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * What one Spring Data Redis pass runs ({@link SpringDataRedisLoad}): the cluster's seeds, how many application
 * threads call the template at once, for how long, and the mix of reads and writes over a keyspace of fixed-size
 * values.
 *
 * @param seeds      host:port of one or more of the cluster's RESP ports
 * @param threads    application threads, each with one blocking call in flight (they share Lettuce's connection)
 * @param warmup     unmeasured time first (the client's and, for Zaris, the nodes' JIT)
 * @param measured   the measured time
 * @param keys       keys written before the pass and read or written during it
 * @param valueBytes bytes of every value
 * @param getPercent share of calls that are GETs; the rest are SETs
 */
record SpringDataRedisSettings(List<String> seeds, int threads, Duration warmup, Duration measured, int keys,
                               int valueBytes, int getPercent) {

    static final String USAGE = "SpringDataRedisLoad --seeds host:port[,host:port...] [--threads 50] [--warmup-seconds 10]"
            + " [--seconds 20] [--keys 100000] [--value-bytes 100] [--get-percent 90]";

    SpringDataRedisSettings {
        if (seeds.isEmpty() || seeds.stream().anyMatch(seed -> !seed.matches("[^:\\s]+:\\d{1,5}"))) {
            throw new IllegalArgumentException("--seeds takes host:port[,host:port...], not " + seeds);
        }
        if (getPercent < 0 || getPercent > 100) {
            throw new IllegalArgumentException("--get-percent must be within 0-100, not " + getPercent);
        }
        if (measured.isZero()) {
            throw new IllegalArgumentException("--seconds must be at least 1");
        }
    }

    /** Parses the command line; a missing or bad value is an {@link IllegalArgumentException} naming the option. */
    static SpringDataRedisSettings parse(String... args) {
        List<String> seeds = List.of();
        int threads = 50;
        int warmupSeconds = 10;
        int seconds = 20;
        int keys = 100_000;
        int valueBytes = 100;
        int getPercent = 90;
        for (int i = 0; i < args.length; i += 2) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value; usage: " + USAGE);
            }
            String value = args[i + 1];
            switch (option) {
                case "--seeds" -> seeds = Arrays.asList(value.split(","));
                case "--threads" -> threads = positive(option, value);
                case "--warmup-seconds" -> warmupSeconds = number(option, value, 0);
                case "--seconds" -> seconds = positive(option, value);
                case "--keys" -> keys = positive(option, value);
                case "--value-bytes" -> valueBytes = positive(option, value);
                case "--get-percent" -> getPercent = number(option, value, 0);
                default -> throw new IllegalArgumentException("unknown option " + option + "; usage: " + USAGE);
            }
        }
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("--seeds is required; usage: " + USAGE);
        }
        return new SpringDataRedisSettings(List.copyOf(seeds), threads, Duration.ofSeconds(warmupSeconds),
                Duration.ofSeconds(seconds), keys, valueBytes, getPercent);
    }

    private static int positive(String option, String value) {
        return number(option, value, 1);
    }

    private static int number(String option, String value, int least) {
        int number;
        try {
            number = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a whole number, not " + value, e);
        }
        if (number < least) {
            throw new IllegalArgumentException(option + " must be at least " + least + ", not " + value);
        }
        return number;
    }
}
