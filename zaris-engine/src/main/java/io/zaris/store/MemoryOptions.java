package io.zaris.store;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * A node's memory budget and what happens at it. Immutable; built with {@link #builder()}.
 *
 * <p>The budget is compared with the bytes the node's store is charged for ({@link EntrySize}: keys,
 * values and a per-entry overhead estimate) across every segment it holds, replica copies included.
 */
public final class MemoryOptions {

    /** Fraction of the JVM's maximum heap a node's budget defaults to: room is left for the op log, buffers and GC. */
    public static final double DEFAULT_HEAP_FRACTION = 0.4;
    /** Eviction policy when none is configured: a cache evicts rather than refuse writes. */
    public static final EvictionPolicy DEFAULT_POLICY = EvictionPolicy.ALLKEYS_LRU;
    /** Keys sampled per eviction (Redis's {@code maxmemory-samples}). */
    public static final int DEFAULT_EVICTION_SAMPLES = 5;
    /** How often the background task expires and evicts. */
    public static final Duration DEFAULT_MAINTENANCE_INTERVAL = Duration.ofMillis(100);
    /** Keys with a TTL the active expiry examines at most per background run. */
    public static final int DEFAULT_EXPIRY_CHECKS_PER_RUN = 2_000;
    /** Keys the background task evicts at most per run (the write path evicts too, a few at a time). */
    public static final int DEFAULT_EVICTIONS_PER_RUN = 20_000;

    private final long maxBytes;
    private final EvictionPolicy policy;
    private final int evictionSamples;
    private final Duration maintenanceInterval;
    private final int expiryChecksPerRun;
    private final int evictionsPerRun;

    private MemoryOptions(Builder builder) {
        this.maxBytes = builder.maxBytes;
        this.policy = builder.policy;
        this.evictionSamples = builder.evictionSamples;
        this.maintenanceInterval = builder.maintenanceInterval;
        this.expiryChecksPerRun = builder.expiryChecksPerRun;
        this.evictionsPerRun = builder.evictionsPerRun;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The defaults: {@link #DEFAULT_HEAP_FRACTION} of this JVM's max heap, {@link #DEFAULT_POLICY}. */
    public static MemoryOptions defaults() {
        return builder().build();
    }

    /** The default budget for one of {@code nodesInThisJvm} nodes sharing this JVM's heap. */
    public static long defaultMaxBytes(int nodesInThisJvm) {
        return (long) (Runtime.getRuntime().maxMemory() * DEFAULT_HEAP_FRACTION) / Math.max(1, nodesInThisJvm);
    }

    /**
     * Parses a size: plain bytes ({@code 1048576}), with a binary unit ({@code 512k}, {@code 64m}, {@code 2g},
     * optionally followed by {@code b} or {@code ib}), or a percentage of {@code maxHeapBytes} ({@code 40%}).
     */
    public static long parseSize(String text, long maxHeapBytes) {
        String value = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        try {
            if (value.endsWith("%")) {
                double percent = Double.parseDouble(value.substring(0, value.length() - 1));
                if (!(percent > 0 && percent <= 100)) {
                    throw new IllegalArgumentException("a memory percentage must be in (0, 100] but was '" + text + "'");
                }
                return (long) (maxHeapBytes * percent / 100);
            }
            value = value.endsWith("ib") ? value.substring(0, value.length() - 2)
                    : value.endsWith("b") ? value.substring(0, value.length() - 1) : value;
            long multiplier = 1;
            char unit = value.isEmpty() ? ' ' : value.charAt(value.length() - 1);
            switch (unit) {
                case 'k' -> multiplier = 1L << 10;
                case 'm' -> multiplier = 1L << 20;
                case 'g' -> multiplier = 1L << 30;
                default -> { }
            }
            String number = multiplier == 1 ? value : value.substring(0, value.length() - 1);
            long parsed = Math.multiplyExact(Long.parseLong(number.trim()), multiplier);
            if (parsed < 1) {
                throw new IllegalArgumentException("a memory size must be positive but was '" + text + "'");
            }
            return parsed;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("a memory size must be bytes, NNk, NNm, NNg or NN% but was '" + text + "'");
        }
    }

    /** The budget in bytes. */
    public long maxBytes() {
        return maxBytes;
    }

    public EvictionPolicy policy() {
        return policy;
    }

    public int evictionSamples() {
        return evictionSamples;
    }

    public Duration maintenanceInterval() {
        return maintenanceInterval;
    }

    public int expiryChecksPerRun() {
        return expiryChecksPerRun;
    }

    public int evictionsPerRun() {
        return evictionsPerRun;
    }

    @Override
    public String toString() {
        return "MemoryOptions[maxBytes=" + maxBytes + ", policy=" + policy + ", samples=" + evictionSamples + "]";
    }

    public static final class Builder {
        private long maxBytes = defaultMaxBytes(1);
        private EvictionPolicy policy = DEFAULT_POLICY;
        private int evictionSamples = DEFAULT_EVICTION_SAMPLES;
        private Duration maintenanceInterval = DEFAULT_MAINTENANCE_INTERVAL;
        private int expiryChecksPerRun = DEFAULT_EXPIRY_CHECKS_PER_RUN;
        private int evictionsPerRun = DEFAULT_EVICTIONS_PER_RUN;

        private Builder() {
        }

        /** The budget in bytes (default {@link #DEFAULT_HEAP_FRACTION} of the max heap). */
        public Builder maxBytes(long maxBytes) {
            if (maxBytes < 1) {
                throw new IllegalArgumentException("maxBytes must be positive but was " + maxBytes);
            }
            this.maxBytes = maxBytes;
            return this;
        }

        public Builder policy(EvictionPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Keys sampled per eviction: more is closer to true LRU and costs more per eviction (1..64). */
        public Builder evictionSamples(int evictionSamples) {
            if (evictionSamples < 1 || evictionSamples > 64) {
                throw new IllegalArgumentException("evictionSamples must be in 1..64 but was " + evictionSamples);
            }
            this.evictionSamples = evictionSamples;
            return this;
        }

        public Builder maintenanceInterval(Duration maintenanceInterval) {
            if (maintenanceInterval == null || maintenanceInterval.isNegative() || maintenanceInterval.isZero()) {
                throw new IllegalArgumentException("maintenanceInterval must be positive but was " + maintenanceInterval);
            }
            this.maintenanceInterval = maintenanceInterval;
            return this;
        }

        public Builder expiryChecksPerRun(int expiryChecksPerRun) {
            if (expiryChecksPerRun < 1) {
                throw new IllegalArgumentException("expiryChecksPerRun must be positive but was " + expiryChecksPerRun);
            }
            this.expiryChecksPerRun = expiryChecksPerRun;
            return this;
        }

        public Builder evictionsPerRun(int evictionsPerRun) {
            if (evictionsPerRun < 1) {
                throw new IllegalArgumentException("evictionsPerRun must be positive but was " + evictionsPerRun);
            }
            this.evictionsPerRun = evictionsPerRun;
            return this;
        }

        public MemoryOptions build() {
            return new MemoryOptions(this);
        }
    }
}
