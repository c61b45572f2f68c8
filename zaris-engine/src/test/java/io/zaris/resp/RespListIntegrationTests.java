package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.zaris.model.NodeAddress;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The list commands on the RESP port: hand-written expectations (Redis 7's replies and errors) on a one-node cluster
 * serving every slot, and command sequences (a fixed one with every edge case, and seeded random ones) sent to a real
 * {@code redis-server} (started by the test when it is installed) with every reply compared. Keys share the hash tag
 * {@code {t}} so LMOVE's two keys stay in one slot.
 */
@Tag("in-process-cluster")
class RespListIntegrationTests {

    private static final String WRONGTYPE = RedisCli.WRONGTYPE;
    /** Random sequences the comparison runs, each of {@link #RANDOM_LENGTH} commands; a seed replays one. */
    private static final int RANDOM_SEQUENCES = 100;
    private static final int RANDOM_LENGTH = 100;

    /**
     * Every list command with its edge cases: missing keys, other types, bad numbers and keywords, wrong counts. The
     * blocking commands appear only where they answer at once: Redis drops a blocked client whose input has ended.
     */
    private static final String SEQUENCE = """
            RPUSH {t}l a b c
            LPUSH {t}l x y
            LRANGE {t}l 0 -1
            LRANGE {t}l -2 100
            LRANGE {t}l 3 1
            LRANGE {t}l -100 0
            LRANGE {t}l 5 10
            LRANGE {t}l x 1
            LRANGE {t}none 0 -1
            LLEN {t}l
            LLEN {t}none
            LINDEX {t}l 0
            LINDEX {t}l -1
            LINDEX {t}l 5
            LINDEX {t}l -6
            LINDEX {t}l x
            LINDEX {t}none x
            LPOP {t}l
            RPOP {t}l
            LPOP {t}l 2
            RPOP {t}l 0
            LPOP {t}l -1
            LPOP {t}l x
            LPOP {t}l 1 2
            LPOP {t}none
            LPOP {t}none 2
            LPOP {t}none 0
            RPOP {t}l 5
            EXISTS {t}l
            LPUSHX {t}l a
            RPUSHX {t}l a b
            RPUSH {t}l a b a c a d a
            LPUSHX {t}l z
            RPUSHX {t}l z
            LREM {t}l 2 a
            LREM {t}l -1 a
            LREM {t}l 0 z
            LREM {t}l 0 nope
            LREM {t}l x a
            LREM {t}none 1 a
            LRANGE {t}l 0 -1
            LSET {t}l 0 first
            LSET {t}l -1 last
            LSET {t}l 9 x
            LSET {t}l x v
            LSET {t}none 0 v
            LSET {t}none x v
            LINSERT {t}l BEFORE c C
            LINSERT {t}l after c D
            LINSERT {t}l AFTER nope x
            LINSERT {t}l ABOVE c x
            LINSERT {t}none BEFORE a b
            LRANGE {t}l 0 -1
            LPOS {t}l c
            LPOS {t}l nope
            LPOS {t}l a COUNT 0
            RPUSH {t}l c c
            LPOS {t}l c RANK 2
            LPOS {t}l c RANK -1 COUNT 2
            LPOS {t}l c COUNT 0 MAXLEN 4
            LPOS {t}l c RANK 0
            LPOS {t}l c RANK x
            LPOS {t}l c COUNT -1
            LPOS {t}l c COUNT x
            LPOS {t}l c MAXLEN -1
            LPOS {t}l c FOO 1
            LPOS {t}l c RANK
            LPOS {t}none c
            LPOS {t}none c COUNT 0
            LTRIM {t}l 1 -2
            LRANGE {t}l 0 -1
            LTRIM {t}l x 1
            LTRIM {t}none 0 1
            LMOVE {t}l {t}d LEFT RIGHT
            LMOVE {t}l {t}d right left
            LRANGE {t}d 0 -1
            LMOVE {t}d {t}d LEFT RIGHT
            LRANGE {t}d 0 -1
            LMOVE {t}d {t}d RIGHT RIGHT
            LMOVE {t}none {t}d LEFT LEFT
            LMOVE {t}l {t}d UP LEFT
            LMOVE {t}l {t}d LEFT
            RPUSH {t}one only
            LMOVE {t}one {t}one LEFT RIGHT
            LRANGE {t}one 0 -1
            LMOVE {t}one {t}two RIGHT LEFT
            EXISTS {t}one
            LRANGE {t}two 0 -1
            LTRIM {t}l 5 10
            EXISTS {t}l
            SET {t}str v
            HSET {t}h f v
            SADD {t}s m
            LPUSH {t}str a
            RPUSH {t}h a
            LPUSHX {t}s a
            LPOP {t}str
            LPOP {t}str x
            LPOP {t}str 0
            LRANGE {t}str 0 -1
            LRANGE {t}str x 1
            LLEN {t}h
            LINDEX {t}s x
            LSET {t}str x v
            LREM {t}str 0 a
            LTRIM {t}str 0 1
            LINSERT {t}str BEFORE a b
            LPOS {t}str a
            LPOS {t}str a COUNT x
            LMOVE {t}str {t}d LEFT LEFT
            LMOVE {t}d {t}str LEFT LEFT
            LMOVE {t}none {t}str LEFT LEFT
            LRANGE {t}d 0 -1
            RPUSH {t}k 1 2 3
            GET {t}k
            HGET {t}k f
            SMEMBERS {t}k
            INCR {t}k
            MGET {t}k {t}str
            TYPE {t}k
            EXISTS {t}k {t}none
            TTL {t}k
            EXPIRE {t}k 100
            TTL {t}k
            RPUSH {t}k 4
            TTL {t}k
            PERSIST {t}k
            TTL {t}k
            SET {t}k v
            TYPE {t}k
            RPUSH {t}k2 a
            DEL {t}k2
            LLEN {t}k2
            LPUSH {t}n 3 -1 10 2.5 007
            LRANGE {t}n 0 -1
            LPUSH {t}e ""
            RPUSH {t}b1 x y
            BLPOP {t}bnone {t}b1 1
            BRPOP {t}b1 1
            BLPOP {t}bnone -1
            BLPOP {t}bnone abc
            BLPOP {t}str 1
            RPUSH {t}b2 a b
            BLMOVE {t}b2 {t}b3 RIGHT LEFT 1
            BLMOVE {t}b2 {t}b3 LEFT LEFT 0
            BLMOVE {t}b3 {t}b3 UP LEFT 1
            BLMOVE {t}b3 {t}b3 LEFT LEFT -2
            BLMOVE {t}b3 {t}str LEFT LEFT 1
            LRANGE {t}b3 0 -1
            """;

    @RegisterExtension
    static final SingleRespNode NODE = new SingleRespNode();

    @Test
    void pushPopRangeAndTheirEdges() throws IOException {
        NODE.assertReplies("""
                RPUSH {t}pa x y
                LPUSH {t}pa w
                LRANGE {t}pa 0 -1
                LPOP {t}pa 5
                LPOP {t}pa
                LPOP {t}pa 1
                TYPE {t}pa
                LLEN {t}pa
                """, """
                :2
                :3
                *3
                $1
                w
                $1
                x
                $1
                y
                *3
                $1
                w
                $1
                x
                $1
                y
                $-1
                *-1
                +none
                :0
                """);
    }

    @Test
    void keysOfDifferentSlotsAreRefusedAndTypesMeetAsRedisHasThem() throws IOException {
        NODE.assertReplies("""
                RPUSH {t}slot m
                SET {t}str9 v
                LMOVE {t}slot other LEFT LEFT
                LPUSH {t}str9 m
                GET {t}slot
                SCAN 0 COUNT 100000 MATCH {t}slot TYPE list
                SCAN 0 COUNT 100000 MATCH {t}slot TYPE string
                """, """
                :1
                +OK
                -CROSSSLOT Keys in request don't hash to the same slot
                """ + WRONGTYPE + WRONGTYPE + """
                *2
                $1
                0
                *1
                $7
                {t}slot
                *2
                $1
                0
                *0
                """);
    }

    @Test
    void aListExpiresWhole() throws IOException {
        RedisCli.assertExpiresWhole(NODE.address(), "{t}exp", "RPUSH {t}exp a b", "LRANGE {t}exp 0 -1");
    }

    @Test
    void aBlockedPopIsAnsweredByAPushFromAnotherConnection() throws Exception {
        try (Socket consumer = open(NODE.address())) {
            send(consumer, "BLPOP {t}q1 {t}q2 0\r\n");
            awaitBlocked(1);
            assertThat(exchangeLines(NODE.address(), "RPUSH {t}q2 first second\n")).isEqualTo(":2\r\n+OK\r\n");
            assertThat(readReply(consumer)).isEqualTo("*2\r\n$5\r\n{t}q2\r\n$5\r\nfirst\r\n");
            awaitBlocked(0);
            assertThat(exchangeLines(NODE.address(), "LRANGE {t}q2 0 -1\n")).isEqualTo("*1\r\n$6\r\nsecond\r\n+OK\r\n");

            send(consumer, "BLMOVE {t}q3 {t}q2 LEFT LEFT 0\r\n");
            awaitBlocked(1);
            assertThat(exchangeLines(NODE.address(), "LPUSH {t}q3 moved\n")).isEqualTo(":1\r\n+OK\r\n");
            assertThat(readReply(consumer)).isEqualTo("$5\r\nmoved\r\n");
            assertThat(exchangeLines(NODE.address(), "LRANGE {t}q2 0 -1\nEXISTS {t}q3\n"))
                    .isEqualTo("*2\r\n$5\r\nmoved\r\n$6\r\nsecond\r\n:0\r\n+OK\r\n");

            send(consumer, "BRPOP {t}q4 0.2\r\nPING\r\n");
            assertThat(readReply(consumer)).as("the timeout answers the null array").isEqualTo("*-1\r\n");
            assertThat(readReply(consumer)).as("later commands wait behind the blocked one").isEqualTo("+PONG\r\n");
        }
    }

    @Test
    void aPushThroughTheNativeClientWakesABlockedPop() throws Exception {
        try (Socket consumer = open(NODE.address());
             io.zaris.client.ZarisClient client = io.zaris.client.ZarisClient.connect(io.zaris.client.ZarisClientOptions
                     .builder().seeds(NODE.cluster().seeds()).environment(java.util.Map.of()).build())) {
            send(consumer, "BRPOP {t}native 0\r\n");
            awaitBlocked(1);
            assertThat(client.listPush("{t}native", io.zaris.client.ListEnd.HEAD, "job".getBytes(StandardCharsets.UTF_8))
                    .join()).isEqualTo(1);
            assertThat(readReply(consumer)).isEqualTo("*2\r\n$9\r\n{t}native\r\n$3\r\njob\r\n");
        }
    }

    @Test
    void aClientThatLeavesStopsWaitingAndKeysOfTwoSlotsAreRefused() throws Exception {
        awaitBlocked(0);
        try (Socket consumer = open(NODE.address())) {
            send(consumer, "BLPOP {t}gone 0\r\n");
            awaitBlocked(1);
        }
        awaitBlocked(0);
        assertThat(exchangeLines(NODE.address(),
                "RPUSH {t}gone kept\nBLPOP {t}gone other 0\nBLMOVE {t}gone other LEFT LEFT 0\n"))
                .as("the pop of a client that left took nothing")
                .isEqualTo(":1\r\n-CROSSSLOT Keys in request don't hash to the same slot\r\n"
                        + "-CROSSSLOT Keys in request don't hash to the same slot\r\n+OK\r\n");
    }

    private static void awaitBlocked(int clients) {
        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(exchangeLines(NODE.address(), "INFO clients\n"))
                        .contains("blocked_clients:" + clients + "\r\n"));
    }

    private static Socket open(NodeAddress address) throws IOException {
        Socket socket = new Socket(address.host(), address.port());
        socket.setSoTimeout(20_000);
        return socket;
    }

    private static void send(Socket socket, String commands) throws IOException {
        socket.getOutputStream().write(commands.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    /** One whole reply, as raw text. */
    private static String readReply(Socket socket) throws IOException {
        java.io.InputStream in = socket.getInputStream();
        StringBuilder out = new StringBuilder();
        readValue(in, out);
        return out.toString();
    }

    private static void readValue(java.io.InputStream in, StringBuilder out) throws IOException {
        String line = readLine(in);
        out.append(line).append("\r\n");
        char type = line.charAt(0);
        int n = type == '*' || type == '$' ? Integer.parseInt(line.substring(1)) : -1;
        if (type == '$' && n >= 0) {
            out.append(new String(in.readNBytes(n + 2), StandardCharsets.ISO_8859_1));
        } else if (type == '*') {
            for (int i = 0; i < n; i++) {
                readValue(in, out);
            }
        }
    }

    private static String readLine(java.io.InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new IOException("connection closed after " + line);
            }
            line.append((char) c);
        }
        in.read(); // the LF
        return line.toString();
    }

    /** The same sequence on a real Redis and on Zaris: every reply alike. */
    @Test
    void everyReplyMatchesARealRedis() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        RedisServer.assertSameReplies(NODE.address(), SEQUENCE.lines().toList(), Set.of());
    }

    /**
     * Seeded random sequences of list commands over a few keys (and a string among them), each compared reply by reply
     * with a real Redis. A failure names its seed; {@code -Dzaris.lists.seed=N} runs that one sequence alone.
     */
    @Test
    void seededRandomSequencesMatchARealRedis() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        String only = System.getProperty("zaris.lists.seed");
        long first = only == null ? 1 : Long.parseLong(only);
        long last = only == null ? RANDOM_SEQUENCES : first;
        try (RedisServer server = RedisServer.start()) {
            for (long seed = first; seed <= last; seed++) {
                List<String> commands = new ArrayList<>(randomSequence(seed));
                commands.add("DEL {t}r0 {t}r1 {t}r2 {t}rs"); // the next sequence starts from nothing on both
                compareWithRedis(server, commands, "seed " + seed + " (replay: mvn -pl zaris-engine verify -Dit.test="
                        + "RespListIntegrationTests#seededRandomSequencesMatchARealRedis -Dzaris.lists.seed=" + seed + ")");
            }
        }
    }

    /** redis-cli, which speaks RESP arrays (not inline commands) and prints replies its own way. */
    @Test
    void redisCliSeesListsAsRedisShowsThem() throws Exception {
        assumeThat(RedisCli.installed()).as(RedisCli.MISSING).isTrue();
        NodeAddress address = NODE.address();
        assertThat(RedisCli.at(address, "RPUSH", "{t}cli", "red", "green")).isEqualTo("2");
        assertThat(RedisCli.at(address, "LRANGE", "{t}cli", "0", "-1")).isEqualTo("red\ngreen");
        assertThat(RedisCli.at(address, "TYPE", "{t}cli")).isEqualTo("list");
        assertThat(RedisCli.at(address, "HGETALL", "{t}cli"))
                .isEqualTo("WRONGTYPE Operation against a key holding the wrong kind of value");
        assertThat(RedisCli.at(address, "DEL", "{t}cli")).isEqualTo("1");
        assertThat(RedisCli.at(address, "LRANGE", "{t}cli", "0", "-1")).isEmpty();
    }

    static List<String> randomSequence(long seed) {
        Random random = new Random(seed);
        List<String> commands = new ArrayList<>();
        commands.add("SET {t}rs v");
        for (int i = 0; i < RANDOM_LENGTH; i++) {
            String key = random.nextInt(10) == 0 ? "{t}rs" : "{t}r" + random.nextInt(3);
            String element = "e" + random.nextInt(5);
            String index = Integer.toString(random.nextInt(14) - 7);
            String side = random.nextBoolean() ? "LEFT" : "RIGHT";
            commands.add(switch (random.nextInt(16)) {
                case 0, 1 -> "LPUSH " + key + " " + element + " e" + random.nextInt(5);
                case 2, 3 -> "RPUSH " + key + " " + element;
                case 4 -> (random.nextBoolean() ? "LPUSHX " : "RPUSHX ") + key + " " + element;
                case 5 -> "LPOP " + key + (random.nextBoolean() ? "" : " " + (random.nextInt(5) - 1));
                case 6 -> "RPOP " + key + (random.nextBoolean() ? "" : " " + random.nextInt(4));
                case 7 -> "LRANGE " + key + " " + index + " " + (random.nextInt(14) - 7);
                case 8 -> "LINDEX " + key + " " + index;
                case 9 -> "LSET " + key + " " + index + " " + element;
                case 10 -> "LREM " + key + " " + index + " " + element;
                case 11 -> "LTRIM " + key + " " + index + " " + (random.nextInt(14) - 4);
                case 12 -> "LMOVE " + key + " {t}r" + random.nextInt(3) + " " + side + " " + (random.nextBoolean() ? "LEFT" : "RIGHT");
                case 13 -> "LINSERT " + key + " " + (random.nextBoolean() ? "BEFORE " : "AFTER ") + element + " i" + random.nextInt(3);
                case 14 -> "LPOS " + key + " " + element + (random.nextBoolean() ? "" : " RANK " + (random.nextInt(5) - 2))
                        + (random.nextBoolean() ? "" : " COUNT " + random.nextInt(3))
                        + (random.nextBoolean() ? "" : " MAXLEN " + random.nextInt(4));
                default -> "LLEN " + key;
            });
        }
        return commands;
    }

    private static void compareWithRedis(RedisServer server, List<String> commands, String what) throws IOException {
        List<String> redis = RedisServer.replies(server.address(), commands, Set.of());
        List<String> zaris = RedisServer.replies(NODE.address(), commands, Set.of());
        assertThat(redis).as("Redis answered every command of %s", what).hasSameSizeAs(commands).doesNotContainNull();
        for (int i = 0; i < commands.size(); i++) {
            assertThat(zaris.get(i)).as("reply to %s in %s", commands.get(i), what).isEqualTo(redis.get(i));
        }
    }

    private static String exchangeLines(NodeAddress address, String commands) throws IOException {
        return RedisCli.exchangeLines(address, commands);
    }
}
