package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.server.ServerProcesses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three server processes, RF 3, SYNC. The one that will survive is paused ({@code SIGSTOP}) while the
 * other two are killed ({@code kill -9}) and started again: the two empty processes find each other but
 * not the paused one, and form a view of their own — a majority of the three, without a partition map.
 * After {@code SIGCONT} membership merges the two sides, and whichever process coordinates the merged
 * view, the cluster must carry on with the survivor's map and data: a coordinator without a map that
 * computed a first one over the three announced members (as a chaos run saw) founded a second cluster,
 * and the restarted processes then served the survivor's partitions from their empty stores.
 */
@Tag("multi-process")
class RestartedMajorityIntegrationTests {

    private static final int KEYS = 400;
    /** A node's log line for a merged membership view; group 1 is the view's coordinator. */
    private static final Pattern DECISION = Pattern.compile("membership view|partition map|restarted|fail over|heal|"
            + "suspends|resumes|took over|lost a replica|recovered on|asks again|waits|test harness");
    private static final Pattern MERGE_VIEW = Pattern.compile("membership view \\[(\\w+)\\|\\d+\\] with \\d+ member\\(s\\) \\(merge\\)");

    @Test
    void twoRestartedProcessesAdoptTheSurvivorsMapAndLoseNothingItHeld() throws Exception {
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "restarted-majority-logs")).withHttpPorts()) {
            List<NodeAddress> seeds = processes.start(3, 3, "--partitions", "16", "--segments", "256",
                    "--heal-cooldown", "1s");
            try (ZarisClient client = ServerProcesses.defaultClient(seeds)) {
                // The survivor must hold every key. A CI run wrote before one owner's link to the survivor was up, when
                // a SYNC write did not wait for such a replica, and that owner's keys were on the two killed processes
                // only; now it waits (FreshClusterSyncWriteIntegrationTests), and waiting for readiness here keeps
                // this test about the merge.
                processes.awaitEveryNodeReady(Duration.ofSeconds(60));
                for (int i = 0; i < KEYS; i++) {
                    client.sync().put(key(i), value(i));
                }
                ServerProcesses.Node survivor = processes.node("n3");
                survivor.signal("STOP");
                for (String restarted : List.of("n1", "n2")) {
                    processes.node(restarted).kill();
                    processes.restart(restarted);
                }
                // Both restarted processes formed a membership view without the paused survivor.
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() ->
                        sinceRestart(processes, "n1").contains("with 2 member(s)")
                                && sinceRestart(processes, "n2").contains("with 2 member(s)"));
                survivor.signal("CONT");

                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    ClusterView view = client.refreshMap().get(10, TimeUnit.SECONDS);
                    return view.runtimeMap().partitions().stream().allMatch(p -> p.health() == PartitionHealth.HEALTHY);
                });
                List<String> lost = new ArrayList<>();
                for (int i = 0; i < KEYS; i++) {
                    String read = client.sync().get(key(i))
                            .map(v -> new String(v.value(), StandardCharsets.UTF_8)).orElse(null);
                    if (!new String(value(i), StandardCharsets.UTF_8).equals(read)) {
                        lost.add(key(i) + "=" + read + " (served by " + client.ownerOf(key(i)) + ")");
                    }
                }
                // The merge picks its coordinator by JGroups address order: a restarted one (the case that lost
                // data) about two runs in three.
                System.out.printf("survivor paused, two nodes killed and restarted, merged back under coordinator %s: "
                        + "%d of %d keys lost%n", mergeCoordinator(sinceRestart(processes, "n1")), lost.size(), KEYS);
                // Seen once in CI and never since: the decisions the nodes logged are what can tell how it happened.
                assertThat(lost).as("keys the surviving node held; what the nodes decided:%n%s", decisions(processes))
                        .isEmpty();
                assertThat(sinceRestart(processes, "n1") + sinceRestart(processes, "n2"))
                        .doesNotContain("leader computed partition map");
            }
        }
    }

    /** The lines of each node's log that record a membership, map or role decision, at most 60 per node. */
    private static String decisions(ServerProcesses processes) throws IOException {
        StringBuilder out = new StringBuilder();
        for (String nodeId : List.of("n1", "n2", "n3")) {
            List<String> lines = processes.node(nodeId).logText().lines().filter(line -> DECISION.matcher(line).find())
                    .map(line -> line.length() > 240 ? line.substring(0, 240) + "…" : line).toList();
            lines.subList(Math.max(0, lines.size() - 60), lines.size()).forEach(line -> out.append(line).append('\n'));
        }
        return out.toString();
    }

    private static String mergeCoordinator(String log) {
        Matcher merge = MERGE_VIEW.matcher(log);
        String coordinator = "unknown";
        while (merge.find()) {
            coordinator = merge.group(1);
        }
        return coordinator;
    }

    private static String sinceRestart(ServerProcesses processes, String nodeId) throws IOException {
        String log = processes.node(nodeId).logText();
        return log.substring(Math.max(0, log.lastIndexOf(ServerProcesses.RESTART_MARKER)));
    }

    private static String key(int i) {
        return "survivor-key-" + i;
    }

    private static byte[] value(int i) {
        return ("value-" + i).getBytes(StandardCharsets.UTF_8);
    }
}
