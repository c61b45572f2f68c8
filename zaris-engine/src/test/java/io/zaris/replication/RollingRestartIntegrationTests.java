package io.zaris.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.server.ServerProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The operator's rolling restart ({@code scripts/rolling-restart}) of a three-node cluster under a SYNC write load of
 * a client with default retry options. The script drains each node in turn, stops it, starts it again (empty; it
 * rejoins as a new node), waits for its readiness endpoint and rebalances. Its stop and start commands are small
 * shell files per node, as an operator's would be (a service manager's stop and start): stop sends SIGTERM and waits
 * for the process to exit, start launches the node's command line in the background and records its pid. At the end
 * no acknowledged write is lost and no write failed.
 */
@Tag("multi-process")
class RollingRestartIntegrationTests {

    private static final Path SCRIPT = Path.of("..", "scripts", "rolling-restart");

    @Test
    void rollingRestartScriptUnderLoadLosesNoAcknowledgedWriteAndFailsNoWrite() throws Exception {
        Path control = Files.createDirectories(Path.of("target", "rolling-restart-control"));
        List<Path> pidFiles = new ArrayList<>();
        try (ServerProcesses processes = new ServerProcesses(Path.of("target", "rolling-restart-logs"))
                .drainingOnStop().withHttpPorts()) {
            List<NodeAddress> seeds = processes.start(3, 2, "--partitions", "16", "--segments", "256",
                    "--join-settle-delay", "1s");
            List<String> nodeArguments = new ArrayList<>();
            for (int i = 0; i < seeds.size(); i++) {
                ServerProcesses.Node node = processes.nodes().get(i);
                pidFiles.add(writeControlFiles(control, node, processes.command(node.nodeId())));
                nodeArguments.add(node.nodeId() + "=" + seeds.get(i) + "@http://127.0.0.1:"
                        + processes.httpPort(node.nodeId()) + "/health/ready");
            }
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(seeds)
                    .bootstrapTimeout(Duration.ofSeconds(90)).environment(Map.of()).build())) {
                ServerProcesses.awaitEveryPartitionWritable(client);
                AcknowledgedWriter writer = new AcknowledgedWriter(client, 500, key -> { });
                writer.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> writer.acknowledgedWrites() >= 500);

                List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString(),
                        "--jar", processes.jar().toString(),
                        "--stop", "sh " + control.toAbsolutePath() + "/stop-{name}.sh",
                        "--start", "sh " + control.toAbsolutePath() + "/start-{name}.sh",
                        "--timeout", "3m"));
                command.addAll(nodeArguments);
                Path output = control.resolve("rolling-restart.out");
                ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(output.toFile());
                builder.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
                long start = System.nanoTime();
                Process script = builder.start();
                assertThat(script.waitFor(15, TimeUnit.MINUTES)).as("the script finished").isTrue();
                long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                String printed = Files.readString(output);
                assertThat(script.exitValue()).as("exit status; it printed:%n%s", printed).isZero();
                assertThat(printed).contains("rolling restart done: 3 node(s)");

                for (ServerProcesses.Node node : processes.nodes()) {
                    String log = node.logText();
                    assertThat(log.split(ServerProcesses.RESTART_MARKER, -1)).as("%s started twice", node.nodeId())
                            .hasSize(2);
                }
                ClusterView view = client.refreshMap().get(10, TimeUnit.SECONDS);
                assertThat(view.unsettledPartitions()).isZero();
                for (ServerProcesses.Node node : processes.nodes()) {
                    assertThat(ServerProcesses.rolesOf(view, node.nodeId())).as("roles of %s", node.nodeId()).isPositive();
                }
                long acknowledged = writer.acknowledgedWrites();
                await().atMost(Duration.ofSeconds(60)).until(() -> writer.acknowledgedWrites() >= acknowledged + 500);
                writer.stop();
                long lost = writer.countLost();
                System.out.printf("scripts/rolling-restart of 3 nodes: %d ms, %d acknowledged writes, %d lost, %d failed%n",
                        elapsedMillis, writer.acknowledgedWrites(), lost, writer.failedWrites());
                assertThat(lost).as("acknowledged writes lost").isZero();
                assertThat(writer.failedWrites()).as("writes that failed with default client options").isZero();
            }
        } finally {
            stopStartedByScript(pidFiles);
        }
    }

    /**
     * Writes the node's {@code stop-<id>.sh}, {@code start-<id>.sh} and pid file (the harness's process for now);
     * returns the pid file.
     */
    private static Path writeControlFiles(Path control, ServerProcesses.Node node, List<String> command)
            throws IOException {
        String id = node.nodeId();
        Path pidFile = control.resolve(id + ".pid").toAbsolutePath();
        Files.writeString(pidFile, Long.toString(node.process().pid()));
        // Bounded wait (120 s) for the exit; a zombie (exited, not yet reaped) counts as exited.
        Files.writeString(control.resolve("stop-" + id + ".sh"), String.join("\n",
                "pid=$(cat " + quote(pidFile.toString()) + ")",
                "kill -TERM \"$pid\" || exit 1",
                "for _ in $(seq 1 600); do",
                "  ps -o stat= -p \"$pid\" 2>/dev/null | grep -qv Z || exit 0",
                "  sleep 0.2",
                "done",
                "exit 1", ""));
        String line = command.stream().map(RollingRestartIntegrationTests::quote).collect(Collectors.joining(" "));
        String log = quote(node.log().toAbsolutePath().toString());
        Files.writeString(control.resolve("start-" + id + ".sh"), String.join("\n",
                "echo '" + ServerProcesses.RESTART_MARKER + "' >> " + log,
                line + " >> " + log + " 2>&1 &",
                "echo $! > " + quote(pidFile.toString()), ""));
        return pidFile;
    }

    private static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }

    /** Stops, by the pid each start file recorded, the nodes the script started (the harness stops its own). */
    private static void stopStartedByScript(List<Path> pidFiles) throws IOException {
        for (Path pidFile : pidFiles) {
            if (Files.exists(pidFile)) {
                ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

}
