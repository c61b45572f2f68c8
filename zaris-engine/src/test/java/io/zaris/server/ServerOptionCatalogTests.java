package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The option catalog ({@link ServerOption}) is what the server applies: defaults, bounds and where values land. */
@Tag("unit")
class ServerOptionCatalogTests {

    private static final ServerArguments.FileReader NO_FILES = path -> {
        throw new java.io.IOException("no files in this test");
    };

    /** Options whose documented constant default lands on NodeConfig in another form, with the reason. */
    private static final Map<ServerOption, String> DEFAULT_LANDS_TRANSFORMED = Map.of(
            ServerOption.MAX_MEMORY, "a share of the heap, which NodeConfig holds as bytes",
            ServerOption.DISCOVERY, "'seeds' lands as no DNS discovery (null)");

    /** A value other than the default for every option that lands on NodeConfig, and what NodeConfig then holds. */
    private static final Map<ServerOption, List<Object>> SAMPLES = Map.ofEntries(
            Map.entry(ServerOption.NODE_ID, List.of("n7", "n7")),
            Map.entry(ServerOption.HOST, List.of("127.0.0.2", "127.0.0.2")),
            Map.entry(ServerOption.PORT, List.of("7301", 7301)),
            Map.entry(ServerOption.ADVERTISE_HOST, List.of("10.1.2.3", "10.1.2.3")),
            Map.entry(ServerOption.ADVERTISE_PORT, List.of("17101", 17101)),
            Map.entry(ServerOption.CLUSTER_HOST, List.of("127.0.0.3", "127.0.0.3")),
            Map.entry(ServerOption.CLUSTER_PORT, List.of("7401", 7401)),
            Map.entry(ServerOption.CLUSTER_ADVERTISE_HOST, List.of("127.0.0.4", "127.0.0.4")),
            Map.entry(ServerOption.CLUSTER_ADVERTISE_PORT, List.of("7501", 7501)),
            Map.entry(ServerOption.SEEDS, List.of("127.0.0.1:7201", List.of(new io.zaris.model.NodeAddress("127.0.0.1", 7201)))),
            Map.entry(ServerOption.CLUSTER_SIZE, List.of("5", 5)),
            Map.entry(ServerOption.CLUSTER_NAME, List.of("orders", "orders")),
            Map.entry(ServerOption.REPLICATION_FACTOR, List.of("3", 3)),
            Map.entry(ServerOption.PARTITIONS, List.of("64", 64)),
            Map.entry(ServerOption.SEGMENTS, List.of("512", 512)),
            Map.entry(ServerOption.ACK_MODE, List.of("ASYNC", "async")),
            Map.entry(ServerOption.MIN_SYNC_REPLICAS, List.of("1", 1)),
            Map.entry(ServerOption.EVICTION_DELAY, List.of("2m", Duration.ofMinutes(2))),
            Map.entry(ServerOption.HEAL_COOLDOWN, List.of("7s", Duration.ofSeconds(7))),
            Map.entry(ServerOption.ASYNC_FLUSH_DELAY, List.of("250us", Duration.ofNanos(250_000))),
            Map.entry(ServerOption.REPLICA_BACKLOG, List.of("8m", 8L << 20)),
            Map.entry(ServerOption.JOIN_SETTLE_DELAY, List.of("1500ms", Duration.ofMillis(1500))),
            Map.entry(ServerOption.MAX_CONCURRENT_MOVES, List.of("3", 3)),
            Map.entry(ServerOption.ESCALATION_TIMEOUT, List.of("1m", Duration.ofMinutes(1))),
            Map.entry(ServerOption.RESP_PORT, List.of("off", "off")),
            Map.entry(ServerOption.RESP_HOST, List.of("127.0.0.5", "127.0.0.5")),
            Map.entry(ServerOption.RESP_MAX_BULK_BYTES, List.of("1m", 1 << 20)),
            Map.entry(ServerOption.RESP_MAX_ARGS, List.of("100", 100)),
            Map.entry(ServerOption.RESP_MAX_INLINE_BYTES, List.of("1k", 1024)),
            Map.entry(ServerOption.RESP_LINGER_QUIET, List.of("500ms", Duration.ofMillis(500))),
            Map.entry(ServerOption.RESP_LINGER_MAX, List.of("1m", Duration.ofMinutes(1))),
            Map.entry(ServerOption.MAX_MEMORY, List.of("64m", 64L << 20)),
            Map.entry(ServerOption.EVICTION_POLICY, List.of("volatile_ttl", "volatile-ttl")),
            Map.entry(ServerOption.LOGIN_TIMEOUT, List.of("3s", Duration.ofSeconds(3))),
            Map.entry(ServerOption.MAX_KEY_BYTES, List.of("1k", 1024)),
            Map.entry(ServerOption.MAX_VALUE_BYTES, List.of("1m", 1 << 20)),
            Map.entry(ServerOption.MAX_FRAME_BYTES, List.of("64m", 64 << 20)));

    @Test
    void everyConstantDefaultIsWhatAServerWithoutTheOptionApplies() {
        NodeConfig defaults = ServerArguments.parse(new String[] {"--node-id", "n1"});
        List<ServerOption> compared = new ArrayList<>();
        for (ServerOption option : ServerOption.current()) {
            if (option.typedDefault().isEmpty() || !option.landsOnNodeConfig()
                    || DEFAULT_LANDS_TRANSFORMED.containsKey(option)) {
                continue;
            }
            assertThat(option.valueIn(defaults)).as("%s lands with its documented default", option.flag())
                    .contains(option.typedDefault().get());
            compared.add(option);
        }
        assertThat(compared).hasSizeGreaterThan(20);
    }

    @Test
    void everyOptionThatLandsOnNodeConfigIsReadBackFromIt() {
        // These need key files or a DNS server; ServerSecurityArgumentsTests, ServerTlsArgumentsTests and
        // DnsDiscoveryIntegrationTests read them back.
        List<ServerOption> coveredElsewhere = List.of(ServerOption.PASSWORD_FILE, ServerOption.TLS_CERT,
                ServerOption.CLUSTER_SECRET_FILE, ServerOption.DISCOVERY, ServerOption.DNS_SERVER);
        for (ServerOption option : ServerOption.current()) {
            if (option.landsOnNodeConfig() && !coveredElsewhere.contains(option)) {
                assertThat(SAMPLES).as("a sample value for %s", option.flag()).containsKey(option);
            }
        }
        SAMPLES.forEach((option, sample) -> {
            List<String> args = new ArrayList<>(List.of("--node-id", "n1", "--allow-insecure"));
            if (option != ServerOption.NODE_ID) {
                args.addAll(List.of(option.flag(), (String) sample.get(0)));
            } else {
                args.set(1, (String) sample.get(0));
            }
            if (option == ServerOption.RESP_HOST) {
                args.addAll(List.of("--resp-port", "8101"));
            }
            NodeConfig config = ServerArguments.parse(args.toArray(String[]::new), Map.of(), NO_FILES);
            assertThat(option.valueIn(config)).as("%s %s", option.flag(), sample.get(0)).contains(sample.get(1));
        });
    }

    @Test
    void everyOptionHasATypeADefaultAndAHelpLine() {
        for (ServerOption option : ServerOption.values()) {
            assertThat(option.type()).as(option.flag()).isNotNull();
            assertThat(option.help()).as(option.flag()).isNotBlank();
            assertThat(option.defaultValue().inReference()).as(option.flag()).isNotBlank();
            assertThat(ServerOption.named(option.environmentVariable().substring(6).toLowerCase().replace('_', '-')))
                    .as("%s's variable names it", option.flag()).contains(option);
        }
        assertThat(ServerOption.usage()).contains("--port <port>               data port for clients and peer nodes (default 7101)")
                .contains("--password-file <path>").contains("(or set ZARIS_PASSWORD)")
                .contains("--node-id <id>              unique name of this node (required)");
    }

    @Test
    void aBadValueIsRefusedByItsTypeNamingTheOption() {
        assertThatThrownBy(() -> ServerOption.SEGMENTS.type().read("--segments", "16385"))
                .hasMessage("--segments must be in 1..16384 but was 16385");
        assertThatThrownBy(() -> ServerOption.RESP_MAX_INLINE_BYTES.type().read("--resp-max-inline-bytes", "8"))
                .hasMessageStartingWith("--resp-max-inline-bytes must be in 16..");
        assertThatThrownBy(() -> ServerOption.ESCALATION_TIMEOUT.type().read("--escalation-timeout", "2s"))
                .hasMessage("--escalation-timeout must be between 3s and 2147483647ms but was 2s");
        assertThatThrownBy(() -> ServerOption.ACK_MODE.type().read("--ack-mode", "later"))
                .hasMessage("--ack-mode must be sync or async but was 'later'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--partitions", "64",
                "--segments", "32"})).hasMessage("--partitions must be in 1..32 but was 64");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--http-port", "http"}))
                .hasMessage("--http-port must be a whole number but was 'http'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1"},
                Map.of("ZARIS_HEAL_COOLDOWN", "soon"), NO_FILES))
                .hasMessageStartingWith("environment variable ZARIS_HEAL_COOLDOWN: --heal-cooldown must be a duration");
    }

    @Test
    void bothDurationSpellingsStillWorkAndThePlainNumberIsWarnedAbout() {
        ServerArguments.Launch plain = ServerArguments.launch(new String[] {"--node-id", "n1", "--heal-cooldown", "30000"},
                Map.of(), NO_FILES);
        ServerArguments.Launch canonical = ServerArguments.launch(new String[] {"--node-id", "n1", "--heal-cooldown", "30s"},
                Map.of(), NO_FILES);
        ServerArguments.Launch legacy = ServerArguments.launch(new String[] {"--node-id", "n1", "--heal-cooldown-ms", "30000"},
                Map.of(), NO_FILES);
        assertThat(plain.node().replication().healCooldown()).isEqualTo(Duration.ofSeconds(30));
        assertThat(canonical.node().replication().healCooldown()).isEqualTo(Duration.ofSeconds(30));
        assertThat(legacy.node().replication().healCooldown()).isEqualTo(Duration.ofSeconds(30));
        assertThat(plain.warnings()).singleElement().asString().contains("--heal-cooldown 30000 has no unit").contains("30s");
        assertThat(canonical.warnings()).isEmpty();
        assertThat(legacy.warnings()).singleElement().asString().contains("--heal-cooldown-ms is deprecated");
    }
}
