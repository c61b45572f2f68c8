package io.zaris.resp;

import static io.zaris.resp.RedisCli.WRONGTYPE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.zaris.model.NodeAddress;
import java.io.IOException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The hash commands on the RESP port, byte for byte: each expected reply is the one Redis 7 gives to the same
 * command (replies, integer results, nils, empty arrays and the wording of every error), on a one-node cluster
 * that serves every slot. Keys share the hash tag {@code {t}} so multi-key commands stay in one slot.
 */
@Tag("in-process-cluster")
class RespHashIntegrationTests {

    @RegisterExtension
    static final SingleRespNode NODE = new SingleRespNode();

    @Test
    void setReadAndRemoveFields() throws IOException {
        NODE.assertReplies("""
                HSET {t}h f1 v1 f2 v2
                HSET {t}h f1 x
                HGET {t}h f1
                HGET {t}h nope
                HMGET {t}h f1 nope f2
                HLEN {t}h
                HEXISTS {t}h f1
                HEXISTS {t}h nope
                HSTRLEN {t}h f2
                HSTRLEN {t}h nope
                HSETNX {t}h f1 y
                HSETNX {t}h f3 y
                HGETALL {t}h
                HKEYS {t}h
                HVALS {t}h
                HDEL {t}h f1 nope
                HDEL {t}h f2 f3
                TYPE {t}h
                HGETALL {t}h
                HLEN {t}h
                HGET {t}h f1
                HMSET {t}h a 1 b 2
                HGETALL {t}h
                """, """
                :2
                :0
                $1
                x
                $-1
                *3
                $1
                x
                $-1
                $2
                v2
                :2
                :1
                :0
                :2
                :0
                :0
                :1
                *6
                $2
                f1
                $1
                x
                $2
                f2
                $2
                v2
                $2
                f3
                $1
                y
                *3
                $2
                f1
                $2
                f2
                $2
                f3
                *3
                $1
                x
                $2
                v2
                $1
                y
                :1
                :2
                +none
                *0
                :0
                $-1
                +OK
                *4
                $1
                a
                $1
                1
                $1
                b
                $1
                2
                """);
    }

    @Test
    void incrementsAndTheirErrors() throws IOException {
        NODE.assertReplies("""
                HINCRBY {t}n c 5
                HINCRBY {t}n c -7
                HSET {t}n s abc
                HINCRBY {t}n s 1
                HINCRBY {t}n c x
                HSET {t}n max 9223372036854775807
                HINCRBY {t}n max 1
                HINCRBYFLOAT {t}n f 10.50
                HINCRBYFLOAT {t}n f 0.1
                HINCRBYFLOAT {t}n g 5.0e3
                HINCRBYFLOAT {t}n s 1
                HINCRBYFLOAT {t}n f abc
                HGET {t}n c
                """, """
                :5
                :-2
                :1
                -ERR hash value is not an integer
                -ERR value is not an integer or out of range
                :1
                -ERR increment or decrement would overflow
                $4
                10.5
                $4
                10.6
                $4
                5000
                -ERR hash value is not a float
                -ERR value is not a valid float
                $2
                -2
                """);
    }

    @Test
    void typesMeetAsRedisHasThem() throws IOException {
        NODE.assertReplies("""
                SET {t}s v
                HSET {t}w f v
                HGET {t}s f
                HSET {t}s f v
                GET {t}w
                INCR {t}w
                APPEND {t}w x
                TYPE {t}s
                TYPE {t}w
                TYPE {t}nothing
                EXISTS {t}s {t}w {t}nothing
                MGET {t}s {t}w
                SET {t}w now-a-string
                GET {t}w
                HSET {t}d f v
                DEL {t}d {t}s
                EXISTS {t}d {t}s
                HSET {t}f a 1
                HSET {t}f a
                """, """
                +OK
                :1
                """ + WRONGTYPE + WRONGTYPE + WRONGTYPE + WRONGTYPE + WRONGTYPE + """
                +string
                +hash
                +none
                :2
                *2
                $1
                v
                $-1
                +OK
                $12
                now-a-string
                :1
                :2
                :0
                :1
                -ERR wrong number of arguments for 'hset' command
                """);
    }

    @Test
    void aHashExpiresWhole() throws IOException {
        NODE.assertReplies("""
                HSET {t}e a 1 b 2
                TTL {t}e
                EXPIRE {t}e 100
                EXPIRE {t}e 50 GT
                EXPIRE {t}e 200 GT
                TTL {t}e
                HSET {t}e c 3
                TTL {t}e
                PERSIST {t}e
                PERSIST {t}e
                TTL {t}e
                PEXPIRE {t}e 1
                """, """
                :2
                :-1
                :1
                :0
                :1
                :200
                :1
                :200
                :1
                :0
                :-1
                :1
                """);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() ->
                NODE.assertReplies("HGETALL {t}e\nTTL {t}e\nTYPE {t}e\n", "*0\n:-2\n+none\n"));
    }

    @Test
    void scanTypeFindsHashesAndStrings() throws IOException {
        NODE.assertReplies("""
                HSET {t}scan:h f v
                SET {t}scan:s v
                """, """
                :1
                +OK
                """);
        NodeAddress address = NODE.address();
        String hashes = RedisCli.exchangeLines(address, "SCAN 0 COUNT 100000 MATCH {t}scan:* TYPE hash\n");
        assertThat(hashes).contains("{t}scan:h").doesNotContain("{t}scan:s");
        String strings = RedisCli.exchangeLines(address, "SCAN 0 COUNT 100000 MATCH {t}scan:* TYPE string\n");
        assertThat(strings).contains("{t}scan:s").doesNotContain("{t}scan:h");
    }

    @Test
    void hscanAnswersEveryMatchingFieldInOneCall() throws IOException {
        NODE.assertReplies("""
                HSET {t}sc a 1 b 2 c 3
                HSCAN {t}sc 0
                HSCAN {t}sc 0 MATCH a* COUNT 10
                HSCAN {t}sc 0 NOVALUES
                HSCAN {t}sc x
                HSCAN {t}sc 0 COUNT 0
                HSCAN {t}nothing 0
                SET {t}sc-string v
                HSCAN {t}sc-string 0
                """, """
                :3
                *2
                $1
                0
                *6
                $1
                a
                $1
                1
                $1
                b
                $1
                2
                $1
                c
                $1
                3
                *2
                $1
                0
                *2
                $1
                a
                $1
                1
                *2
                $1
                0
                *3
                $1
                a
                $1
                b
                $1
                c
                -ERR invalid cursor
                -ERR syntax error
                *2
                $1
                0
                *0
                +OK
                """ + WRONGTYPE);
    }

    /** redis-cli, which speaks RESP arrays (not inline commands) and prints replies its own way. */
    @Test
    void redisCliSeesHashesAsRedisShowsThem() throws Exception {
        assumeThat(RedisCli.installed()).as(RedisCli.MISSING).isTrue();
        NodeAddress address = NODE.address();
        assertThat(RedisCli.at(address, "HSET", "{t}cli", "name", "zaris", "kind", "cache")).isEqualTo("2");
        assertThat(RedisCli.at(address, "HGETALL", "{t}cli")).isEqualTo("name\nzaris\nkind\ncache");
        assertThat(RedisCli.at(address, "HINCRBYFLOAT", "{t}cli", "score", "2.5")).isEqualTo("2.5");
        assertThat(RedisCli.at(address, "TYPE", "{t}cli")).isEqualTo("hash");
        assertThat(RedisCli.at(address, "GET", "{t}cli"))
                .isEqualTo("WRONGTYPE Operation against a key holding the wrong kind of value");
        assertThat(RedisCli.at(address, "DEL", "{t}cli")).isEqualTo("1");
        assertThat(RedisCli.at(address, "HGETALL", "{t}cli")).isEmpty();
    }
}
