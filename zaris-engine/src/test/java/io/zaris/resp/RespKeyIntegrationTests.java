package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.zaris.model.NodeAddress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * RENAME, RENAMENX, DUMP and RESTORE on the RESP port of a one-node cluster serving every slot: hand-written
 * expectations where Redis Cluster differs from a lone Redis (CROSSSLOT), and otherwise the same commands sent to a
 * real {@code redis-server} (started by the test when it is installed) with every reply compared. DUMP payloads
 * differ by design (each server reads only its own), so the round trip compares what each server reads back after
 * restoring its own payloads.
 */
@Tag("in-process-cluster")
class RespKeyIntegrationTests {

    private static final Set<String> UNORDERED = Set.of("SMEMBERS");

    /** Every type renamed, TTLs kept, Redis's errors, and RESTORE's refusals in Redis's order of checks. */
    private static final String SEQUENCE = """
            SET {r}s v
            EXPIRE {r}s 100
            RENAME {r}s {r}s2
            GET {r}s
            GET {r}s2
            TTL {r}s2
            RENAME {r}nope {r}x
            RENAMENX {r}nope {r}x
            RENAME {r}s2 {r}s2
            RENAMENX {r}s2 {r}s2
            HSET {r}h a 1 b 2
            RENAME {r}h {r}s2
            TYPE {r}s2
            HGETALL {r}s2
            TTL {r}s2
            EXISTS {r}h
            RPUSH {r}l x y z x
            SADD {r}set m n o
            ZADD {r}z 1 a 2.5 b -3 c
            RENAMENX {r}l {r}set
            LRANGE {r}l 0 -1
            RENAMENX {r}l {r}l2
            LRANGE {r}l2 0 -1
            EXISTS {r}l
            RENAME {r}set {r}set2
            SMEMBERS {r}set2
            TYPE {r}set
            EXPIRE {r}z 200
            SET {r}plain v
            RENAME {r}z {r}plain
            TTL {r}plain
            TYPE {r}plain
            ZRANGE {r}plain 0 -1 WITHSCORES
            RENAME {r}s2
            RENAME {r}a {r}b {r}c
            RENAMENX {r}a
            DUMP {r}nope
            DUMP
            RESTORE {r}plain 0 garbage
            RESTORE {r}plain -1 garbage
            RESTORE {r}new 0 garbage
            RESTORE {r}new 0 0123456789abcdefghij
            RESTORE {r}new -1 garbage
            RESTORE {r}new x garbage
            RESTORE {r}new 0 garbage BOGUS
            RESTORE {r}new 0 garbage IDLETIME -1
            RESTORE {r}new 0 garbage IDLETIME x
            RESTORE {r}new 0 garbage IDLETIME
            RESTORE {r}new 0 garbage FREQ 256
            RESTORE {r}new 0 garbage FREQ -1
            RESTORE {r}new 0 garbage IDLETIME 1 FREQ 2
            RESTORE {r}new 0 garbage FREQ 2 IDLETIME 1
            RESTORE {r}plain 0 garbage REPLACE
            RESTORE {r}new 0
            EXISTS {r}new
            """;

    @RegisterExtension
    static final SingleRespNode NODE = new SingleRespNode();

    @Test
    void renameAnswersAsRedisDoes() throws IOException {
        NODE.assertReplies("""
                SET {a}k v
                RENAME {a}k {a}k2
                GET {a}k2
                RENAME {a}k {a}k3
                SET {a}k v
                RENAMENX {a}k {a}k2
                RENAMENX {a}k {a}k3
                RENAME a b
                RENAMENX a b
                """, """
                +OK
                +OK
                $1
                v
                -ERR no such key
                +OK
                :0
                :1
                -CROSSSLOT Keys in request don't hash to the same slot
                -CROSSSLOT Keys in request don't hash to the same slot
                """);
    }

    /** The same sequence on a real Redis and on Zaris: every reply alike. */
    @Test
    void everyReplyMatchesARealRedis() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        RedisServer.assertSameReplies(NODE.address(), SEQUENCE.lines().toList(), UNORDERED);
    }

    /** What each server reads back of the keys it restored from its own DUMPs; the same on both. */
    private static final List<String> READ_BACK = List.of(
            "GET {d}s2", "TTL {d}s2", "HGETALL {d}h2", "LRANGE {d}l2 0 -1", "SMEMBERS {d}set2", "ZRANGE {d}z2 0 -1 WITHSCORES",
            "TYPE {d}s3", "HGETALL {d}h", "TYPE {d}gone", "TTL {d}h2", "TTL {d}z2", "TYPE {d}h");

    @Test
    void dumpAndRestoreRoundTripEveryTypeAsOnRedis() throws Exception {
        List<String> ours = roundTrip(NODE.address());
        assertThat(ours.subList(0, 6)).containsExactly("\"text\"", ":-1", "[\"f\", \"1\", \"g\", \"\"]",
                "[\"x\", \"y\", \"x\"]", "[\"m\", \"n\"]", "[\"a\", \"-1\", \"b\", \"2.5\"]");
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        List<String> redis;
        try (RedisServer server = RedisServer.start()) {
            redis = roundTrip(server.address());
        }
        for (int i = 0; i < READ_BACK.size(); i++) {
            assertThat(ours.get(i)).as("reply to %s", READ_BACK.get(i)).isEqualTo(redis.get(i));
        }
    }

    /**
     * On the server at {@code address}: one key of each type, DUMPed; each payload RESTOREd under a new key (the hash
     * with a TTL, the sorted set with an absolute one, the string's payload once more onto an existing key with
     * REPLACE, once with an absolute TTL already past); then {@link #READ_BACK}. Every RESTORE must answer OK except the
     * one without REPLACE onto an existing key, which must answer BUSYKEY.
     */
    private static List<String> roundTrip(NodeAddress address) throws IOException {
        List<String> dumps = RedisServer.replies(address, List.of(
                "SET {d}s text", "HSET {d}h f 1 g \"\"", "RPUSH {d}l x y x", "SADD {d}set m n", "ZADD {d}z -1 a 2.5 b",
                "DUMP {d}s", "DUMP {d}h", "DUMP {d}l", "DUMP {d}set", "DUMP {d}z"), Set.of());
        List<byte[]> payloads = new ArrayList<>();
        for (String dump : dumps.subList(5, 10)) {
            assertThat(dump).startsWith("\"");
            payloads.add(dump.substring(1, dump.length() - 1).getBytes(StandardCharsets.ISO_8859_1));
        }
        long future = System.currentTimeMillis() + 3_600_000;
        StringBuilder restores = new StringBuilder();
        restores.append(command("RESTORE", "{d}s2", "0", payloads.get(0)))
                .append(command("RESTORE", "{d}h2", "100000", payloads.get(1)))
                .append(command("RESTORE", "{d}l2", "0", payloads.get(2)))
                .append(command("RESTORE", "{d}set2", "0", payloads.get(3)))
                .append(command("RESTORE", "{d}z2", Long.toString(future), payloads.get(4), "ABSTTL", "IDLETIME", "5"))
                .append(command("RESTORE", "{d}s3", "0", payloads.get(1), "FREQ", "3"))
                .append(command("RESTORE", "{d}h", "0", payloads.get(0)))
                .append(command("RESTORE", "{d}gone", "1", payloads.get(0), "ABSTTL"))
                .append(command("RESTORE", "{d}h", "0", payloads.get(0), "REPLACE"));
        RespReplyReader restored = new RespReplyReader(RedisCli.exchange(address, restores + "QUIT\r\n"));
        List<String> answers = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            answers.add(restored.next(false));
        }
        assertThat(answers).as("RESTORE answers").containsExactly("+OK", "+OK", "+OK", "+OK", "+OK", "+OK",
                "-BUSYKEY Target key name already exists.", "+OK", "+OK");
        List<String> read = new ArrayList<>(RedisServer.replies(address, READ_BACK, UNORDERED));
        // TTLs are checked by range, then replaced by what both servers must answer alike.
        assertThat(Long.parseLong(read.get(9).substring(1))).isBetween(90L, 100L);
        assertThat(Long.parseLong(read.get(10).substring(1))).isBetween(3_500L, 3_600L);
        read.set(9, "ttl-ok");
        read.set(10, "ttl-ok");
        return read;
    }

    /** One RESP array command, its arguments as bytes (ISO-8859-1 maps each byte to one char and back). */
    private static String command(Object... args) {
        StringBuilder out = new StringBuilder("*").append(args.length).append("\r\n");
        for (Object arg : args) {
            String text = arg instanceof byte[] bytes ? new String(bytes, StandardCharsets.ISO_8859_1) : (String) arg;
            out.append('$').append(text.length()).append("\r\n").append(text).append("\r\n");
        }
        return out.toString();
    }
}
