package io.zaris.netbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Membership found through a real DNS server on the network: dnsmasq runs on the host side, on the bridge's
 * address, and answers A records for one name, one per namespace host, as a Kubernetes headless Service does for
 * its pods. Every node starts with {@code --discovery dns:<name>} and {@code --dns-server} pointing at it, and no
 * seeds. Three hosts listed form the cluster; then a fourth host is added to DNS while the cluster runs (dnsmasq
 * re-reads its records), its node starts the same way, joins, takes partitions and serves keys, and the keys
 * written before it came are all still there.
 */
@Tag("network-bed")
class DnsDiscoveryOnBedIntegrationTests {

    private static final String NAME = "zaris-nodes.bed.test";
    private static final List<Integer> FIRST = List.of(1, 2, 3);
    private static final int LATE = 4;
    private static final int KEYS_PER_NODE = 25;

    @BeforeAll
    static void requireNamespacesAndDnsmasq() {
        NetworkBed.assumeAvailable();
        BedDns.assumeAvailable();
    }

    @Test
    void nodesFindEachOtherInDnsAndAHostAddedToDnsLaterJoinsTheRunningCluster() throws Exception {
        Path logs = PartitionChecks.logDirectory("dns");
        try (NetworkBed bed = NetworkBed.create(FIRST.size() + 1);
             BedDns dns = BedDns.start(bed, logs);
             BedCluster cluster = BedCluster.create(bed, logs, BedCluster.Membership.CLUSTER_SECRET)) {
            dns.publish(NAME, FIRST.stream().map(bed::address).toList());
            cluster.addressedBy(host -> List.of("--host", bed.address(host), "--discovery", "dns:" + NAME,
                    "--dns-server", dns.server(), "--cluster-size", Integer.toString(FIRST.size()),
                    "--join-settle-delay", "1s"));
            long startNanos = System.nanoTime();
            cluster.start(FIRST);

            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.dataAddresses())
                    .credentials(cluster.credentials()).environment(Map.of()).build())) {
                double formed = PartitionChecks.secondsUntilEveryPartitionHealthy(client, cluster.nodeIds(), startNanos);
                assertThat(client.clusterView().addresses()).containsOnlyKeys("n1", "n2", "n3");
                List<String> before = new ArrayList<>();
                for (String node : cluster.nodeIds()) {
                    before.addAll(PartitionChecks.keysServedBy(client, node, KEYS_PER_NODE));
                }
                for (String key : before) {
                    client.sync().put(key, value(key));
                }

                dns.publish(NAME, bed.hostNumbers().stream().map(bed::address).toList());
                long addedNanos = System.nanoTime();
                cluster.startNode(LATE);
                double started = seconds(addedNanos);
                String late = BedCluster.nodeId(LATE);
                await().atMost(PartitionChecks.PATIENCE.multipliedBy(2)).pollInterval(Duration.ofMillis(250))
                        .until(() -> client.refreshMap().join().addresses().containsKey(late));
                double member = seconds(addedNanos);
                double healthy = PartitionChecks.secondsUntilEveryPartitionHealthy(client, List.of(late), addedNanos);
                assertThat(Files.readString(cluster.log(late))).as("%s's log", late).contains("adopted partition map");
                assertThat(dns.askedFor(NAME)).as("the hosts that asked the bed's DNS server for %s", NAME)
                        .containsAll(bed.hostNumbers().stream().map(bed::address).toList());

                List<String> onLate = PartitionChecks.keysServedBy(client, late, KEYS_PER_NODE);
                for (String key : onLate) {
                    client.sync().put(key, value(key));
                }
                for (String key : onLate) {
                    assertThat(client.sync().get(key).orElseThrow().value()).as("read of %s", key).isEqualTo(value(key));
                }
                for (String key : before) {
                    assertThat(client.sync().get(key)).as("%s, written before %s joined", key, late).isPresent()
                            .hasValueSatisfying(found -> assertThat(found.value()).isEqualTo(value(key)));
                }
                System.out.printf("DNS discovery on the bed: 3 nodes found each other through dnsmasq, every partition"
                        + " healthy %.1f s after launch; n4 added to DNS and launched: started %.1f s, in the cluster"
                        + " map %.1f s, owning partitions with every partition healthy %.1f s after it was added;"
                        + " %d keys on n4 and %d written before it came read back%n",
                        formed, started, member, healthy, onLate.size(), before.size());
            }
        }
    }

    private static double seconds(long sinceNanos) {
        return (System.nanoTime() - sinceNanos) / 1e9;
    }

    private static byte[] value(String key) {
        return ("value of " + key).getBytes(StandardCharsets.UTF_8);
    }
}
