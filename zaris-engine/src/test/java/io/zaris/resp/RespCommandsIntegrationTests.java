package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.ExpireArgs;
import io.lettuce.core.GetExArgs;
import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Redis semantics of the string commands, checked with a plain (non-cluster) Lettuce client against a
 * one-node cluster that serves every slot.
 */
@Tag("in-process-cluster")
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

    /**
     * APPEND is one step on the owner: connections appending to one key at once never conflict (no TRYAGAIN) and lose
     * nothing, the key's deadline stays where PEXPIREAT put it, and a hash meets WRONGTYPE.
     */
    @Test
    void appendsFromSeveralConnectionsAtOnceAllLandAndKeepTheDeadline() throws Exception {
        long deadline = System.currentTimeMillis() + 600_000;
        redis.set("ap:k", "");
        redis.pexpireat("ap:k", deadline);
        int writers = 4;
        int appends = 250;
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                StatefulRedisConnection<String, String> own = client.connect();
                connections.add(own);
                String mark = Integer.toString(w);
                done.add(pool.submit(() -> {
                    for (int i = 0; i < appends; i++) {
                        own.sync().append("ap:k", mark);
                    }
                }));
            }
            for (Future<?> each : done) {
                each.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            connections.forEach(StatefulRedisConnection::close);
        }

        String value = redis.get("ap:k");
        assertThat(value).hasSize(writers * appends);
        for (int w = 0; w < writers; w++) {
            String mark = Integer.toString(w);
            assertThat(value.chars().filter(c -> c == mark.charAt(0)).count()).as("writer %d's appends", w)
                    .isEqualTo(appends);
        }
        long before = System.currentTimeMillis();
        long remaining = redis.pttl("ap:k");
        long after = System.currentTimeMillis();
        assertThat(remaining).as("the deadline PEXPIREAT set, not moved by the appends")
                .isBetween(deadline - after - 1, deadline - before);
        redis.hset("ap:h", "f", "v");
        assertThatThrownBy(() -> redis.append("ap:h", "x")).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageStartingWith("WRONGTYPE");
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

    @Test
    void clusterClientCommandsAreAccepted() {
        assertThat(redis.readOnly()).isEqualTo("OK");
        assertThat(redis.get("cc:missing")).as("reads still work after READONLY").isNull();
        assertThat(redis.readWrite()).isEqualTo("OK");
        assertThat(redis.asking()).isEqualTo("OK");
        assertThat(redis.set("cc:k", "v")).isEqualTo("OK");
    }

    @Test
    void absoluteExpiryTimesBecomeTtls() {
        long nowSeconds = System.currentTimeMillis() / 1000;
        assertThat(redis.set("abs:set", "v", SetArgs.Builder.exAt(nowSeconds + 60))).isEqualTo("OK");
        assertThat(redis.ttl("abs:set")).isBetween(55L, 61L);
        redis.set("abs:expireat", "v");
        assertThat(redis.expireat("abs:expireat", nowSeconds + 100)).isTrue();
        assertThat(redis.ttl("abs:expireat")).isBetween(95L, 101L);
        assertThat(redis.expireat("abs:missing", nowSeconds + 100)).isFalse();
        assertThat(redis.expireat("abs:expireat", nowSeconds - 10)).as("a past time deletes the key").isTrue();
        assertThat(redis.exists("abs:expireat")).isZero();

        redis.set("abs:getex", "v");
        assertThat(redis.getex("abs:getex", GetExArgs.Builder.px(40_000))).isEqualTo("v");
        assertThat(redis.pttl("abs:getex")).isBetween(35_000L, 40_000L);
        assertThat(redis.getex("abs:getex", GetExArgs.Builder.exAt(nowSeconds + 200))).isEqualTo("v");
        assertThat(redis.ttl("abs:getex")).isBetween(195L, 201L);
        assertThat(redis.getex("abs:getex", GetExArgs.Builder.pxAt(System.currentTimeMillis() + 300_000))).isEqualTo("v");
        assertThat(redis.pttl("abs:getex")).isBetween(295_000L, 300_000L);
        assertThat(redis.getex("abs:missing", GetExArgs.Builder.px(1000))).isNull();
    }

    @Test
    void helloSwitchesProtocolsAndClientSetinfoIsReported() throws Exception {
        String replies = exchange("HELLO 2\r\nHELLO 3\r\nHELLO 2\r\nGET hello:missing\r\n"
                + "CLIENT SETINFO LIB-NAME zaris-test\r\nCLIENT SETINFO lib-ver 1.2\r\nCLIENT SETINFO color blue\r\n"
                + "CLIENT INFO\r\nQUIT\r\n");
        // HELLO 2: a flat array of 7 pairs ending in an empty module list; HELLO 3 the same as a map.
        String hello2 = "*14\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$5\r\n7.0.0\r\n$5\r\nproto\r\n:2\r\n";
        assertThat(replies).startsWith(hello2);
        assertThat(replies).contains("%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$5\r\n7.0.0\r\n$5\r\nproto\r\n:3\r\n");
        assertThat(replies.indexOf(hello2, 1)).as("the second HELLO 2").isPositive();
        assertThat(replies).contains("$-1\r\n+OK\r\n+OK\r\n-ERR Unrecognized option 'color'\r\n")
                .contains("lib-name=zaris-test lib-ver=1.2").endsWith("+OK\r\n");
    }

    @Test
    void commandDocsIsAnsweredOverTheWire() throws Exception {
        String replies = exchange("COMMAND DOCS get nosuch\r\nQUIT\r\n");
        assertThat(replies).isEqualTo("*2\r\n$3\r\nget\r\n*8\r\n$7\r\nsummary\r\n$27\r\nReturns the value of a key.\r\n"
                + "$5\r\nsince\r\n$5\r\n1.0.0\r\n$5\r\ngroup\r\n$6\r\nstring\r\n$10\r\ncomplexity\r\n$4\r\nO(1)\r\n+OK\r\n");
    }

    @Test
    void expireTakesRedisFlagPairs() throws Exception {
        redis.set("ef:k", "v");
        assertThat(redis.expire("ef:k", 100, ExpireArgs.Builder.xx().gt())).as("XX GT on a key without TTL").isFalse();
        assertThat(redis.expire("ef:k", 100, ExpireArgs.Builder.lt())).isTrue();
        assertThat(redis.expire("ef:k", 50, ExpireArgs.Builder.xx().gt())).isFalse();
        assertThat(redis.expire("ef:k", 200, ExpireArgs.Builder.xx().gt())).isTrue();
        assertThat(redis.ttl("ef:k")).isBetween(195L, 200L);
        assertThat(redis.expire("ef:k", 300, ExpireArgs.Builder.xx().lt())).isFalse();
        assertThat(redis.expire("ef:k", 150, ExpireArgs.Builder.xx().lt())).isTrue();
        assertThat(redis.ttl("ef:k")).isBetween(145L, 150L);
        String replies = exchange("EXPIRE ef:k 10 NX GT\r\nEXPIRE ef:k 10 GT LT\r\nEXPIRE ef:k 10 XX later\r\n"
                + "EXPIRE ef:k soon BOGUS\r\nTTL ef:k\r\nQUIT\r\n");
        assertThat(replies).startsWith("-ERR NX and XX, GT or LT options at the same time are not compatible\r\n"
                + "-ERR GT and LT options at the same time are not compatible\r\n"
                + "-ERR Unsupported option later\r\n"
                + "-ERR Unsupported option BOGUS\r\n");
        assertThat(replies).as("the refused commands left the TTL alone").matches("(?s).*\r\n:1[45]\\d\r\n\\+OK\r\n");
    }

    @Test
    void scanTypeMatchesStringsOnly() throws Exception {
        for (int i = 0; i < 5; i++) {
            redis.set("scantype:" + i, "v");
        }
        assertThat(redis.scan(KeyScanArgs.Builder.type("string").match("scantype:*").limit(100_000)).getKeys())
                .containsExactlyInAnyOrder("scantype:0", "scantype:1", "scantype:2", "scantype:3", "scantype:4");
        assertThat(exchange("SCAN 0 COUNT 100000 TYPE hash\r\nSCAN 0 COUNT 100000 TYPE nosuchtype\r\nQUIT\r\n"))
                .isEqualTo("*2\r\n$1\r\n0\r\n*0\r\n*2\r\n$1\r\n0\r\n*0\r\n+OK\r\n");
    }

    @Test
    void infoKeyspaceCountsKeysWithATtl() {
        redis.set("ks:plain", "v");
        long before = expires(redis.info("keyspace"));
        redis.set("ks:ttl", "v", SetArgs.Builder.ex(100));
        assertThat(expires(redis.info("keyspace"))).isEqualTo(before + 1);
        redis.persist("ks:ttl");
        assertThat(expires(redis.info("keyspace"))).isEqualTo(before);
        assertThat(redis.info("keyspace")).doesNotContain("avg_ttl");
    }

    @Test
    void countKeysInSlotCountsTheSlotsKeys() {
        int slot = io.zaris.placement.SegmentMapper.slot("{cks}a");
        long before = redis.clusterCountKeysInSlot(slot);
        redis.mset(Map.of("{cks}a", "1", "{cks}b", "2", "{cks}c", "3"));
        assertThat(redis.clusterCountKeysInSlot(slot)).isEqualTo(before + 3);
        assertThatThrownBy(() -> redis.clusterCountKeysInSlot(16384)).hasMessage("ERR Invalid or out of range slot");
    }

    /** 200 writes and 200 reads sent in one go: replies past the connection's 64 KiB hand-off, still in order. */
    @Test
    void aLargePipelinedBatchOverOneSocketIsAnsweredInCommandOrder() throws IOException {
        int commands = 200;
        StringBuilder input = new StringBuilder();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < commands; i++) {
            String value = valueOf(i);
            input.append(multibulk("SET", "pb:" + i, value));
            expected.append("+OK\r\n");
        }
        for (int i = 0; i < commands; i++) {
            input.append(multibulk("GET", "pb:" + i));
            expected.append('$').append(valueOf(i).length()).append("\r\n").append(valueOf(i)).append("\r\n");
        }
        assertThat(expected.length()).as("replies larger than one hand-off").isGreaterThan(2 * 64 * 1024);
        assertThat(exchange(input.toString())).isEqualTo(expected.toString());
    }

    private static String valueOf(int i) {
        return (i + ":").repeat(1000).substring(0, 1000);
    }

    private static String multibulk(String... words) {
        StringBuilder command = new StringBuilder("*").append(words.length).append("\r\n");
        for (String word : words) {
            command.append('$').append(word.length()).append("\r\n").append(word).append("\r\n");
        }
        return command.toString();
    }

    private static long expires(String keyspace) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("db0:keys=\\d+,expires=(\\d+)").matcher(keyspace);
        assertThat(matcher.find()).as(keyspace).isTrue();
        return Long.parseLong(matcher.group(1));
    }

    /** Sends raw RESP to the node on a new connection, half-closes, and returns everything answered. */
    private static String exchange(String input) throws IOException {
        NodeAddress address = cluster.respSeeds().get(0);
        try (Socket socket = new Socket(address.host(), address.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(input.getBytes(StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            socket.getInputStream().transferTo(out);
            return out.toString(StandardCharsets.ISO_8859_1);
        }
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
