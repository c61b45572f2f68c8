package io.zaris.chaos;

import io.zaris.netbed.NetworkBed;
import java.time.Duration;
import java.util.Collection;

/**
 * The network faults of a chaos run on a {@link NetworkBed}, by node id: node {@code n<i>} runs on host {@code i}.
 * The bed's own clients (the workload, the nemesis' control client) sit on the bridge side, host
 * {@value NetworkBed#HOST_SIDE}.
 *
 * <p>Used by the nemesis thread only (the bed is not thread-safe), and by the run's main thread after the nemesis
 * has stopped.
 */
final class NetworkFaults {

    private final NetworkBed bed;
    private final boolean delaySupported;

    NetworkFaults(NetworkBed bed) {
        this.bed = bed;
        this.delaySupported = bed.supportsDelay();
    }

    /** Whether the kernel can add latency ({@code tc netem}); without it the latency fault is never injected. */
    boolean supportsDelay() {
        return delaySupported;
    }

    /** Cuts {@code nodes} from every other node and from the clients, both ways, silently (links stay up). */
    void isolate(Collection<String> nodes) {
        bed.isolate(nodes.stream().mapToInt(NetworkFaults::hostOf).toArray());
    }

    /**
     * Packets {@code node} sends to the other nodes vanish; what they send it still arrives, and its traffic with
     * the clients is untouched.
     */
    void silenceTowardsPeers(String node) {
        int from = hostOf(node);
        for (int to : bed.hostNumbers()) {
            if (to != from) {
                bed.dropOneWay(from, to);
            }
        }
    }

    /**
     * Packets the other nodes send to {@code node} vanish; what it sends them still arrives, and its traffic with
     * the clients is untouched.
     */
    void deafenTowardsPeers(String node) {
        int to = hostOf(node);
        for (int from : bed.hostNumbers()) {
            if (from != to) {
                bed.dropOneWay(from, to);
            }
        }
    }

    /** Sets {@code node}'s link down ({@code up == false}) or up again. */
    void setLink(String node, boolean up) {
        if (up) {
            bed.restoreLink(hostOf(node));
        } else {
            bed.cutLink(hostOf(node));
        }
    }

    /** Delays every packet through {@code node}'s link, both ways; only when {@link #supportsDelay()}. */
    void delay(String node, Duration delay, Duration jitter) {
        if (!delaySupported) {
            throw new IllegalStateException("this kernel cannot add latency (no tc netem)");
        }
        bed.delay(hostOf(node), delay, jitter);
    }

    /**
     * Limits {@code node}'s link to {@code kilobitsPerSecond} each way, queueing the excess up to {@code queueing}: a
     * congested link, whose delay grows with the traffic (any kernel with {@code tc tbf}, netem or not).
     */
    void throttle(String node, long kilobitsPerSecond, Duration queueing) {
        bed.throttle(hostOf(node), kilobitsPerSecond, queueing);
    }

    /** Undoes every network fault in effect. */
    void heal() {
        bed.heal();
    }

    static String nodeId(int host) {
        return "n" + host;
    }

    static int hostOf(String nodeId) {
        if (!nodeId.matches("n[1-9][0-9]*")) {
            throw new IllegalArgumentException("not a bed node id: " + nodeId);
        }
        return Integer.parseInt(nodeId.substring(1));
    }
}
