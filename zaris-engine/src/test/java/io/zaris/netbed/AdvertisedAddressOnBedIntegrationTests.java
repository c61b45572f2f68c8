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
                System.out.printf("advertised addresses on the bed: %d nodes bound to 0.0.0.0, every partition healthy"
                        + " %.1f s after launch; %d keys (%d owned by each node) written and read one hop through the"
                        + " advertised addresses, seeded with %s only; the nodes' sockets: %d client and %d membership"
                        + " connections, all at advertised addresses%n", HOSTS, healthy, keys.size(), KEYS_PER_NODE, seed,
                        clientConnections, membershipConnections);
            }
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
