package io.zaris.netbed;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.server.ServerProcesses;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A node of three, each on its own host with the same membership port (as a production cluster is usually set up),
 * is killed with {@code kill -9}: the kernel closes its sockets, and the neighbour watching its failure-detection
 * socket ({@code FD_SOCK2}) notices at once; only the suspicion check ({@code VERIFY_SUSPECT2}, 1.5 s) stands
 * between the crash and the new view. Loopback tests cannot show whether that works across hosts: there every node
 * has a port of its own.
 */
@Tag("multi-process")
class CrashDetectionIntegrationTests {

    /** The verification of the suspicion (1.5 s) plus scheduling on a loaded machine; heartbeats alone take 10 s. */
    private static final double EXCLUSION_BOUND_SECONDS = 3.0;

    @BeforeAll
    static void requireNamespaces() {
        NetworkBed.assumeAvailable();
    }

    @Test
    void aCrashedNodeIsExcludedWithinSecondsNotAfterTheEscalationTimeout() throws Exception {
        try (NetworkBed bed = NetworkBed.create(3);
             BedCluster cluster = BedCluster.secured(bed, PartitionChecks.logDirectory("crash"))) {
            cluster.start();
            try (ZarisClient client = cluster.defaultClient()) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                PartitionChecks.awaitSettled(cluster, Duration.ofSeconds(3));
                ClusterView view = client.refreshMap().join();
                List<String> survivors = new ArrayList<>(cluster.nodeIds());
                String victim = survivors.stream().filter(node -> !node.equals(view.leader())).findFirst().orElseThrow();
                survivors.remove(victim);

                LocalTime crash = LocalTime.now();
                cluster.process(victim).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                PartitionChecks.ViewTiming excluded = PartitionChecks.secondsUntilViewOfSize(cluster, survivors, 2, crash);

                System.out.printf("netbed: kill -9 of %s: the survivors installed a view without it after %.2f-%.2f s%n",
                        victim, excluded.first(), excluded.last());
                assertThat(excluded.last()).as("seconds from kill -9 until both survivors excluded the node")
                        .isLessThanOrEqualTo(EXCLUSION_BOUND_SECONDS);
            }
        }
    }
}
