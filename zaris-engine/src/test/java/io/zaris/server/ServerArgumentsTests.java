package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.cluster.MembershipConfig;
import io.zaris.cluster.NodeAddress;
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
                "--min-sync-replicas", "2", "--eviction-delay-ms", "1500", "--heal-cooldown-ms", "0"});
        assertThat(config.replication().ackMode()).isEqualTo(io.zaris.replication.AckMode.ASYNC);
        assertThat(config.replication().minSyncReplicas()).isEqualTo(2);
        assertThat(config.replication().evictionDelay().toMillis()).isEqualTo(1500);
        assertThat(config.replication().healCooldown()).isZero();
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--node-id", "n1", "--ack-mode", "maybe"}))
                .hasMessageContaining("--ack-mode must be sync or async but was 'maybe'");
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
}
