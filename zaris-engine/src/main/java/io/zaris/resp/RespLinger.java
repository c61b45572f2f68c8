package io.zaris.resp;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * A drained node's RESP port after its last partition moved away: it stays open, so that a Redis cluster client
 * that still routes slots here (Lettuce refreshes its topology at most once per 30 s by default) gets {@code -MOVED}
 * to each slot's new owner, and {@code CLUSTER SLOTS/SHARDS/NODES} with the current map, instead of a closed socket
 * whose commands wait in the client's reconnect buffer until its next refresh. It closes once its clients have
 * gone quiet (no command but connection and topology ones for {@link #quiet}), when none is connected, or after
 * {@link #max}, whichever comes first.
 *
 * <p>Threads: {@link #commandArrived} on the RESP event loops (one volatile read unless lingering); the linger
 * itself on the thread that stops the node.
 */
public final class RespLinger {

    /** Quiet time unless configured: longer than a busy client's gap between commands, short next to a refresh. */
    public static final Duration DEFAULT_QUIET = Duration.ofSeconds(2);
    /** Longest linger unless configured: a little more than Lettuce's default adaptive refresh rate limit (30 s). */
    public static final Duration DEFAULT_MAX = Duration.ofSeconds(35);

    /**
     * Commands that do not mean an application is still sending here: handshakes, health checks and topology
     * refreshes, which a client also sends to nodes it routes nothing to.
     */
    private static final Set<String> NOT_TRAFFIC = Set.of("CLUSTER", "PING", "HELLO", "AUTH", "CLIENT", "COMMAND",
            "INFO", "READONLY", "READWRITE", "QUIT", "ECHO", "SELECT");

    /** What the stopping thread does next. */
    enum Step {
        /** Keep the port open and look again. */
        LINGER,
        /** No client is connected. */
        CLOSE_NO_CLIENTS,
        /** No command for the quiet time. */
        CLOSE_QUIET,
        /** The longest linger passed. */
        CLOSE_MAX
    }

    private final Duration quiet;
    private final Duration max;
    /** Whether the port lingers: only then is a command's arrival time recorded. */
    private volatile boolean lingering;
    /** When the last command that counts arrived (nanoTime), while lingering. */
    private volatile long lastCommandNanos;

    /**
     * @throws IllegalArgumentException when either duration is negative, or {@code quiet} exceeds {@code max}
     */
    public RespLinger(Duration quiet, Duration max) {
        if (quiet.isNegative() || max.isNegative() || quiet.compareTo(max) > 0) {
            throw new IllegalArgumentException("RESP linger needs 0 <= quiet <= max, got quiet " + quiet + " and max " + max);
        }
        this.quiet = quiet;
        this.max = max;
    }

    public static RespLinger defaults() {
        return new RespLinger(DEFAULT_QUIET, DEFAULT_MAX);
    }

    public Duration quiet() {
        return quiet;
    }

    public Duration max() {
        return max;
    }

    /** Event loop: a command arrived; recorded only while lingering. */
    void commandArrived(List<byte[]> command) {
        if (lingering && !command.isEmpty() && !NOT_TRAFFIC.contains(new String(command.get(0), StandardCharsets.US_ASCII)
                .toUpperCase(java.util.Locale.ROOT))) {
            lastCommandNanos = System.nanoTime();
        }
    }

    /** Starts recording commands; the quiet time counts from now. */
    void begin(long now) {
        lastCommandNanos = now;
        lingering = true;
    }

    long lastCommandNanos() {
        return lastCommandNanos;
    }

    /**
     * Pure: what to do at {@code now}, having lingered since {@code startedAt}, with the last counted command at
     * {@code lastCommand} and {@code connections} clients connected (all on one nanoTime clock).
     */
    static Step next(long now, long startedAt, long lastCommand, int connections, Duration quiet, Duration max) {
        if (connections == 0) {
            return Step.CLOSE_NO_CLIENTS;
        }
        if (now - startedAt >= max.toNanos()) {
            return Step.CLOSE_MAX;
        }
        return now - lastCommand >= quiet.toNanos() ? Step.CLOSE_QUIET : Step.LINGER;
    }
}
