package io.zaris.client;

import io.zaris.time.TimeSource;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;

/**
 * Says once per {@link #QUIET} and node that the client cannot connect to it, with how many attempts failed since it
 * last said so: a node that is down or cut off is retried on every map refresh, and a WARN per attempt would bury
 * everything else in the application's log. A connection that opens forgets the node, so its next failure is told at
 * once.
 *
 * <p>Called from the maps thread and from connection futures on I/O threads: the per-node state lives in a concurrent
 * map and each update is one atomic {@code compute}.
 */
final class ConnectFailureLog {

    /** The least time between two WARNs about one node. */
    static final Duration QUIET = Duration.ofSeconds(10);

    /** When the last WARN about a node was written, and the failures since. */
    private record Told(long atNanos, long suppressed) {
    }

    private final Logger log;
    private final TimeSource time;
    private final Map<String, Told> told = new ConcurrentHashMap<>();

    ConnectFailureLog(Logger log, TimeSource time) {
        this.log = log;
        this.time = time;
    }

    /** Any thread: a connection attempt to {@code node} failed for {@code reason}. */
    void failed(String node, String reason) {
        long now = time.nanoTime();
        long[] suppressedBefore = {-1};
        told.compute(node, (id, previous) -> {
            if (previous == null || now - previous.atNanos() >= QUIET.toNanos()) {
                suppressedBefore[0] = previous == null ? 0 : previous.suppressed();
                return new Told(now, 0);
            }
            return new Told(previous.atNanos(), previous.suppressed() + 1);
        });
        if (suppressedBefore[0] == 0) {
            log.warn("cannot connect to node {}: {}", node, reason);
        } else if (suppressedBefore[0] > 0) {
            log.warn("cannot connect to node {}: {} ({} more failed attempts in the last {} s were not logged)", node,
                    reason, suppressedBefore[0], QUIET.toSeconds());
        } else {
            log.debug("cannot connect to node {}: {}", node, reason);
        }
    }

    /** Any thread: a connection to {@code node} opened. */
    void connected(String node) {
        told.remove(node);
    }

    /** Forgets nodes the map no longer names, so the state is bounded by the nodes of the current map. */
    void retainOnly(Set<String> nodes) {
        told.keySet().retainAll(nodes);
    }
}
