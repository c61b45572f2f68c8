package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.NodeAddress;
import io.zaris.placement.PartitionLayout;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Differential tests: thousands of seeded command sequences ({@link CommandSequences}) over every type, sent to a real
 * {@code redis-server} (started by the test when it is installed) and to Zaris, every reply compared after the few
 * normalizations {@link DifferentialReplies} lists. This is how "Redis's replies" is proven. A differing sequence fails
 * with one line: where it differs, both replies, and the command that replays that sequence alone.
 *
 * <p>{@code -Dzaris.diff.seed=N} picks the run's seed (default 1), {@code -Dzaris.diff.sequences=K} how many sequences
 * run, {@code -Dzaris.diff.sequence=M} runs only sequence M of the seed, and {@code -Dzaris.diff.print=true} prints
 * its commands with both servers' replies.
 */
@Tag("in-process-cluster")
class RespDifferentialIntegrationTests {

    private static final long SEED = Long.getLong("zaris.diff.seed", 1);
    private static final int SEQUENCES = Integer.getInteger("zaris.diff.sequences", 1500);
    private static final Integer ONLY = Integer.getInteger("zaris.diff.sequence");
    private static final boolean PRINT = Boolean.getBoolean("zaris.diff.print");
    private static final int LENGTH = 30;
    private static final int REPLY_TIMEOUT_MILLIS = 30_000;
    /** A run stops after this many differing sequences, each reported in one line. */
    private static final int MAX_REPORTED = 20;
    /** The multi-node run: fewer sequences, since each write waits for its copy on another node. */
    private static final int CLUSTER_SEQUENCES = Math.max(1, SEQUENCES / 10);

    /** One node serving every slot. */
    private static EmbeddedCluster single;

    @BeforeAll
    static void start() {
        single = EmbeddedCluster.builder().nodes(1).replicationFactor(1).layout(PartitionLayout.of(64, 8)).resp(true)
                .build().start();
    }

    @AfterAll
    static void stop() {
        if (single != null) {
            single.close();
        }
    }

    /** The sequences on one node serving every slot and on Redis. */
    @Test
    void seededSequencesAnswerAsRedisOnOneNode() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        compare(single.respSeeds().get(0), SEQUENCES, "seededSequencesAnswerAsRedisOnOneNode");
    }

    /**
     * A push pipelined behind a blocking pop on the same connection runs only after the pop is answered, as in Redis:
     * the pop times out and the push's element stays (found by the sequences: Zaris let the push serve the pop).
     */
    @Test
    void aPipelinedPushDoesNotServeThePopSentBeforeIt() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        List<String> commands = List.of("BLPOP {t}q 0.2", "RPUSH {t}q a", "BLMOVE {t}q {t}q LEFT RIGHT 0.2",
                "BRPOP {t}p {t}q 0.2", "BLPOP {t}p 0.1", "LPUSH {t}p b", "LLEN {t}p", "DEL {t}p {t}q");
        List<String> expected;
        try (RedisServer redis = RedisServer.start()) {
            expected = replies(redis.address(), commands);
        }
        assertThat(replies(single.respSeeds().get(0), commands)).isEqualTo(expected)
                .containsExactly("nil-array", ":1", "\"a\"", "[\"{t}q\", \"a\"]", "nil-array", ":1", ":1", ":1");
    }

    /**
     * The differences the sequences found, kept as one fixed sequence compared with Redis: integer arguments read as
     * string2ll reads them, SET's option order and repeated units, SET replacing other types under NX/XX/KEEPTTL,
     * GETEX and the scans looking the key up before judging their arguments, expiries past the 64-bit clock, and
     * HINCRBYFLOAT's long double arithmetic.
     */
    @Test
    void whatTheSequencesFoundAnswersAsRedis() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        List<String> commands = List.of("SET {t}f1 v", "PEXPIRE {t}f1 0000", "EXPIRE {t}f1 +1", "INCRBY {t}f1 01", "EXPIRE {t}f1 -0",
                "SET {t}f1 v EX x EX 5", "TTL {t}f1", "SET {t}f1 v PX x EX 5", "SET {t}f1 v EX EX 5", "SET {t}f1 v KEEPTTL PX -1",
                "HSET {t}f2 a 1", "SET {t}f2 v XX", "TYPE {t}f2", "HSET {t}f3 a 1", "EXPIRE {t}f3 100", "SET {t}f3 v KEEPTTL",
                "TTL {t}f3", "GET {t}f3", "SADD {t}f4 m", "SET {t}f4 v NX", "TYPE {t}f4",
                "GETEX {t}none PX x", "GETEX {t}none EX -1", "GETEX {t}f4 PX x", "GETEX {t}f1 PX x",
                "HSCAN {t}none 0 COUNT x", "SSCAN {t}none 0 MATCH", "ZSCAN {t}none 0 COUNT 0", "HSCAN {t}f4 0 COUNT x",
                "PSETEX {t}f5 9223372036854775807 v", "SETEX {t}f5 9223372036854775 v", "PEXPIRE {t}f1 9223372036854775807",
                "HINCRBYFLOAT {t}f6 a 0.1", "HINCRBYFLOAT {t}f6 a 0.2", "HINCRBYFLOAT {t}f6 b 1e308", "HINCRBYFLOAT {t}f6 c 1e400",
                "HINCRBYFLOAT {t}f6 c inf", "HINCRBYFLOAT {t}f4 c -inf", "HINCRBYFLOAT {t}f6 d 9223372036854775807",
                "HINCRBYFLOAT {t}f6 d 0.5", "HGETALL {t}f6",
                "DEL {t}f1 {t}f2 {t}f3 {t}f4 {t}f5 {t}f6");
        List<String> expected;
        try (RedisServer redis = RedisServer.start()) {
            expected = replies(redis.address(), commands);
        }
        List<String> actual = replies(single.respSeeds().get(0), commands);
        for (int i = 0; i < commands.size(); i++) {
            assertThat(actual.get(i)).as("reply to %s", commands.get(i)).isEqualTo(expected.get(i));
        }
    }

    /**
     * SET with NX, XX, KEEPTTL and GET, GETSET, PERSIST and EXPIRE with NX, XX, GT and LT on a key of every type, each one
     * step on the key's owner: the condition judged on the key as it is (a collection's expiry, its existence, its type
     * for GET), the write in the same step.
     */
    @Test
    void conditionalSetAndExpiryOnEveryTypeAnswerAsRedis() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        List<String> commands = new ArrayList<>();
        for (String make : List.of("HSET {t}k f v", "RPUSH {t}k a b", "SADD {t}k m", "ZADD {t}k 1 m", "SET {t}k v")) {
            commands.addAll(List.of(make, "EXPIRE {t}k 100 XX", "EXPIRE {t}k 100 GT", "PERSIST {t}k", "TTL {t}k",
                    "EXPIRE {t}k 100 NX", "TTL {t}k", "EXPIRE {t}k 200 NX", "EXPIRE {t}k 50 GT", "EXPIRE {t}k 200 GT",
                    "PEXPIRE {t}k 300000 LT", "EXPIRE {t}k 100 XX LT", "PTTL {t}k", "TYPE {t}k", "PERSIST {t}k",
                    "PERSIST {t}k", "TTL {t}k", "EXPIRE {t}k 100 NX XX", "EXPIRE {t}k 100 GT LT", "EXPIRE {t}k 10 LT",
                    "SET {t}k w NX", "SET {t}k w NX GET", "TYPE {t}k", "SET {t}k w KEEPTTL", "TTL {t}k", "TYPE {t}k",
                    "GET {t}k", "DEL {t}k"));
        }
        for (String make : List.of("HSET {t}k f v", "RPUSH {t}k a b", "SADD {t}k m", "ZADD {t}k 1 m")) {
            commands.addAll(List.of(make, "SET {t}k w GET", "GETSET {t}k w", "TYPE {t}k", "SET {t}k w XX GET",
                    "EXPIRE {t}k 100", "SET {t}k w XX KEEPTTL", "TTL {t}k", "GET {t}k", "DEL {t}k", make,
                    "EXPIRE {t}k 0 LT", "EXISTS {t}k", make, "PEXPIRE {t}k -5 XX", "EXPIRE {t}k 100", "EXPIRE {t}k -1 GT",
                    "EXISTS {t}k", "EXPIRE {t}k -1 LT", "EXISTS {t}k"));
        }
        commands.addAll(List.of("SET {t}k v GET", "SET {t}k w XX GET", "GETSET {t}k x", "SET {t}k y NX GET",
                "EXPIRE {t}none 100 LT", "PERSIST {t}none", "SET {t}none v XX", "SET {t}none v XX KEEPTTL GET",
                "EXISTS {t}none", "DEL {t}k"));
        List<String> expected;
        try (RedisServer redis = RedisServer.start()) {
            expected = replies(redis.address(), commands);
        }
        List<String> actual = replies(single.respSeeds().get(0), commands);
        for (int i = 0; i < commands.size(); i++) {
            assertThat(actual.get(i)).as("reply %d, to %s", i, commands.get(i)).isEqualTo(expected.get(i));
        }
    }

    /**
     * The several-key commands on keys with content, which random sequences reach only now and then: weights (0 times
     * inf, negative), every aggregate, +inf plus −inf, three sources added in Redis's order (smallest first), sets
     * counting score 1, a STORE over a key of another type and over one with a TTL, an empty result removing the
     * destination, SMOVE between sets and onto itself, and LMPOP/ZMPOP taking from the first non-empty key.
     */
    @Test
    void severalKeyCommandsOnKeysWithContentAnswerAsRedis() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        List<String> commands = List.of("ZADD {t}a 1 x 2 y 3 z inf i -inf j 0 o", "ZADD {t}b 10 y 0.1 z -inf i inf j 5 w",
                "ZADD {t}c 0.2 z 7 y", "SADD {t}s y w q", "SET {t}str v",
                "ZUNION 2 {t}a {t}b WITHSCORES", "ZUNION 3 {t}a {t}b {t}s WITHSCORES AGGREGATE MAX",
                "ZINTER 2 {t}a {t}b WITHSCORES", "ZINTER 3 {t}c {t}a {t}b WITHSCORES", "ZINTER 2 {t}a {t}b WEIGHTS 0 2 WITHSCORES",
                "ZUNION 2 {t}a {t}b WEIGHTS -1 0 WITHSCORES", "ZUNION 2 {t}a {t}b AGGREGATE MIN WITHSCORES WEIGHTS 2 0.5",
                "ZUNION 2 {t}a {t}s WITHSCORES", "ZINTER 2 {t}s {t}b WITHSCORES", "ZDIFF 2 {t}a {t}b WITHSCORES",
                "ZDIFF 3 {t}b {t}a {t}s", "ZDIFF 1 {t}a WEIGHTS 1", "ZINTERCARD 2 {t}a {t}b", "ZINTERCARD 3 {t}a {t}b {t}c LIMIT 1",
                "ZINTERCARD 2 {t}a {t}str LIMIT x", "ZUNION 2 {t}a {t}str WEIGHTS x 1", "ZUNION 2 {t}a {t}none WEIGHTS x 1",
                "ZUNIONSTORE {t}str 2 {t}a {t}b WEIGHTS 1 2", "TYPE {t}str", "ZRANGE {t}str 0 -1 WITHSCORES",
                "EXPIRE {t}c 100", "ZINTERSTORE {t}c 2 {t}c {t}a", "TTL {t}c", "ZRANGE {t}c 0 -1 WITHSCORES",
                "ZDIFFSTORE {t}c 2 {t}a {t}a", "EXISTS {t}c", "ZUNIONSTORE {t}d 1 {t}s", "ZRANGE {t}d 0 -1 WITHSCORES",
                "SMOVE {t}s {t}s2 y", "SMOVE {t}s {t}s2 nope", "SMOVE {t}s {t}s w", "SMOVE {t}s {t}str w", "SMOVE {t}none {t}str w",
                "SMEMBERS {t}s2", "SMOVE {t}s {t}s2 w", "SMOVE {t}s {t}s2 q", "EXISTS {t}s",
                "RPUSH {t}l2 a b c d", "LMPOP 3 {t}none {t}l1 {t}l2 RIGHT COUNT 3", "LMPOP 2 {t}none {t}l2 LEFT COUNT 5",
                "LMPOP 2 {t}l2 {t}str LEFT", "LMPOP 2 {t}str {t}l2 LEFT", "ZMPOP 2 {t}none {t}b MAX COUNT 2",
                "ZMPOP 1 {t}b MIN COUNT 100", "EXISTS {t}b", "ZMPOP 1 {t}str MIN", "BZPOPMIN {t}none {t}a 0.01",
                "BZPOPMAX {t}a 0.01", "BZMPOP 0.01 2 {t}none {t}a MIN COUNT 2", "BLMPOP 0.01 1 {t}none LEFT",
                "HSET {t}h f 1 g 2", "HRANDFIELD {t}h 100 WITHVALUES", "HRANDFIELD {t}h 0", "HRANDFIELD {t}str 0",
                "HRANDFIELD {t}none", "HRANDFIELD {t}none 5", "ZRANDMEMBER {t}a 100 WITHSCORES", "ZRANDMEMBER {t}none",
                "ZRANDMEMBER {t}a -5 WITHSCORES x",
                // 1e16 + 1 + 1 is 1e16, 1 + 1 + 1e16 is 1e16 + 2: Redis adds from the smallest input to the largest
                "ZADD {t}k1 1e16 m 5 p 6 q", "ZADD {t}k2 1 m", "ZADD {t}k3 1 m 7 r", "ZUNION 3 {t}k1 {t}k2 {t}k3 WITHSCORES",
                "ZINTER 3 {t}k1 {t}k2 {t}k3 WITHSCORES",
                "DEL {t}a {t}b {t}c {t}d {t}s {t}s2 {t}str {t}l2 {t}h {t}k1 {t}k2 {t}k3");
        List<String> expected;
        try (RedisServer redis = RedisServer.start()) {
            expected = replies(redis.address(), commands);
        }
        List<String> actual = replies(single.respSeeds().get(0), commands);
        for (int i = 0; i < commands.size(); i++) {
            assertThat(actual.get(i)).as("reply to %s", commands.get(i)).isEqualTo(expected.get(i));
        }
    }

    /**
     * Three nodes keeping two copies: the sequences go to the node that owns the tag's slot, so each write also
     * replicates (SYNC acknowledgement) before its reply.
     */
    @Test
    void seededSequencesAnswerAsRedisOnThreeNodes() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).resp(true).build().start()) {
            compare(owner(cluster), CLUSTER_SEQUENCES, "seededSequencesAnswerAsRedisOnThreeNodes");
        }
    }

    private static void compare(NodeAddress zaris, int sequences, String method) throws Exception {
        int first = ONLY == null ? 0 : ONLY;
        int last = ONLY == null ? sequences - 1 : ONLY;
        List<String> reset = List.of("DEL " + String.join(" ", CommandSequences.KEYS));
        List<String> differences = new ArrayList<>();
        try (RedisServer redis = RedisServer.start()) {
            for (int sequence = first; sequence <= last; sequence++) {
                List<String> commands = new ArrayList<>(new CommandSequences(CommandSequences.seedOf(SEED, sequence)).next(LENGTH));
                commands.addAll(reset); // the next sequence starts from nothing on both
                List<String> expected = replies(redis.address(), commands);
                List<String> actual = replies(zaris, commands);
                if (PRINT) {
                    for (int i = 0; i < commands.size(); i++) {
                        System.out.printf("%s%n  redis: %s%n  zaris: %s%n", commands.get(i), expected.get(i), actual.get(i));
                    }
                }
                assertThat(expected).as("Redis answered every command of sequence %d", sequence).doesNotContainNull();
                String difference = firstDifference(commands, expected, actual, sequence, method);
                if (difference != null) {
                    System.out.println(difference);
                    differences.add(difference);
                    if (differences.size() == MAX_REPORTED) {
                        break;
                    }
                }
            }
        }
        if (!differences.isEmpty()) {
            fail("%d sequence(s) differ (one line each above); the first: %s", differences.size(), differences.get(0));
        }
    }

    /** One line naming the first differing reply of a sequence and the command that replays it; null when none differs. */
    private static String firstDifference(List<String> commands, List<String> expected, List<String> actual, int sequence,
                                          String method) {
        for (int i = 0; i < commands.size(); i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                return String.format("sequence %d of seed %d, command %d `%s`: redis %s, zaris %s; replay: mvn -o -pl"
                                + " zaris-engine verify -Dit.test=RespDifferentialIntegrationTests#%s -Dzaris.diff.seed=%d"
                                + " -Dzaris.diff.sequence=%d -Dzaris.diff.print=true",
                        sequence, SEED, i, commands.get(i), expected.get(i), actual.get(i), method, SEED, sequence);
            }
        }
        return null;
    }

    /**
     * Every reply to {@code commands}, pipelined on one connection. The sending side stays open until the replies are
     * read: Redis drops a client whose input ends while a blocking pop waits.
     */
    private static List<String> replies(NodeAddress address, List<String> commands) throws IOException {
        try (Socket socket = new Socket(address.host(), address.port())) {
            socket.setSoTimeout(REPLY_TIMEOUT_MILLIS);
            socket.getOutputStream().write((String.join("\r\n", commands) + "\r\n").getBytes(StandardCharsets.UTF_8));
            return DifferentialReplies.read(new BufferedInputStream(socket.getInputStream()), commands);
        }
    }

    /** The node whose RESP port serves the slot of the tag {@code {t}}: the one that does not redirect. */
    private static NodeAddress owner(EmbeddedCluster cluster) throws IOException {
        for (NodeAddress seed : cluster.respSeeds()) {
            String reply = RedisCli.exchangeLines(seed, "GET {t}s0\n");
            if (!reply.startsWith("-MOVED")) {
                return seed;
            }
        }
        throw new AssertionError("no node serves the slot of {t}: " + cluster.respSeeds());
    }
}
