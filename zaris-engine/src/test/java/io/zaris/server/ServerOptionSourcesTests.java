package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.cluster.MembershipConfig;
import io.zaris.model.NodeAddress;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ServerOptionSourcesTests {

    private static final ServerArguments.FileReader NO_FILES = path -> {
        throw new IOException("no such file");
    };

    @Test
    void everyOptionHasAnEnvironmentVariableByOneRule() {
        assertThat(ServerOption.CLUSTER_PORT.environmentVariable()).isEqualTo("ZARIS_CLUSTER_PORT");
        assertThat(ServerOption.DRAIN_ON_STOP.environmentVariable()).isEqualTo(ServerArguments.DRAIN_ON_STOP_VARIABLE);
        for (ServerOption option : ServerOption.values()) {
            assertThat(option.environmentVariable())
                    .isEqualTo("ZARIS_" + option.key().toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
            assertThat(ServerOption.named(option.flag())).contains(option);
        }
    }

    @Test
    void theEnvironmentSetsAnyOptionAndTheCommandLineWins() {
        Map<String, String> environment = Map.of("ZARIS_PORT", "7301", "ZARIS_CLUSTER_NAME", "from-env",
                "ZARIS_HEAL_COOLDOWN", "2s", "ZARIS_ALLOW_INSECURE", "false");
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--cluster-name", "from-cli"},
                environment, NO_FILES);
        assertThat(config.port()).isEqualTo(7301);
        assertThat(config.membership().clusterName()).isEqualTo("from-cli");
        assertThat(config.replication().healCooldown()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aConfigurationFileSetsOptionsBelowTheEnvironment() {
        Map<String, List<String>> files = Map.of("/etc/zaris.conf", List.of("# a node", "port = 7401",
                "cluster-name=from-file", "", "  max-memory = 64m  ", "drain-on-stop = 5s"));
        ServerArguments.Launch launch = ServerArguments.launch(new String[] {"--node-id", "n1", "--config", "/etc/zaris.conf"},
                Map.of("ZARIS_PORT", "7402"), path -> files.get(path));
        assertThat(launch.node().port()).isEqualTo(7402);
        assertThat(launch.node().membership().clusterName()).isEqualTo("from-file");
        assertThat(launch.node().memory().maxBytes()).isEqualTo(64L << 20);
        assertThat(launch.drainOnStop()).isEqualTo(Duration.ofSeconds(5));
        // ZARIS_CONFIG names the file as well
        assertThat(ServerArguments.parse(new String[] {"--node-id", "n1"}, Map.of("ZARIS_CONFIG", "/etc/zaris.conf"),
                path -> files.get(path)).port()).isEqualTo(7401);
    }

    @Test
    void badFileLinesAreRefusedNamingTheFileAndLine() {
        Map<String, List<String>> files = Map.of("a.conf", List.of("port = 7401", "colour = red"),
                "b.conf", List.of("just words"), "c.conf", List.of("port = seventy"));
        assertThatThrownBy(() -> parse(files, "a.conf")).hasMessage("configuration file a.conf line 2: unknown option 'colour'");
        assertThatThrownBy(() -> parse(files, "b.conf"))
                .hasMessageContaining("configuration file b.conf line 1: expected 'option-name = value'");
        assertThatThrownBy(() -> parse(files, "c.conf"))
                .hasMessage("configuration file c.conf: --port must be a whole number but was 'seventy'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--config", "missing.conf"},
                Map.of(), NO_FILES)).hasMessage("--config missing.conf cannot be read: no such file");
    }

    @Test
    void badEnvironmentValuesNameTheVariable() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1"}, Map.of("ZARIS_PORT", "http"), NO_FILES))
                .hasMessage("environment variable ZARIS_PORT: --port must be a whole number but was 'http'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1"},
                Map.of("ZARIS_PORT", "tcp://10.96.0.12:7101"), NO_FILES))
                .hasMessageContaining("Kubernetes service link").hasMessageContaining("enableServiceLinks: false");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1"},
                Map.of("ZARIS_ALLOW_INSECURE", "maybe"), NO_FILES)).hasMessageContaining("ZARIS_ALLOW_INSECURE is a flag");
    }

    @Test
    void oldDurationSpellingsStillWorkWithAWarningNamingTheNewOne() {
        ServerArguments.Launch launch = ServerArguments.launch(new String[] {"--node-id", "n1", "--eviction-delay-ms", "1500",
                "--async-flush-delay-us", "250", "--drain-on-stop", "2000"}, Map.of("ZARIS_JOIN_SETTLE_DELAY_MS", "0"), NO_FILES);
        assertThat(launch.node().replication().evictionDelay()).isEqualTo(Duration.ofMillis(1500));
        assertThat(launch.node().replication().asyncFlushDelay()).isEqualTo(Duration.ofNanos(250_000));
        assertThat(launch.node().clusterSettings().joinSettleDelay()).isZero();
        assertThat(launch.drainOnStop()).isEqualTo(Duration.ofSeconds(2));
        assertThat(launch.warnings()).containsExactly(
                "--eviction-delay-ms is deprecated: write --eviction-delay 1500ms (environment ZARIS_EVICTION_DELAY,"
                        + " file key eviction-delay); durations take a unit: 250us, 1500ms, 30s, 2m",
                "--async-flush-delay-us is deprecated: write --async-flush-delay 250us (environment"
                        + " ZARIS_ASYNC_FLUSH_DELAY, file key async-flush-delay); durations take a unit: 250us, 1500ms, 30s, 2m",
                "ZARIS_JOIN_SETTLE_DELAY_MS is deprecated: write --join-settle-delay 0ms (environment"
                        + " ZARIS_JOIN_SETTLE_DELAY, file key join-settle-delay); durations take a unit: 250us, 1500ms, 30s, 2m",
                "--drain-on-stop 2000 has no unit, which is deprecated: write 2s (units: us, ms, s, m, h)");
        assertThat(ServerArguments.launch(new String[] {"--node-id", "n1", "--eviction-delay", "30s", "--drain-on-stop", "0"},
                Map.of(), NO_FILES).warnings()).isEmpty();
    }

    @Test
    void newDurationOptionsAreBounded() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--escalation-timeout", "2s"}))
                .hasMessage("--escalation-timeout must be between 3s and 2147483647ms but was 2s");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--async-flush-delay", "11s"}))
                .hasMessageStartingWith("--async-flush-delay must be between 0 and");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--heal-cooldown", "5 fortnights"}))
                .hasMessageStartingWith("--heal-cooldown must be a duration");
    }

    @Test
    void aWildcardBindNeedsAnAdvertisedHostWhichTheMapAndMembershipAnnounce() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--host", "0.0.0.0", "--allow-insecure"}))
                .hasMessageContaining("--host 0.0.0.0 binds every interface").hasMessageContaining("--advertise-host");
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--host", "0.0.0.0", "--advertise-host",
                "10.1.2.3", "--advertise-port", "30101", "--allow-insecure"});
        assertThat(config.advertisedAddress(7101)).isEqualTo(new NodeAddress("10.1.2.3", 30101));
        MembershipConfig.Tcp tcp = (MembershipConfig.Tcp) config.membership();
        assertThat(tcp.advertised()).isEqualTo(new NodeAddress("10.1.2.3", 7201));
        assertThat(tcp.seeds()).containsExactly(new NodeAddress("10.1.2.3", 7201));
        assertThat(tcp.toJGroupsXml()).contains("bind_addr=\"10.1.2.3\"").contains("external_addr=\"10.1.2.3\" external_port=\"7201\"");
        // without advertising, the bind address is announced as before
        NodeConfig plain = ServerArguments.parse(new String[] {"--node-id", "n1"});
        assertThat(plain.advertisedAddress(7101)).isEqualTo(new NodeAddress("127.0.0.1", 7101));
        assertThat(((MembershipConfig.Tcp) plain.membership()).advertised()).isNull();
        assertThat(plain.membership().toJGroupsXml()).doesNotContain("external_addr");
    }

    @Test
    void membershipMayAdvertiseItsOwnAddressAndPortBehindNat() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--cluster-host", "127.0.0.1",
                "--cluster-advertise-host", "203.0.113.7", "--cluster-advertise-port", "31201", "--resp-port", "8101",
                "--advertise-port", "30101", "--resp-advertise-port", "31101"});
        MembershipConfig.Tcp tcp = (MembershipConfig.Tcp) config.membership();
        assertThat(tcp.toJGroupsXml()).contains("bind_addr=\"127.0.0.1\" bind_port=\"7201\"")
                .contains("external_addr=\"203.0.113.7\" external_port=\"31201\"")
                .contains("<FD_SOCK2 bind_addr=\"127.0.0.1\" external_addr=\"203.0.113.7\"/>");
        // MOVED and CLUSTER SLOTS name a node's advertised data host at its advertised data port plus this offset
        assertThat(config.resp().peerPorts().respPortOf("n2", new NodeAddress("203.0.113.8", 30102))).isEqualTo(31102);
    }

    @Test
    void dnsDiscoveryReplacesTheSeedsAndNeedsAClusterSize() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--discovery",
                "dns:zaris-peers.default.svc.cluster.local", "--cluster-size", "3", "--dns-server", "10.96.0.10"});
        String xml = config.membership().toJGroupsXml();
        assertThat(xml).contains("<dns.DNS_PING dns_query=\"zaris-peers.default.svc.cluster.local\" dns_record_type=\"A\""
                + " dns_address=\"10.96.0.10\" async_discovery=\"true\"/>").doesNotContain("TCPPING");
        assertThat(config.clusterSettings().clusterSize()).isEqualTo(3);
        assertThat(ServerArguments.parse(new String[] {"--node-id", "n1", "--discovery", "dns-srv:_cluster._tcp.zaris",
                "--cluster-size", "3"}).membership().toJGroupsXml())
                .contains("dns_query=\"_cluster._tcp.zaris\" dns_record_type=\"SRV\" async_discovery");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--discovery", "dns:zaris"}))
                .hasMessageContaining("needs --cluster-size");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--discovery", "dns:zaris",
                "--cluster-size", "3", "--seeds", "127.0.0.1:7201"})).hasMessageContaining("exclude each other");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--discovery", "mdns"}))
                .hasMessageContaining("--discovery must be seeds, dns:<name> or dns-srv:<name> but was 'mdns'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--discovery", "dns:a\"b",
                "--cluster-size", "3"})).hasMessageStartingWith("--discovery: DNS discovery needs a name");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--dns-server", "10.0.0.1"}))
                .hasMessageContaining("--dns-server needs --discovery");
    }

    @Test
    void ipv6LiteralsAreAcceptedAndKeepTheJvmOffItsIpv4Preference() {
        ServerArguments.Launch launch = ServerArguments.launch(new String[] {"--node-id", "n1", "--host", "::1",
                "--seeds", "[::1]:7201"}, Map.of(), NO_FILES);
        assertThat(((MembershipConfig.Tcp) launch.node().membership()).seeds()).containsExactly(new NodeAddress("::1", 7201));
        assertThat(ZarisServerMain.usesIpv6(launch.node(), launch.http())).isTrue();
        ServerArguments.Launch v4 = ServerArguments.launch(new String[] {"--node-id", "n1"}, Map.of(), NO_FILES);
        assertThat(ZarisServerMain.usesIpv6(v4.node(), v4.http())).isFalse();
        java.util.Properties properties = new java.util.Properties();
        ZarisServerMain.applyProcessDefaults(properties, false, true);
        assertThat(properties).doesNotContainKey("java.net.preferIPv4Stack");
    }

    @Test
    void theHttpEndpointIsOffUnlessAPortIsGiven() {
        assertThat(ServerArguments.launch(new String[] {"--node-id", "n1"}, Map.of(), NO_FILES).http()).isNull();
        assertThat(ServerArguments.launch(new String[] {"--node-id", "n1", "--http-port", "9101"}, Map.of(), NO_FILES).http())
                .isEqualTo(new HttpEndpointOptions("127.0.0.1", 9101));
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--http-host", "0.0.0.0"}))
                .hasMessage("--http-host needs --http-port");
    }

    private static NodeConfig parse(Map<String, List<String>> files, String file) {
        return ServerArguments.parse(new String[] {"--node-id", "n1", "--config", file}, Map.of(), path -> {
            List<String> lines = files.get(path);
            if (lines == null) {
                throw new IOException("no such file");
            }
            return lines;
        });
    }
}
