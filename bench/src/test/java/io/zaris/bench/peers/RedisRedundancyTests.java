package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RedisRedundancyTests {

    /** Three masters with a replica each, as {@code CLUSTER NODES} prints it (Redis 7: bus port and host name). */
    private static final String HEALTHY = """
            a1 127.0.0.1:7001@17001, myself,master - 0 0 1 connected 0-5460
            a2 127.0.0.1:7002@17002, master - 0 1700000000000 2 connected 5461-10922
            a3 127.0.0.1:7003@17003, master - 0 1700000000000 3 connected 10923-16383
            b1 127.0.0.1:7004@17004, slave a3 0 1700000000000 3 connected
            b2 127.0.0.1:7005@17005, slave a1 0 1700000000000 1 connected
            b3 127.0.0.1:7006@17006, slave a2 0 1700000000000 2 connected
            """;

    /** Master 7002 killed and failed over: its replica 7006 serves its slots. */
    private static final String FAILED_OVER = """
            a1 127.0.0.1:7001@17001 myself,master - 0 0 1 connected 0-5460
            a2 127.0.0.1:7002@17002 master,fail - 1700000000000 1700000000000 2 disconnected
            a3 127.0.0.1:7003@17003 master - 0 1700000000000 3 connected 10923-16383
            b1 127.0.0.1:7004@17004 slave a3 0 1700000000000 3 connected
            b2 127.0.0.1:7005@17005 slave a1 0 1700000000000 1 connected
            b3 127.0.0.1:7006@17006 master - 0 1700000000000 4 connected 5461 5462-10922 [5461->-a1]
            """;

    @Test
    void linesParseIntoAddressesRolesAndSlots() {
        List<RedisRedundancy.Node> nodes = RedisRedundancy.parseClusterNodes(HEALTHY);
        assertThat(nodes).hasSize(6);
        RedisRedundancy.Node first = nodes.get(0);
        assertThat(first.hostPort()).isEqualTo("127.0.0.1:7001");
        assertThat(first.port()).isEqualTo(7001);
        assertThat(first.isMaster()).isTrue();
        assertThat(first.slots().cardinality()).isEqualTo(5461);
        assertThat(nodes.get(3).isMaster()).isFalse();
        assertThat(nodes.get(3).masterId()).isEqualTo("a3");
    }

    @Test
    void threeServingMastersCoverEverySlot() {
        List<RedisRedundancy.Node> masters = RedisRedundancy.servingMasters(RedisRedundancy.parseClusterNodes(HEALTHY), null);
        assertThat(masters).extracting(RedisRedundancy.Node::port).containsExactly(7001, 7002, 7003);
        assertThat(RedisRedundancy.coverAllSlots(masters)).isTrue();
    }

    @Test
    void theKilledMasterDoesNotCountEvenBeforeTheOthersMarkItFailed() {
        List<RedisRedundancy.Node> masters = RedisRedundancy.servingMasters(RedisRedundancy.parseClusterNodes(HEALTHY),
                "127.0.0.1:7002");
        assertThat(RedisRedundancy.coverAllSlots(masters)).isFalse();
    }

    @Test
    void afterTheFailoverThePromotedReplicaCoversTheSlots() {
        List<RedisRedundancy.Node> masters = RedisRedundancy.servingMasters(RedisRedundancy.parseClusterNodes(FAILED_OVER),
                "127.0.0.1:7002");
        assertThat(masters).extracting(RedisRedundancy.Node::port).containsExactly(7001, 7003, 7006);
        assertThat(RedisRedundancy.coverAllSlots(masters)).isTrue();
    }

    @Test
    void aMasterNeedsAnOnlineReplicaOtherThanTheKilledNode() {
        String online = """
                # Replication\r
                role:master\r
                connected_slaves:1\r
                slave0:ip=127.0.0.1,port=7005,state=online,offset=1234,lag=0\r
                """;
        String syncing = "role:master\r\nconnected_slaves:1\r\nslave0:ip=127.0.0.1,port=7005,state=wait_bgsave,offset=0,lag=0\r\n";
        String none = "role:master\r\nconnected_slaves:0\r\n";
        assertThat(RedisRedundancy.hasOnlineReplica(online, -1)).isTrue();
        assertThat(RedisRedundancy.hasOnlineReplica(online, 7005)).isFalse();
        assertThat(RedisRedundancy.hasOnlineReplica(syncing, -1)).isFalse();
        assertThat(RedisRedundancy.hasOnlineReplica(none, -1)).isFalse();
    }
}
