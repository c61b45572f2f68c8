package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.RuntimeMap;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.PartitionMap;
import io.zaris.security.Credentials;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The admin command without a cluster: parsing, the map's text, and the wait loops on a fake clock. */
@Tag("unit")
class AdminCommandTests {

    private static final ServerArguments.FileReader NO_FILES = path -> {
        throw new NoSuchFileException(path);
    };

    // ---- parsing ------------------------------------------------------------------------------------------

    @Test
    void parsesACommandWithItsOptionsInAnyOrder() {
        AdminCommand.Options options = AdminCommand.parse(new String[] {"drain", "--node", "10.0.0.5:7101",
                "--password-file", "/etc/zaris/password", "--timeout=90s", "--no-wait"}, Map.of(),
                path -> List.of("s3cret", "ignored second line"));
        assertThat(options.command()).isEqualTo("drain");
        assertThat(options.node()).isEqualTo(new NodeAddress("10.0.0.5", 7101));
        assertThat(options.credentials()).isEqualTo(Credentials.password("s3cret"));
        assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(options.await()).isFalse();
        assertThat(options.tls()).isFalse();
    }

    @Test
    void defaultsWaitTenMinutesWithoutPasswordOrTls() {
        AdminCommand.Options options = AdminCommand.parse(new String[] {"--node", "127.0.0.1:7101", "map"}, Map.of(),
                NO_FILES);
        assertThat(options.command()).isEqualTo("map");
        assertThat(options.credentials()).isNull();
        assertThat(options.await()).isTrue();
        assertThat(options.timeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(options.tls()).isFalse();
        assertThat(options.tlsCa()).isNull();
    }

    @Test
    void passwordComesFromTheServersEnvironmentVariableAndUserAndTlsFromOptions() {
        AdminCommand.Options options = AdminCommand.parse(new String[] {"rebalance", "--node", "h:1", "--user", "ops",
                "--tls-ca", "/etc/zaris/ca.pem"}, Map.of(ServerArguments.PASSWORD_VARIABLE, "from-env"), NO_FILES);
        assertThat(options.credentials()).isEqualTo(new Credentials("ops", "from-env"));
        assertThat(options.tls()).isTrue();
        assertThat(options.tlsCa()).isEqualTo(Path.of("/etc/zaris/ca.pem"));
        assertThat(AdminCommand.parse(new String[] {"map", "--node", "h:1", "--tls"}, Map.of(), NO_FILES).tls()).isTrue();
    }

    @Test
    void badCommandLinesAreRefusedSayingWhy() {
        assertRefused("a command is required", "--node", "h:1");
        assertRefused("unknown command 'shrink'", "shrink", "--node", "h:1");
        assertRefused("one command at a time", "drain", "rebalance", "--node", "h:1");
        assertRefused("--node <host:port> is required", "map");
        assertRefused("--node:", "map", "--node", "nohost");
        assertRefused("option --node needs a value", "map", "--node");
        assertRefused("unknown option '--colour'", "map", "--node", "h:1", "--colour", "red");
        assertRefused("option --no-wait takes no value", "drain", "--node", "h:1", "--no-wait=yes");
        assertRefused("--timeout must be a duration", "drain", "--node", "h:1", "--timeout", "soon");
        assertRefused("--timeout must be longer than 0", "drain", "--node", "h:1", "--timeout", "0");
        assertRefused("--user needs a password", "drain", "--node", "h:1", "--user", "ops");
        assertRefused("cannot be read", "drain", "--node", "h:1", "--password-file", "/missing");
        assertThatThrownBy(() -> AdminCommand.parse(new String[] {"map", "--node", "h:1", "--password-file", "/empty"},
                Map.of(), path -> List.of())).hasMessageContaining("--password-file /empty is empty");
        assertThatThrownBy(() -> AdminCommand.parse(new String[] {"map", "--node", "h:1"},
                Map.of(ServerArguments.PASSWORD_VARIABLE, ""), NO_FILES)).hasMessageContaining("ZARIS_PASSWORD is empty");
    }

    @Test
    void badArgumentsExitWithTwoAndPrintTheUsageHelpWithZero() {
        Output output = new Output();
        int status = AdminCommand.run(new String[] {"drain"}, Map.of(), NO_FILES, options -> {
            throw new AssertionError("must not connect");
        }, new FakeClock(), output.out, output.err);
        assertThat(status).isEqualTo(AdminCommand.BAD_USAGE);
        assertThat(output.err()).startsWith("zaris admin: --node <host:port> is required").contains("usage:");

        Output help = new Output();
        assertThat(AdminCommand.run(new String[] {"--help"}, Map.of(), NO_FILES, options -> null, new FakeClock(),
                help.out, help.err)).isEqualTo(AdminCommand.DONE);
        assertThat(help.out()).contains("usage:").contains("map").contains("drain").contains("rebalance")
                .contains("--no-wait").contains("--timeout");
    }

    // ---- reading and printing a map -----------------------------------------------------------------------

    @Test
    void printsTheMapWithEveryPartitionTheSummaryAndPerNodeCounts() {
        ClusterView view = view(7, new String[][] {{"n1", "n2"}, {"n2", "n3"}, {"n3", "n1"}, {"n1", "n3"}},
                runtime("n1", 3, PartitionHealth.HEALTHY), runtime("n3", 5, PartitionHealth.DEGRADED),
                runtime("n3", 2, PartitionHealth.HEALTHY), runtime("n1", 4, PartitionHealth.HEALTHY));
        assertThat(AdminCommand.formatMap(view)).isEqualTo(String.join("\n",
                "cluster map version 7, leader n1, replication factor 2, 8 segments",
                "nodes:",
                "  n1    127.0.0.1:7101",
                "  n2    127.0.0.1:7102",
                "  n3    127.0.0.1:7103",
                "  n4    127.0.0.1:7104  (no partitions in the map)",
                "partitions:",
                "  partition  owners (primary first)  active  epoch  health",
                "          0  n1,n2                   n1          3  HEALTHY",
                "          1  n2,n3                   n3          5  DEGRADED  moving",
                "          2  n3,n1                   n3          2  HEALTHY",
                "          3  n1,n3                   n1          4  HEALTHY",
                "4 partitions, 1 moving (rebalance/heal in progress)",
                "  node  primaries  owned  active",
                "  n1            2      3       2",
                "  n2            1      2       0",
                "  n3            1      3       2",
                "  n4            0      0       0",
                ""));
    }

    @Test
    void aPartitionMovesWhileUnhealthyOrServedByAnotherThanItsPrimary() {
        ClusterView view = view(3, new String[][] {{"n1", "n2"}, {"n2", "n1"}, {"n1", "n2"}, {"n2", "n1"}},
                runtime("n1", 1, PartitionHealth.HEALTHY),
                runtime("n1", 2, PartitionHealth.HEALTHY), // healthy, but not on its primary n2
                runtime(null, 3, PartitionHealth.UNAVAILABLE),
                runtime("n2", 1, PartitionHealth.RECOVERING));
        assertThat(AdminCommand.isMoving(view, 0)).isFalse();
        assertThat(AdminCommand.isMoving(view, 1)).isTrue();
        assertThat(AdminCommand.isMoving(view, 2)).isTrue();
        assertThat(AdminCommand.isMoving(view, 3)).isTrue();
        assertThat(AdminCommand.moving(view)).isEqualTo(3);
        assertThat(AdminCommand.summary(view)).isEqualTo("4 partitions, 3 moving (rebalance/heal in progress)");
        assertThat(AdminCommand.formatMap(view)).contains("          2  n1,n2                   -           3  UNAVAILABLE  moving");
    }

    @Test
    void aNodeHasNoRoleOnlyWhenItOwnsNothingAndServesNothing() {
        ClusterView owner = view(5, new String[][] {{"n1", "n2"}, {"n2", "n1"}, {"n1", "n3"}, {"n3", "n1"}},
                healthyOnPrimaries(new String[][] {{"n1"}, {"n2"}, {"n1"}, {"n3"}}));
        assertThat(AdminCommand.partitionsOn(owner, "n3")).isEqualTo(2);
        assertThat(AdminCommand.hasNoRole(owner, "n3")).isFalse();
        assertThat(AdminCommand.drainProgress(owner, "n3")).isEqualTo("2 partitions still on n3, 0 moving");
        // Out of the partition map but still serving one partition until its hand-over.
        ClusterView stillActive = view(6, new String[][] {{"n1", "n2"}, {"n2", "n1"}, {"n1", "n2"}, {"n1", "n2"}},
                runtime("n1", 1, PartitionHealth.HEALTHY), runtime("n2", 1, PartitionHealth.HEALTHY),
                runtime("n1", 1, PartitionHealth.HEALTHY), runtime("n3", 4, PartitionHealth.DEGRADED));
        assertThat(AdminCommand.hasNoRole(stillActive, "n3")).isFalse();
        assertThat(AdminCommand.drainProgress(stillActive, "n3")).isEqualTo("1 partitions still on n3, 1 moving");
        ClusterView drained = view(7, new String[][] {{"n1", "n2"}, {"n2", "n1"}, {"n1", "n2"}, {"n1", "n2"}},
                healthyOnPrimaries(new String[][] {{"n1"}, {"n2"}, {"n1"}, {"n1"}}));
        assertThat(AdminCommand.hasNoRole(drained, "n3")).isTrue();
    }

    // ---- the wait loops -----------------------------------------------------------------------------------

    @Test
    void drainSendsTheCommandThenPollsUntilTheNodeHasNoRole() {
        FakeNode node = new FakeNode("n3",
                view(5, new String[][] {{"n1", "n3"}, {"n3", "n2"}, {"n2", "n1"}, {"n3", "n1"}},
                        healthyOnPrimaries(new String[][] {{"n1"}, {"n3"}, {"n2"}, {"n3"}})),
                view(6, new String[][] {{"n1", "n2"}, {"n3", "n2"}, {"n2", "n1"}, {"n1", "n2"}},
                        runtime("n1", 2, PartitionHealth.HEALTHY), runtime("n3", 2, PartitionHealth.DEGRADED),
                        runtime("n2", 1, PartitionHealth.HEALTHY), runtime("n1", 2, PartitionHealth.HEALTHY)),
                view(7, new String[][] {{"n1", "n2"}, {"n2", "n1"}, {"n2", "n1"}, {"n1", "n2"}},
                        healthyOnPrimaries(new String[][] {{"n1"}, {"n2"}, {"n2"}, {"n1"}})));
        Output output = new Output();
        FakeClock clock = new FakeClock();
        int status = AdminCommand.run(new String[] {"drain", "--node", "127.0.0.1:7103"}, Map.of(), NO_FILES,
                options -> node, clock, output.out, output.err);
        assertThat(status).as(output.err()).isEqualTo(AdminCommand.DONE);
        assertThat(node.sent).containsExactly("drain");
        assertThat(output.out()).contains("node n3 is draining")
                .contains("3 partitions still on n3, 0 moving")
                .contains("1 partitions still on n3, 1 moving")
                .contains("node n3 is drained: map version 7 gives it no role")
                .contains("  n3            0      0       0");
        assertThat(clock.slept).isEqualTo(Duration.ofSeconds(2));
        assertThat(node.closed).isTrue();
    }

    @Test
    void drainGivesUpAfterItsTimeoutWithStatusOne() {
        ClusterView stuck = view(5, new String[][] {{"n1", "n3"}, {"n3", "n2"}, {"n2", "n1"}, {"n3", "n1"}},
                healthyOnPrimaries(new String[][] {{"n1"}, {"n3"}, {"n2"}, {"n3"}}));
        FakeNode node = new FakeNode("n3", stuck);
        Output output = new Output();
        FakeClock clock = new FakeClock();
        int status = AdminCommand.run(new String[] {"drain", "--node", "127.0.0.1:7103", "--timeout", "5s"}, Map.of(),
                NO_FILES, options -> node, clock, output.out, output.err);
        assertThat(status).isEqualTo(AdminCommand.FAILED);
        assertThat(clock.slept).isEqualTo(Duration.ofSeconds(5));
        assertThat(output.err()).contains("node n3 did not drain within 5s: 3 partitions still on n3, 0 moving");
        // The unchanged progress line is printed once, not once per poll.
        assertThat(output.out().split("3 partitions still on n3", -1)).hasSize(2);
    }

    @Test
    void noWaitReturnsOnceTheNodeAcceptedAndARefusalFailsWithTheNodesReason() {
        FakeNode node = new FakeNode("n3");
        Output output = new Output();
        assertThat(AdminCommand.run(new String[] {"drain", "--node", "h:1", "--no-wait"}, Map.of(), NO_FILES,
                options -> node, new FakeClock(), output.out, output.err)).isEqualTo(AdminCommand.DONE);
        assertThat(node.sent).containsExactly("drain");
        assertThat(output.out()).contains("not waiting (--no-wait)");

        FakeNode refusing = new FakeNode("n1");
        refusing.refusal = new IllegalStateException("node n1 refused drain (UNAVAILABLE): node n1 cannot drain: no other"
                + " node is present to take its partitions");
        Output refused = new Output();
        assertThat(AdminCommand.run(new String[] {"drain", "--node", "h:1"}, Map.of(), NO_FILES, options -> refusing,
                new FakeClock(), refused.out, refused.err)).isEqualTo(AdminCommand.FAILED);
        assertThat(refused.err()).contains("drain via h:1 failed").contains("no other node is present");
    }

    @Test
    void rebalanceWaitsForThreeQuietPollsOfOneMapVersion() {
        String[][] before = {{"n1", "n2"}, {"n2", "n1"}, {"n1", "n2"}, {"n2", "n1"}};
        String[][] after = {{"n1", "n2"}, {"n3", "n1"}, {"n1", "n3"}, {"n2", "n3"}};
        ClusterView moving = view(8, after, runtime("n1", 1, PartitionHealth.HEALTHY),
                runtime("n2", 2, PartitionHealth.DEGRADED), runtime("n1", 2, PartitionHealth.DEGRADED),
                runtime("n2", 1, PartitionHealth.HEALTHY));
        ClusterView done = view(8, after, healthyOnPrimaries(new String[][] {{"n1"}, {"n3"}, {"n1"}, {"n2"}}));
        FakeNode node = new FakeNode("n1", view(7, before, healthyOnPrimaries(new String[][] {{"n1"}, {"n2"}, {"n1"}, {"n2"}})),
                moving, done, done, done);
        Output output = new Output();
        FakeClock clock = new FakeClock();
        int status = AdminCommand.run(new String[] {"rebalance", "--node", "h:1"}, Map.of(), NO_FILES, options -> node,
                clock, output.out, output.err);
        assertThat(status).as(output.err()).isEqualTo(AdminCommand.DONE);
        assertThat(node.sent).containsExactly("rebalance");
        // Quiet polls count only in a row: the moving poll of version 8 starts the count again.
        assertThat(clock.slept).isEqualTo(Duration.ofSeconds(4));
        assertThat(output.out()).contains("map version 8: 2 partitions moving")
                .contains("rebalanced: map version 8, nothing moving")
                .contains("  n3            1      3       1");
    }

    @Test
    void aLostMapIsRetriedUntilTheDeadlineAndMentionedOnce() {
        FakeNode node = new FakeNode("n1");
        node.mapFailure = new IllegalStateException("connection to h:1 closed");
        Output output = new Output();
        int status = AdminCommand.run(new String[] {"rebalance", "--node", "h:1", "--timeout", "3s"}, Map.of(), NO_FILES,
                options -> node, new FakeClock(), output.out, output.err);
        assertThat(status).isEqualTo(AdminCommand.FAILED);
        assertThat(output.err().split("cannot fetch the map", -1)).hasSize(2);
        assertThat(output.err()).contains("the rebalance did not settle within 3s");
    }

    @Test
    void anUnreachableNodeFailsWithStatusOne() {
        Output output = new Output();
        int status = AdminCommand.run(new String[] {"map", "--node", "h:1"}, Map.of(), NO_FILES, options -> {
            throw new java.io.IOException("cannot connect to h:1: Connection refused");
        }, new FakeClock(), output.out, output.err);
        assertThat(status).isEqualTo(AdminCommand.FAILED);
        assertThat(output.err()).contains("cannot reach h:1: cannot connect to h:1: Connection refused");
    }

    // ---- helpers ------------------------------------------------------------------------------------------

    private static void assertRefused(String message, String... args) {
        assertThatThrownBy(() -> AdminCommand.parse(args, Map.of(), NO_FILES)).as(Arrays.toString(args))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    private static PartitionRuntime runtime(String active, long epoch, PartitionHealth health) {
        return new PartitionRuntime(active, epoch, health);
    }

    private static PartitionRuntime[] healthyOnPrimaries(String[][] actives) {
        PartitionRuntime[] runtimes = new PartitionRuntime[actives.length];
        for (int p = 0; p < actives.length; p++) {
            runtimes[p] = runtime(actives[p][0], 1, PartitionHealth.HEALTHY);
        }
        return runtimes;
    }

    /** Four partitions over eight segments; nodes n1..n4 have addresses, n1 leads. */
    private static ClusterView view(long version, String[][] owners, PartitionRuntime... runtimes) {
        List<List<String>> ownerLists = new ArrayList<>();
        for (String[] partitionOwners : owners) {
            ownerLists.add(List.of(partitionOwners));
        }
        Map<String, NodeAddress> addresses = Map.of("n1", new NodeAddress("127.0.0.1", 7101),
                "n2", new NodeAddress("127.0.0.1", 7102), "n3", new NodeAddress("127.0.0.1", 7103),
                "n4", new NodeAddress("127.0.0.1", 7104));
        return new ClusterView(PartitionLayout.of(8, 4), new PartitionMap(version, 2, ownerLists),
                new RuntimeMap(List.of(runtimes)), addresses, "n1", Map.of());
    }

    /** Answers the map with the given views in turn, repeating the last one. */
    private static final class FakeNode implements AdminCommand.Node {
        private final String nodeId;
        private final Deque<ClusterView> views;
        private final List<String> sent = new ArrayList<>();
        private RuntimeException refusal;
        private RuntimeException mapFailure;
        private boolean closed;

        FakeNode(String nodeId, ClusterView... views) {
            this.nodeId = nodeId;
            this.views = new ArrayDeque<>(List.of(views));
        }

        @Override
        public String nodeId() {
            return nodeId;
        }

        @Override
        public ClusterView clusterMap() {
            if (mapFailure != null) {
                throw mapFailure;
            }
            return views.size() > 1 ? views.poll() : views.peek();
        }

        @Override
        public void drain() {
            command("drain");
        }

        @Override
        public void rebalance() {
            command("rebalance");
        }

        private void command(String name) {
            if (refusal != null) {
                throw refusal;
            }
            sent.add(name);
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** Time passes only when the command sleeps. */
    private static final class FakeClock implements AdminCommand.Clock {
        private long now = 1_000_000_000L;
        private Duration slept = Duration.ZERO;

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public long currentTimeMillis() {
            return now / 1_000_000;
        }

        @Override
        public void sleep(Duration duration) {
            now += duration.toNanos();
            slept = slept.plus(duration);
        }
    }

    private static final class Output {
        private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
        final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

        String out() {
            return outBytes.toString(StandardCharsets.UTF_8);
        }

        String err() {
            return errBytes.toString(StandardCharsets.UTF_8);
        }
    }
}
