package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The standalone server's start-up refusals end to end (an unsafe binding, a port already taken): the real
 * jar, its real logging configuration, the output read from the process's log.
 */
@Tag("multi-process")
class InsecureStartIntegrationTests {

    private final ServerProcesses processes = new ServerProcesses(Path.of("target", "insecure-start-logs"));

    @AfterEach
    void stop() {
        processes.close();
    }

    @Test
    void theOverrideStartsTheNodeAndLogsABoxedWarningNamingTheOpenPort() throws Exception {
        int clusterPort = ServerProcesses.freeTcpPort();
        ServerProcesses.Node node = processes.startNode("open", List.of("--host", "0.0.0.0", "--advertise-host", "127.0.0.1", "--cluster-host", "127.0.0.1",
                "--port", Integer.toString(ServerProcesses.freeTcpPort()), "--cluster-port", Integer.toString(clusterPort),
                "--seeds", "127.0.0.1:" + clusterPort, "--cluster-name", "zaris-insecure-" + UUID.randomUUID(),
                "--resp-port", "off", "--drain-on-stop", "0", "--allow-insecure"));

        await().atMost(Duration.ofSeconds(60)).until(() -> node.logText().contains("node open started"));

        List<String> warnings = node.logText().lines().filter(line -> line.contains(" WARN ")
                && line.contains("ZarisServerMain")).toList();
        assertThat(warnings).anyMatch(line -> line.endsWith("- INSECURE (--allow-insecure): node open opens"));
        assertThat(warnings).anyMatch(line -> line.endsWith("-   the data port on 0.0.0.0 without a password"));
        assertThat(warnings).filteredOn(line -> line.endsWith("*".repeat(89))).hasSize(2);
        assertThat(warnings).anyMatch(line -> line.contains("- Anyone who can reach its data or RESP port can read and change every key"));
        assertThat(warnings).noneMatch(line -> line.contains("membership port"));
        assertThat(node.process().isAlive()).isTrue();
    }

    @Test
    void withoutTheOverrideANonLoopbackMembershipPortWithoutASecretIsRefusedAtStart() throws Exception {
        ServerProcesses.Node node = processes.startNode("refused", List.of("--cluster-host", "10.1.2.3",
                "--port", Integer.toString(ServerProcesses.freeTcpPort()), "--resp-port", "off"));

        assertThat(node.process().waitFor(60, TimeUnit.SECONDS)).as("the server exits").isTrue();

        assertThat(node.process().exitValue()).isEqualTo(2);
        assertThat(node.logText()).contains("zaris: refusing to open the membership port on 10.1.2.3 without a cluster secret")
                .doesNotContain("INSECURE");
    }

    @Test
    void aDataPortAnotherProgramHoldsStopsTheServerWithTheReason() throws Exception {
        try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ServerProcesses.Node node = processes.startNode("clash", List.of("--port", Integer.toString(held.getLocalPort()),
                    "--cluster-port", Integer.toString(ServerProcesses.freeTcpPort()), "--resp-port", "off"));

            assertThat(node.process().waitFor(60, TimeUnit.SECONDS)).as("the server exits").isTrue();

            assertThat(node.process().exitValue()).isEqualTo(1);
            assertThat(node.logText()).contains("node clash could not start: Failed to bind on [127.0.0.1:" + held.getLocalPort()
                    + "]").contains("Address already in use");
        }
    }
}
