package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.cluster.MembershipConfig;
import io.zaris.model.NodeAddress;
import io.zaris.protocol.ProtocolLimits;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerArgumentsTests {

    @Test
    void parsesAThreeNodeClusterCommandLine() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--port", "7101",
                "--cluster-port", "7201", "--seeds", "127.0.0.1:7201,127.0.0.1:7202,127.0.0.1:7203"});
        assertThat(config.nodeId()).isEqualTo("n1");
        assertThat(config.port()).isEqualTo(7101);
        assertThat(config.clusterSettings().clusterSize()).isEqualTo(3);
        MembershipConfig.Tcp tcp = (MembershipConfig.Tcp) config.membership();
        assertThat(tcp.bindPort()).isEqualTo(7201);
        assertThat(tcp.seeds()).contains(new NodeAddress("127.0.0.1", 7203));
        assertThat(tcp.toJGroupsXml()).contains("initial_hosts=\"127.0.0.1[7201],127.0.0.1[7202],127.0.0.1[7203]\"");
    }

    @Test
    void acceptsNameEqualsValueAndDefaultsToASingleNodeCluster() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id=solo"});
        assertThat(config.port()).isEqualTo(ServerArguments.DEFAULT_PORT);
        assertThat(config.clusterSettings().clusterSize()).isEqualTo(1);
    }

    @Test
    void rejectsBadInputNamingTheOption() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--port", "7101"}))
                .hasMessageContaining("--node-id is required");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "a", "--port", "http"}))
                .hasMessageContaining("--port must be a whole number but was 'http'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "a", "--port", "70000"}))
                .hasMessageContaining("--port must be in 1..65535");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "a", "--seeds", "nohost"}))
                .hasMessageContaining("--seeds").hasMessageContaining("host:port");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "a", "--colour", "red"}))
                .hasMessageContaining("unknown option '--colour'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id"}))
                .hasMessageContaining("--node-id needs a value");
    }

    @Test
    void parsesReplicationOptions() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--ack-mode", "async",
                "--min-sync-replicas", "2", "--eviction-delay-ms", "1500", "--heal-cooldown-ms", "0",
                "--async-flush-delay-us", "250"});
        assertThat(config.replication().ackMode()).isEqualTo(io.zaris.model.AckMode.ASYNC);
        assertThat(config.replication().minSyncReplicas()).isEqualTo(2);
        assertThat(config.replication().evictionDelay().toMillis()).isEqualTo(1500);
        assertThat(config.replication().healCooldown()).isZero();
        assertThat(config.replication().asyncFlushDelay()).isEqualTo(java.time.Duration.ofNanos(250_000));
        assertThat(ServerArguments.parse(new String[] {"--node-id", "n1"}).replication().asyncFlushDelay())
                .isEqualTo(io.zaris.replication.ReplicationSettings.DEFAULT_ASYNC_FLUSH_DELAY);
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--ack-mode", "maybe"}))
                .hasMessageContaining("--ack-mode must be sync or async but was 'maybe'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--async-flush-delay-us", "-1"}))
                .hasMessageContaining("--async-flush-delay-us");
    }

    @Test
    void parsesRebalanceOptions() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--join-settle-delay-ms", "2500",
                "--max-concurrent-moves", "3"});
        assertThat(config.clusterSettings().joinSettleDelay().toMillis()).isEqualTo(2500);
        assertThat(config.clusterSettings().maxConcurrentMoves()).isEqualTo(3);
        NodeConfig defaults = ServerArguments.parse(new String[] {"--node-id", "n1"});
        assertThat(defaults.clusterSettings().joinSettleDelay()).isEqualTo(io.zaris.cluster.ClusterSettings.DEFAULT_JOIN_SETTLE_DELAY);
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--max-concurrent-moves", "0"}))
                .hasMessageContaining("--max-concurrent-moves");
    }

    @Test
    void recognisesHelp() {
        assertThat(ServerArguments.wantsHelp(new String[] {"--node-id", "a", "--help"})).isTrue();
        assertThat(ServerArguments.wantsHelp(new String[] {"--node-id", "a"})).isFalse();
    }

    @Test
    void memoryBudgetAndPolicyComeFromTheCommandLine() {
        NodeConfig config = ServerArguments.parse(new String[] {"--node-id", "n1", "--max-memory", "64m",
                "--eviction-policy", "volatile-ttl"});
        assertThat(config.memory().maxBytes()).isEqualTo(64L << 20);
        assertThat(config.memory().policy()).isEqualTo(io.zaris.store.EvictionPolicy.VOLATILE_TTL);
        long heap = Runtime.getRuntime().maxMemory();
        NodeConfig share = ServerArguments.parse(new String[] {"--node-id", "n1", "--max-memory", "50%"});
        assertThat(share.memory().maxBytes()).isEqualTo(heap / 2);
        NodeConfig defaults = ServerArguments.parse(new String[] {"--node-id", "n1"});
        assertThat(defaults.memory().maxBytes()).isEqualTo((long) (heap * io.zaris.store.MemoryOptions.DEFAULT_HEAP_FRACTION));
        assertThat(defaults.memory().policy()).isEqualTo(io.zaris.store.EvictionPolicy.ALLKEYS_LRU);
    }

    @Test
    void badMemoryOptionsAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "a", "--max-memory", "lots"}))
                .hasMessageStartingWith("--max-memory").hasMessageContaining("'lots'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "a", "--eviction-policy", "lfu"}))
                .hasMessageStartingWith("--eviction-policy").hasMessageContaining("'lfu'");
    }

    @Test
    void drainOnStopDefaultsToThirtySecondsAndAcceptsUnitsOrPlainMilliseconds() {
        String[] base = {"--node-id", "n1"};
        assertThat(ServerArguments.drainOnStop(base, Map.of())).isEqualTo(Duration.ofSeconds(30));
        assertThat(drainOnStop("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(drainOnStop("1500ms")).isEqualTo(Duration.ofMillis(1500));
        assertThat(drainOnStop("1500")).isEqualTo(Duration.ofMillis(1500));
        assertThat(drainOnStop("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(drainOnStop(" 45S ")).isEqualTo(Duration.ofSeconds(45));
        assertThat(drainOnStop("0")).isZero();
        assertThat(ServerArguments.drainOnStop(new String[] {"--node-id", "n1", "--drain-on-stop=10s"}, Map.of()))
                .isEqualTo(Duration.ofSeconds(10));
        // The option is known to the node's own parsing too.
        assertThat(ServerArguments.parse(new String[] {"--node-id", "n1", "--drain-on-stop", "0"}).nodeId()).isEqualTo("n1");
    }

    @Test
    void ioThreadsDefaultToOnePerCoreAndBadCountsAreRefused() {
        assertThat(ServerArguments.ioThreads(new String[] {"--node-id", "n1"}, 8)).isEqualTo(8);
        assertThat(ServerArguments.ioThreads(new String[] {"--node-id", "n1"}, 0)).isEqualTo(1);
        assertThat(ServerArguments.ioThreads(new String[] {"--node-id", "n1", "--io-threads", "1"}, 8)).isEqualTo(1);
        assertThat(ServerArguments.parse(new String[] {"--node-id", "n1", "--io-threads", "3"}).nodeId()).isEqualTo("n1");
        for (String bad : new String[] {"0", "-1", "two", "1025"}) {
            assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--io-threads", bad}))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--io-threads");
        }
    }

    @Test
    void sizeLimitsDefaultToSixtyFourKibKeysAndThirtyTwoMibValues() {
        ProtocolLimits limits = ServerArguments.parse(new String[] {"--node-id", "n1"}).limits();
        assertThat(limits).isEqualTo(ProtocolLimits.defaults());
        assertThat(limits.maxKeyBytes()).isEqualTo(64 * 1024);
        assertThat(limits.maxValueBytes()).isEqualTo(32 * 1024 * 1024);
    }

    @Test
    void sizeLimitsAcceptBytesOrBinaryUnits() {
        ProtocolLimits limits = ServerArguments.parse(new String[] {"--node-id", "n1", "--max-key-bytes", "1024",
                "--max-value-bytes", "1m", "--max-frame-bytes=4M"}).limits();
        assertThat(limits.maxKeyBytes()).isEqualTo(1024);
        assertThat(limits.maxValueBytes()).isEqualTo(1024 * 1024);
        assertThat(limits.maxFrameBytes()).isEqualTo(4 * 1024 * 1024);
        assertThat(ServerArguments.parse(new String[] {"--node-id", "n1", "--max-value-bytes", " 1g "}).limits()
                .maxValueBytes()).isEqualTo(1 << 30);
    }

    @Test
    void withoutAFrameLimitTheFrameGrowsWithTheKeyAndValueLimitsButNeverShrinksBelowTheDefault() {
        ProtocolLimits bigValues = ServerArguments.parse(new String[] {"--node-id", "n1", "--max-value-bytes", "64m"})
                .limits();
        assertThat(bigValues.maxFrameBytes())
                .isEqualTo(64 * 1024 * 1024 + ProtocolLimits.DEFAULT_MAX_KEY_BYTES + ProtocolLimits.FRAME_HEADROOM_BYTES);
        ProtocolLimits smallValues = ServerArguments.parse(new String[] {"--node-id", "n1", "--max-value-bytes", "4k"})
                .limits();
        assertThat(smallValues.maxValueBytes()).isEqualTo(4096);
        assertThat(smallValues.maxFrameBytes()).isEqualTo(ProtocolLimits.DEFAULT_MAX_FRAME_BYTES);
    }

    @Test
    void aFrameLimitThatCannotCarryTheLargestKeyAndValueIsRefusedWithTheSizeItNeeds() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--max-frame-bytes", "8m"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--max-frame-bytes 8388608 cannot carry a key of --max-key-bytes 65536 and a value"
                        + " of --max-value-bytes 33554432")
                .hasMessageContaining("give at least " + ProtocolLimits.DEFAULT_MAX_FRAME_BYTES);
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--max-value-bytes", "8m",
                "--max-key-bytes", "1k", "--max-frame-bytes", "8m"}))
                .hasMessageContaining("give at least " + (8 * 1024 * 1024 + 1024 + ProtocolLimits.FRAME_HEADROOM_BYTES));
    }

    @Test
    void badSizeLimitsAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--max-key-bytes", "big"}))
                .hasMessageContaining("--max-key-bytes must be a size such as 65536, 64k or 32m but was 'big'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--max-value-bytes", "-5"}))
                .hasMessageContaining("--max-value-bytes must be a size");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--max-key-bytes", "0"}))
                .hasMessageContaining("--max-key-bytes must be in 1..16777216 bytes but was '0'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--max-key-bytes", "17m"}))
                .hasMessageContaining("--max-key-bytes must be in 1..16777216 bytes but was '17m'");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--max-value-bytes", "2g"}))
                .hasMessageContaining("--max-value-bytes must be in 1..1073741824 bytes");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--max-frame-bytes", "1m"}))
                .hasMessageContaining("--max-frame-bytes must be in " + ProtocolLimits.MIN_NODE_FRAME_BYTES + "..");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--max-frame-bytes",
                "99999999999999999g"}))
                .hasMessageContaining("--max-frame-bytes must be in");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--max-frame-bytes", "k"}))
                .hasMessageContaining("--max-frame-bytes must be a size");
    }

    @Test
    void helpListsTheSizeLimitOptions() {
        assertThat(ServerArguments.usage()).contains("--max-key-bytes", "--max-value-bytes", "--max-frame-bytes");
    }

    @Test
    void drainOnStopComesFromTheEnvironmentUnlessTheOptionIsGiven() {
        Map<String, String> environment = Map.of(ServerArguments.DRAIN_ON_STOP_VARIABLE, "5s");
        assertThat(ServerArguments.drainOnStop(new String[] {"--node-id", "n1"}, environment)).isEqualTo(Duration.ofSeconds(5));
        assertThat(ServerArguments.drainOnStop(new String[] {"--node-id", "n1", "--drain-on-stop", "0"}, environment)).isZero();
        assertThatThrownBy(() -> ServerArguments.drainOnStop(new String[] {"--node-id", "n1"},
                Map.of(ServerArguments.DRAIN_ON_STOP_VARIABLE, "soon")))
                .hasMessageContaining("ZARIS_DRAIN_ON_STOP").hasMessageContaining("'soon'");
    }

    @Test
    void badDrainOnStopValuesAreRefusedNamingTheOption() {
        for (String bad : new String[] {"-5s", "1.5s", "30 sec", "s", "ms10", "10d", "9999999999999"}) {
            assertThatThrownBy(() -> drainOnStop(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("--drain-on-stop must be a duration").hasMessageContaining("'" + bad + "'");
            assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--drain-on-stop", bad}))
                    .as(bad).hasMessageStartingWith("--drain-on-stop");
        }
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--drain-on-stop"}))
                .hasMessageContaining("--drain-on-stop needs a value");
    }

    @Test
    void usageNamesDrainOnStopAndTheAdminCommand() {
        assertThat(ServerArguments.usage()).contains("--drain-on-stop <duration>").contains("ZARIS_CLUSTER_PORT")
                .contains("admin --help");
    }

    private static Duration drainOnStop(String value) {
        return ServerArguments.drainOnStop(new String[] {"--node-id", "n1", "--drain-on-stop", value}, Map.of());
    }
}
