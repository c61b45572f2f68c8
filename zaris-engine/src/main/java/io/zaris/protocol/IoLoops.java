package io.zaris.protocol;

import java.util.Map;
import reactor.netty.resources.LoopResources;

/**
 * The event loops every Zaris socket in this JVM runs on: node data ports, RESP ports, client and
 * node-to-node connections. One thread per core by default. Reactor Netty's global loops have at least four
 * threads, which on a two-core machine meant more I/O threads than cores: requests of one client spread over
 * threads that preempt each other and flush in smaller batches (measured on 2 cores, a client on two loops
 * instead of four against the same nodes: PUT of 100 B at 128 in flight 116k → 150k ops/s, GET at 16 66k →
 * 83k). Own loops also keep Zaris off the loops of a Reactor Netty web server in the same application.
 *
 * <p>Sized once per JVM, on first use, by the system property {@value #PROPERTY} or else the environment
 * variable {@value #ENVIRONMENT} (1 to {@value #MAX_THREADS}); daemon threads, never disposed, like Reactor's
 * own global loops.
 */
public final class IoLoops {

    public static final String PROPERTY = "zaris.io-threads";
    public static final String ENVIRONMENT = "ZARIS_IO_THREADS";
    public static final int MAX_THREADS = 256;

    private static LoopResources shared;

    private IoLoops() {
    }

    /** The JVM's Zaris event loops, created on first use. */
    public static synchronized LoopResources shared() {
        if (shared == null) {
            shared = LoopResources.create("zaris-io", threads(System.getProperty(PROPERTY), System.getenv(),
                    Runtime.getRuntime().availableProcessors()), true);
        }
        return shared;
    }

    /**
     * How many threads: the property if set, else the environment variable if set, else one per core.
     *
     * @throws IllegalArgumentException for a value that is not a whole number from 1 to {@value #MAX_THREADS}
     */
    static int threads(String property, Map<String, String> environment, int cores) {
        if (property != null && !property.isBlank()) {
            return parse(property, "system property " + PROPERTY);
        }
        String variable = environment.get(ENVIRONMENT);
        if (variable != null && !variable.isBlank()) {
            return parse(variable, "environment variable " + ENVIRONMENT);
        }
        return Math.max(1, Math.min(MAX_THREADS, cores));
    }

    private static int parse(String value, String source) {
        int threads;
        try {
            threads = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(source + " must be a whole number of I/O threads but was '" + value + "'");
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException(source + " must be between 1 and " + MAX_THREADS + " but was " + threads);
        }
        return threads;
    }
}
