package io.zaris.bench.peers;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads full redundancy off a Redis Cluster: every one of the 16384 slots is served by a master that is neither
 * failed nor the killed node, and each such master has at least one replica that is online (its initial sync done,
 * per the master's {@code INFO replication}). The parsing is here; the target asks the nodes.
 *
 * <p>A master whose replica was promoted after the kill has no replica left: Redis only moves a replica to such an
 * orphaned master from a master that has more than {@code cluster-migration-barrier} (1) replicas, so with one
 * replica per master redundancy does not come back until a node is added.
 */
final class RedisRedundancy {

    /** Slots of a Redis Cluster. */
    static final int SLOTS = 16384;

    /** Flags that keep a node from counting as serving: failed, suspected, or not yet known. */
    private static final Set<String> NOT_SERVING = Set.of("fail", "fail?", "handshake", "noaddr");
    private static final Pattern ONLINE_REPLICA = Pattern.compile("(?m)^slave\\d+:.*\\bport=(\\d+),state=online\\b");

    private RedisRedundancy() {
    }

    /**
     * One line of {@code CLUSTER NODES}.
     *
     * @param hostPort the node's client address ({@code ip:port}, without the bus port or host name)
     * @param slots    the slots it serves (a master's ranges; slots being imported or migrated are not listed)
     */
    record Node(String id, String hostPort, Set<String> flags, String masterId, boolean connected, BitSet slots) {

        boolean isMaster() {
            return flags.contains("master");
        }

        boolean isServing() {
            return connected && flags.stream().noneMatch(NOT_SERVING::contains);
        }

        int port() {
            return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
        }
    }

    static List<Node> parseClusterNodes(String text) {
        List<Node> nodes = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 8) {
                continue;
            }
            String address = fields[1];
            int cut = address.indexOf('@');
            String hostPort = cut >= 0 ? address.substring(0, cut) : address.split(",")[0];
            BitSet slots = new BitSet(SLOTS);
            for (int i = 8; i < fields.length; i++) {
                String range = fields[i];
                if (range.startsWith("[")) {
                    continue; // a slot being imported or migrated: still the other side's
                }
                int dash = range.indexOf('-');
                int from = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
                int to = dash < 0 ? from : Integer.parseInt(range.substring(dash + 1));
                slots.set(from, to + 1);
            }
            nodes.add(new Node(fields[0], hostPort, Set.of(fields[2].split(",")), fields[3], "connected".equals(fields[7]), slots));
        }
        return nodes;
    }

    /** Masters that serve slots now, leaving out the killed node ({@code null} before the kill). */
    static List<Node> servingMasters(List<Node> nodes, String deadHostPort) {
        return nodes.stream().filter(n -> n.isMaster() && n.isServing() && !n.slots().isEmpty()
                && !n.hostPort().equals(deadHostPort)).toList();
    }

    static boolean coverAllSlots(List<Node> masters) {
        BitSet covered = new BitSet(SLOTS);
        masters.forEach(master -> covered.or(master.slots()));
        return covered.cardinality() == SLOTS;
    }

    /** Whether a master's {@code INFO replication} lists an online replica other than the killed node ({@code deadPort}, or -1). */
    static boolean hasOnlineReplica(String infoReplication, int deadPort) {
        Matcher replica = ONLINE_REPLICA.matcher(infoReplication);
        while (replica.find()) {
            if (Integer.parseInt(replica.group(1)) != deadPort) {
                return true;
            }
        }
        return false;
    }
}
