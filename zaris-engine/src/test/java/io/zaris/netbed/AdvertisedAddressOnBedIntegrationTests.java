package io.zaris.netbed;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.NodeAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Advertised addresses across real hosts: three namespace hosts, each with a second address on its link; every node
 * binds its data port to {@code 0.0.0.0}, lets its membership port follow, and advertises the second address, which
 * no option binds and which differs from the host's own bed address. A client on the host side, seeded with one
 * node's advertised address only and with retries off, reads and writes keys owned by every node: each request must
 * be answered by the first node it goes to (a wrong node or an unreachable address would fail it). The nodes' sockets
 * then show that the client reached each of them at its advertised address, and the peers each other likewise.
 *
 * <p>Behind a translated address: the same, but each node binds its own bed address and advertises an address no
 * host owns, which the bed's NAT rules ({@link NetworkBed#translateAddress}) rewrite to the node's address for the
 * host side and for every peer; the rules' counters show the client's packets went through each.
 */
@Tag("network-bed")
class AdvertisedAddressOnBedIntegrationTests {

    private static final int HOSTS = 3;
    private static final int KEYS_PER_NODE = 25;
    /** {@code 10.0.0.1:7101} or, from a dual-stack socket, {@code [::ffff:10.0.0.1]:7101}. */
    private static final Pattern ENDPOINT = Pattern.compile("\\[?(?:::ffff:)?(\\d+\\.\\d+\\.\\d+\\.\\d+)]?:(\\d+)");

    @BeforeAll
    static void requireNamespaces() {
        NetworkBed.assumeAvailable();
    }

    @Test
    void aClientOnTheNetworkRoutesOneHopThroughTheAddressesTheNodesAdvertise() throws Exception {
        try (NetworkBed bed = NetworkBed.create(HOSTS);
             BedCluster cluster = BedCluster.create(bed, PartitionChecks.logDirectory("advertised"),
                     BedCluster.Membership.CLUSTER_SECRET)) {
            Map<Integer, String> advertised = new LinkedHashMap<>();
            for (int host : bed.hostNumbers()) {
                advertised.put(host, bed.addSecondAddress(host));
            }
            String seeds = advertised.values().stream().map(address -> address + ":" + BedCluster.CLUSTER_PORT)
                    .collect(Collectors.joining(","));
            cluster.addressedBy(host -> List.of("--host", "0.0.0.0", "--advertise-host", advertised.get(host),
                    "--seeds", seeds));
            long startNanos = System.nanoTime();
            cluster.start();
            for (String node : cluster.nodeIds()) {
                assertThat(Files.readString(cluster.log(node))).as("%s's start line", node)
                        .contains("data port 0.0.0.0:" + BedCluster.DATA_PORT)
                        .contains("(announced as " + advertised.get(BedCluster.hostOf(node)) + ":" + BedCluster.DATA_PORT);
            }

            routeOneHop(cluster, advertised, startNanos, () -> {
                String hostSide = bed.address(NetworkBed.HOST_SIDE);
                int membershipConnections = 0;
                int clientConnections = 0;
                for (int host : bed.hostNumbers()) {
                    List<Socket> sockets = established(bed, host);
                    membershipConnections += (int) sockets.stream()
                            .filter(socket -> socket.localPort() == BedCluster.CLUSTER_PORT).count();
                    clientConnections += (int) sockets.stream().filter(socket -> socket.localPort() == BedCluster.DATA_PORT
                            && socket.peerHost().equals(hostSide)).count();
                    assertThat(sockets).as("n%d's data port has the client's connections, all at its advertised address",
                            host).filteredOn(socket -> socket.localPort() == BedCluster.DATA_PORT
                                    && socket.peerHost().equals(hostSide))
                            .isNotEmpty().allMatch(socket -> socket.localHost().equals(advertised.get(host)));
                    assertThat(sockets).as("n%d's membership connections arrive at its advertised address", host)
                            .filteredOn(socket -> socket.localPort() == BedCluster.CLUSTER_PORT)
                            .allMatch(socket -> socket.localHost().equals(advertised.get(host)));
                    assertThat(sockets).as("nobody reached n%d at its own bed address %s", host, bed.address(host))
                            .noneMatch(socket -> socket.localHost().equals(bed.address(host))
                                    && (socket.localPort() == BedCluster.DATA_PORT
                                    || socket.localPort() == BedCluster.CLUSTER_PORT));
                }
                assertThat(membershipConnections).as("membership connections the peers opened to each other").isPositive();
                return String.format("the nodes' sockets: %d client and %d membership connections, all at advertised"
                        + " addresses", clientConnections, membershipConnections);
            });
        }
    }

    @Test
    void aClientReachesNodesBehindTranslatedAddressesTheyDoNotOwn() throws Exception {
        try (NetworkBed bed = NetworkBed.create(HOSTS);
             BedCluster cluster = BedCluster.create(bed, PartitionChecks.logDirectory("translated"),
                     BedCluster.Membership.CLUSTER_SECRET)) {
            Map<Integer, String> advertised = new LinkedHashMap<>();
            for (int host : bed.hostNumbers()) {
                advertised.put(host, bed.translateAddress(host));
            }
            String seeds = advertised.values().stream().map(address -> address + ":" + BedCluster.CLUSTER_PORT)
                    .collect(Collectors.joining(","));
            cluster.addressedBy(host -> List.of("--host", bed.address(host), "--advertise-host", advertised.get(host),
                    "--seeds", seeds));
            long startNanos = System.nanoTime();
            cluster.start();
            for (String node : cluster.nodeIds()) {
                int host = BedCluster.hostOf(node);
                assertThat(Files.readString(cluster.log(node))).as("%s's start line", node)
                        .contains("data port " + bed.address(host) + ":" + BedCluster.DATA_PORT)
                        .contains("(announced as " + advertised.get(host) + ":" + BedCluster.DATA_PORT);
            }
            routeOneHop(cluster, advertised, startNanos, () -> {
                StringBuilder translated = new StringBuilder("connections opened through each translated address,"
                        + " by the client and by the peers:");
                for (int host : bed.hostNumbers()) {
                    long client = bed.translatedConnections(NetworkBed.HOST_SIDE, host);
                    assertThat(client).as("connections the client opened to n%d's translated address", host).isPositive();
                    long peers = 0;
                    for (int peer : bed.hostNumbers()) {
                        if (peer != host) {
                            peers += bed.translatedConnections(peer, host);
                        }
                    }
                    assertThat(peers).as("connections the peers opened to n%d's translated address", host).isPositive();
                    translated.append(' ').append(BedCluster.nodeId(host)).append(' ').append(client).append('/')
                            .append(peers);
                }
                return translated.toString();
            });
        }
    }

    /** A check run while the client is still connected; what it returns is printed with the figures. */
    @FunctionalInterface
    interface ConnectedCheck {
        String run() throws Exception;
    }

    /**
     * Connects a client seeded with n1's advertised data address only, with retries off; waits until every partition
     * is healthy; checks that the map names every node's advertised address; writes and reads {@value #KEYS_PER_NODE}
     * keys owned by each node, each request answered by the first node it went to; runs {@code check}; prints the
     * figures. Returns the seconds from {@code startNanos} until every partition was healthy.
     */
    private static double routeOneHop(BedCluster cluster, Map<Integer, String> advertised, long startNanos,
                                      ConnectedCheck check) throws Exception {
        NodeAddress seed = new NodeAddress(advertised.get(1), BedCluster.DATA_PORT);
        try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(List.of(seed))
                .credentials(cluster.credentials()).environment(Map.of()).disableRetries(true).build())) {
            double healthy = PartitionChecks.secondsUntilEveryPartitionHealthy(client, cluster.nodeIds(), startNanos);
            Map<String, NodeAddress> expected = new LinkedHashMap<>();
            advertised.forEach((host, address) -> expected.put(BedCluster.nodeId(host),
                    new NodeAddress(address, BedCluster.DATA_PORT)));
            assertThat(client.clusterView().addresses()).as("the map announces the advertised addresses")
                    .isEqualTo(expected);

            List<String> keys = new ArrayList<>();
            for (String node : cluster.nodeIds()) {
                keys.addAll(PartitionChecks.keysServedBy(client, node, KEYS_PER_NODE));
            }
            for (String key : keys) {
                client.sync().put(key, value(key));
            }
            for (String key : keys) {
                assertThat(client.sync().get(key).orElseThrow().value()).as("read of %s", key).isEqualTo(value(key));
            }

            String checked = check.run();
            System.out.printf("advertised addresses on the bed: %d nodes, every partition healthy %.1f s after launch;"
                    + " %d keys (%d owned by each node) written and read one hop through the advertised addresses %s,"
                    + " seeded with %s only; %s%n", advertised.size(), healthy, keys.size(), KEYS_PER_NODE,
                    advertised.values(), seed, checked);
            return healthy;
        }
    }

    private static byte[] value(String key) {
        return ("value of " + key).getBytes(StandardCharsets.UTF_8);
    }

    /** One established TCP connection as a host's kernel lists it. */
    record Socket(String localHost, int localPort, String peerHost, int peerPort) {
    }

    /**
     * The established TCP connections inside host {@code host}'s namespace ({@code ss}). Java's dual-stack sockets
     * show IPv4 peers as {@code [::ffff:a.b.c.d]:port}; both spellings become {@code a.b.c.d}. A line that is not two
     * IPv4 endpoints fails the test rather than being skipped.
     */
    private static List<Socket> established(NetworkBed bed, int host) {
        String output = Shell.run(List.of("ip", "netns", "exec", bed.namespace(host), "ss", "-H", "-t", "-n", "state",
                "established")).orThrow().output();
        List<Socket> sockets = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            List<Matcher> endpoints = new ArrayList<>();
            for (String field : line.strip().split("\\s+")) {
                Matcher endpoint = ENDPOINT.matcher(field);
                if (endpoint.matches()) {
                    endpoints.add(endpoint);
                }
            }
            assertThat(endpoints).as("local and peer IPv4 endpoints in ss's line '%s'", line).hasSize(2);
            sockets.add(new Socket(endpoints.get(0).group(1), Integer.parseInt(endpoints.get(0).group(2)),
                    endpoints.get(1).group(1), Integer.parseInt(endpoints.get(1).group(2))));
        }
        return sockets;
    }
}
