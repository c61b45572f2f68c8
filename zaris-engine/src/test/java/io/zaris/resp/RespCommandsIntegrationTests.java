package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.ExpireArgs;
import io.lettuce.core.GetExArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.zaris.cluster.NodeAddress;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.placement.PartitionLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Redis semantics of the string commands, checked with a plain (non-cluster) Lettuce client against a
 * one-node cluster that serves every slot.
 */
class RespCommandsIntegrationTests {

    private static EmbeddedCluster cluster;
    private static RedisClient client;
    private static StatefulRedisConnection<String, String> connection;
    private static RedisCommands<String, String> redis;

    @BeforeAll
    static void start() {
        cluster = EmbeddedCluster.builder().nodes(1).replicationFactor(1).layout(PartitionLayout.of(64, 8)).resp(true)
                .build().start();
        NodeAddress address = cluster.respSeeds().get(0);
        client = RedisClient.create(RedisURI.create(address.host(), address.port()));
        connection = client.connect();
        redis = connection.sync();
    }

    @AfterAll
    static void stop() {
        if (connection != null) {
            connection.close();
        }
        if (client != null) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void setOptionsFollowRedis() {
        assertThat(redis.set("s:xx", "v", SetArgs.Builder.xx())).isNull();
        assertThat(redis.exists("s:xx")).isZero();
        assertThat(redis.set("s:k", "1", SetArgs.Builder.ex(100))).isEqualTo("OK");
        assertThat(redis.set("s:k", "2", SetArgs.Builder.xx().keepttl())).isEqualTo("OK");
        assertThat(redis.get("s:k")).isEqualTo("2");
        assertThat(redis.ttl("s:k")).isBetween(95L, 100L);
        assertThat(redis.set("s:k", "3")).isEqualTo("OK");
        assertThat(redis.ttl("s:k")).isEqualTo(-1);
        assertThat(redis.setGet("s:k", "4", SetArgs.Builder.nx())).isEqualTo("3");
        assertThat(redis.get("s:k")).isEqualTo("3");
        assertThat(redis.setGet("s:new", "a", SetArgs.Builder.nx())).isNull();
        assertThat(redis.get("s:new")).isEqualTo("a");
        assertThat(redis.set("s:at", "x", SetArgs.Builder.pxAt(System.currentTimeMillis() + 60_000))).isEqualTo("OK");
        assertThat(redis.pttl("s:at")).isBetween(50_000L, 60_000L);
        assertThat(redis.setnx("s:at", "y")).isFalse();
        assertThat(redis.setex("s:ex", 30, "z")).isEqualTo("OK");
        assertThat(redis.ttl("s:ex")).isBetween(25L, 30L);
        assertThatThrownBy(() -> redis.setex("s:ex", 0, "z")).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessage("ERR invalid expire time in 'setex' command");
    }

    @Test
    void getFamilyAndAppendKeepRedisSemantics() {
        redis.set("g:k", "abc", SetArgs.Builder.ex(100));
        assertThat(redis.append("g:k", "def")).isEqualTo(6);
        assertThat(redis.ttl("g:k")).as("APPEND keeps the TTL").isPositive();
        assertThat(redis.strlen("g:k")).isEqualTo(6);
        assertThat(redis.getex("g:k", GetExArgs.Builder.persist())).isEqualTo("abcdef");
        assertThat(redis.ttl("g:k")).isEqualTo(-1);
        assertThat(redis.getex("g:k", GetExArgs.Builder.ex(50))).isEqualTo("abcdef");
        assertThat(redis.ttl("g:k")).isBetween(45L, 50L);
        assertThat(redis.getset("g:k", "new")).isEqualTo("abcdef");
        assertThat(redis.ttl("g:k")).as("GETSET clears the TTL").isEqualTo(-1);
        assertThat(redis.getdel("g:k")).isEqualTo("new");
        assertThat(redis.getdel("g:k")).isNull();
        assertThat(redis.type("g:k")).isEqualTo("none");
        redis.set("g:k", "1");
        assertThat(redis.type("g:k")).isEqualTo("string");
        assertThat(redis.append("g:absent", "x")).isEqualTo(1);
    }

    @Test
    void expireFamilyAndCounters() {
        redis.set("e:k", "1");
        assertThat(redis.expire("e:k", 100, ExpireArgs.Builder.xx())).isFalse();
        assertThat(redis.expire("e:k", 100, ExpireArgs.Builder.nx())).isTrue();
        assertThat(redis.expire("e:k", 50, ExpireArgs.Builder.gt())).isFalse();
        assertThat(redis.expire("e:k", 50, ExpireArgs.Builder.lt())).isTrue();
        assertThat(redis.ttl("e:k")).isBetween(45L, 50L);
        assertThat(redis.pexpireat("e:k", System.currentTimeMillis() + 20_000)).isTrue();
        assertThat(redis.pttl("e:k")).isBetween(15_000L, 20_000L);
        assertThat(redis.persist("e:k")).isTrue();
        assertThat(redis.persist("e:k")).isFalse();
        assertThat(redis.expire("e:missing", 10)).isFalse();
        assertThat(redis.ttl("e:missing")).isEqualTo(-2);
        assertThat(redis.expire("e:k", -1)).isTrue();
        assertThat(redis.exists("e:k")).isZero();
        assertThat(redis.incrby("e:c", 5)).isEqualTo(5);
        assertThat(redis.decrby("e:c", 7)).isEqualTo(-2);
        redis.set("e:max", Long.toString(Long.MAX_VALUE));
        assertThatThrownBy(() -> redis.incr("e:max")).hasMessage("ERR increment or decrement would overflow");
    }

    @Test
    void multiKeyCommandsScanAndKeys() {
        assertThat(redis.msetnx(Map.of("{m}a", "1", "{m}b", "2"))).isTrue();
        assertThat(redis.msetnx(Map.of("{m}b", "x", "{m}c", "3"))).isFalse();
        assertThat(redis.exists("{m}a", "{m}b", "{m}c", "{m}a")).isEqualTo(3);
        assertThat(redis.unlink("{m}a", "{m}c")).isEqualTo(1);
        assertThatThrownBy(() -> redis.mget("x", "y")).hasMessageStartingWith("CROSSSLOT");
        for (int i = 0; i < 40; i++) {
            redis.set("scan:" + i, "v");
        }
        List<String> seen = new ArrayList<>();
        KeyScanCursor<String> cursor = redis.scan(ScanArgs.Builder.matches("scan:*").limit(7));
        seen.addAll(cursor.getKeys());
        while (!cursor.isFinished()) {
            cursor = redis.scan(ScanCursor.of(cursor.getCursor()), ScanArgs.Builder.matches("scan:*").limit(7));
            seen.addAll(cursor.getKeys());
        }
        assertThat(seen).hasSize(40).doesNotHaveDuplicates();
        assertThat(redis.keys("scan:1*")).containsExactlyInAnyOrder("scan:1", "scan:10", "scan:11", "scan:12", "scan:13",
                "scan:14", "scan:15", "scan:16", "scan:17", "scan:18", "scan:19");
        assertThat(redis.dbsize()).isGreaterThanOrEqualTo(40);
    }

    @Test
    void connectionCommands() {
        assertThat(redis.ping()).isEqualTo("PONG");
        assertThat(redis.echo("hi")).isEqualTo("hi");
        assertThat(redis.clientSetname("tester")).isEqualTo("OK");
        assertThat(redis.clientGetname()).isEqualTo("tester");
        assertThat(redis.clientId()).isPositive();
        assertThat(redis.select(0)).isEqualTo("OK");
        assertThat(redis.info("keyspace")).contains("# Keyspace");
        assertThat(redis.info()).contains("redis_mode:cluster", "connected_clients:", "used_memory:", "cluster_enabled:1");
        assertThat(redis.commandCount()).isEqualTo(CommandTable.COMMANDS.size());
        assertThat(redis.clusterMyId()).hasSize(40);
        assertThat(redis.clusterInfo()).contains("cluster_state:ok");
        assertThat(redis.clusterKeyslot("foo")).isEqualTo(12182);
    }

    /** redis-benchmark --cluster asks every master for these two and warned "Could not fetch node CONFIG" on an empty reply. */
    @Test
    void configGetReportsPersistenceOffAsRedisBenchmarkExpects() {
        assertThat(redis.configGet("save")).containsExactly(Map.entry("save", ""));
        assertThat(redis.configGet("appendonly")).containsExactly(Map.entry("appendonly", "no"));
        assertThat(redis.configGet("maxmemory-policy", "save")).containsOnlyKeys("maxmemory-policy", "save");
        assertThat(redis.configGet("no-such-parameter")).isEmpty();
        assertThatThrownBy(() -> redis.configSet("save", "60 1")).hasMessageContaining("not supported");
    }
}
