package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.zaris.model.NodeAddress;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sorted-set commands on the RESP port: hand-written expectations on a one-node cluster serving every slot, and
 * the same command sequence sent to a real {@code redis-server} (started by the test when it is installed) with every
 * reply compared, errors and empty results included. Keys share the hash tag {@code {t}}.
 */
@Tag("in-process-cluster")
class RespSortedSetIntegrationTests {

    /**
     * Every sorted-set command with its edge cases: each ZADD option and their conflicts, scores Redis prints in
     * its own way (0.1, 1e20, -0, inf), exclusive and infinite bounds, LIMIT, REV, lex ranges, pops, missing keys,
     * other types, bad numbers and option errors in Redis's order.
     */
    private static final String SEQUENCE = """
            ZADD {t}hex 0x10 a 0x1.8p1 b -0x.8 c 0x1e d
            ZADD {t}hex 0x 1 0x1p2000 e
            ZRANGE {t}hex 0 -1 WITHSCORES
            ZRANGEBYSCORE {t}hex 0x3 (0x1e
            ZRANGEBYSCORE {t}hex 0x +inf
            ZINCRBY {t}hex 0x1p1 a
            ZADD {t}z 1 a 2 b 3 c
            ZADD {t}z 2 b 4 d
            ZADD {t}z CH 5 a 2 b 0.1 e
            ZRANGE {t}z 0 -1 WITHSCORES
            ZADD {t}z NX 9 a 6 f
            ZADD {t}z XX CH 7 a 8 nope
            ZADD {t}z GT CH 1 a 10 b
            ZADD {t}z LT CH 1 a 10 c
            ZADD {t}z XX GT CH 0 a 20 b
            ZADD {t}z INCR 2.5 a
            ZADD {t}z NX INCR 1 a
            ZADD {t}z XX INCR 1 nope
            ZADD {t}z GT INCR -1 a
            ZADD {t}z LT INCR -1 a
            ZADD {t}z NX XX 1 a
            ZADD {t}z NX GT 1 a
            ZADD {t}z GT LT 1 a
            ZADD {t}z INCR 1 a 2 b
            ZADD {t}z 1
            ZADD {t}z 1 a 2
            ZADD {t}z NX
            ZADD {t}z x a
            ZADD {t}z nan a
            ZADD {t}z 1e400 a
            ZADD {t}z "" a
            ZADD {t}z
            ZADD {t}none XX 1 a
            ZADD {t}none XX INCR 1 a
            EXISTS {t}none
            ZADD {t}s 1e20 big -0 negzero 0 zero +inf top -inf bottom 0.30000000000000004 third 1e-5 tiny 123456789.125 mid 1.5e-7 small
            ZRANGE {t}s 0 -1 WITHSCORES
            ZSCORE {t}s third
            ZSCORE {t}s negzero
            ZSCORE {t}s nope
            ZSCORE {t}none a
            ZMSCORE {t}s top nope bottom
            ZMSCORE {t}none a b
            ZMSCORE {t}s
            ZINCRBY {t}s 1 zero
            ZINCRBY {t}s 0.1 new
            ZINCRBY {t}s -inf top
            ZINCRBY {t}s x zero
            ZINCRBY {t}s 1
            ZADD {t}s INCR +inf top
            ZCARD {t}s
            ZCARD {t}none
            ZCOUNT {t}s -inf +inf
            ZCOUNT {t}s (0 (inf
            ZCOUNT {t}s 0 0
            ZCOUNT {t}s 5 1
            ZCOUNT {t}s x 1
            ZCOUNT {t}s ( (
            ZCOUNT {t}s "" ""
            ZCOUNT {t}none 0 1
            ZRANK {t}s zero
            ZRANK {t}s nope
            ZRANK {t}none a
            ZREVRANK {t}s zero
            ZREVRANK {t}s top
            ZRANGE {t}s 0 2
            ZRANGE {t}s -3 -1 WITHSCORES
            ZRANGE {t}s 5 2
            ZRANGE {t}s 100 200
            ZRANGE {t}s -100 0
            ZRANGE {t}s 0 1 REV WITHSCORES
            ZRANGE {t}s x 1
            ZRANGE {t}s 0 1 LIMIT 0 1
            ZRANGE {t}s 0 1 LIMIT 0 -1
            ZRANGE {t}s 0 1 BYLEX WITHSCORES
            ZRANGE {t}s 0 1 FOO
            ZRANGE {t}s 0 1 LIMIT 0
            ZRANGE {t}s 0 1 LIMIT x 1
            ZRANGE {t}s (0 +inf BYSCORE
            ZRANGE {t}s (0 +inf BYSCORE WITHSCORES LIMIT 1 2
            ZRANGE {t}s +inf (0 BYSCORE REV LIMIT 0 2 WITHSCORES
            ZRANGE {t}s 0 +inf BYSCORE LIMIT -1 2
            ZRANGE {t}s 0 +inf BYSCORE LIMIT 1 -5
            ZRANGE {t}s 0 +inf BYSCORE LIMIT 0 0
            ZRANGE {t}s 1 0 BYSCORE
            ZRANGE {t}s x 0 BYSCORE
            ZRANGE {t}s 0 1 BYSCORE BYSCORE
            ZRANGE {t}s 0 1 REV REV
            ZRANGE {t}none 0 -1
            ZRANGE {t}none x 1
            ZRANGEBYSCORE {t}s -inf 0 WITHSCORES
            ZRANGEBYSCORE {t}s (-inf (0
            ZRANGEBYSCORE {t}s 0 10 LIMIT 1 1
            ZRANGEBYSCORE {t}s 0 10 REV
            ZRANGEBYSCORE {t}s 0 10 BYSCORE
            ZREVRANGEBYSCORE {t}s +inf 1 WITHSCORES
            ZREVRANGEBYSCORE {t}s 1 +inf
            ZREVRANGEBYSCORE {t}s (1e20 (0 LIMIT 1 2
            ZREVRANGE {t}s 0 2 WITHSCORES
            ZREVRANGE {t}s 0 2 LIMIT 0 1
            ZREVRANGE {t}s 0 2 BYSCORE
            ZADD {t}l 0 a 0 b 0 c 0 d 0 e 0 ff
            ZRANGE {t}l - + BYLEX
            ZRANGE {t}l [b (d BYLEX
            ZRANGE {t}l (b + BYLEX LIMIT 1 2
            ZRANGE {t}l + - BYLEX REV
            ZRANGE {t}l [e [b BYLEX REV LIMIT 0 2
            ZRANGE {t}l b d BYLEX
            ZRANGE {t}l [f [g BYLEX
            ZRANGEBYLEX {t}l - [c
            ZREVRANGEBYLEX {t}l [c -
            ZRANGEBYLEX {t}l -- +
            ZLEXCOUNT {t}l - +
            ZLEXCOUNT {t}l (b [ff
            ZLEXCOUNT {t}l [z +
            ZLEXCOUNT {t}l a +
            ZLEXCOUNT {t}none - +
            ZREMRANGEBYLEX {t}l [e +
            ZRANGE {t}l 0 -1
            ZREMRANGEBYRANK {t}l 0 0
            ZREMRANGEBYRANK {t}l -1 -1
            ZREMRANGEBYRANK {t}l 5 10
            ZREMRANGEBYRANK {t}l x 1
            ZRANGE {t}l 0 -1
            ZADD {t}p 1 a 2 b 3 c 4 d 5 e
            ZREMRANGEBYSCORE {t}p (1 2
            ZREMRANGEBYSCORE {t}p 10 20
            ZREMRANGEBYSCORE {t}p x 1
            ZREMRANGEBYSCORE {t}none 0 1
            ZRANGE {t}p 0 -1 WITHSCORES
            ZPOPMIN {t}p
            ZPOPMAX {t}p
            ZPOPMIN {t}p 0
            ZPOPMIN {t}p -1
            ZPOPMIN {t}p x
            ZPOPMIN {t}p 1 2
            ZPOPMAX {t}p 10
            EXISTS {t}p
            ZPOPMIN {t}p
            ZPOPMIN {t}none 3
            ZADD {t}q 1 a 2 b
            ZREM {t}q a nope
            ZREM {t}q
            ZREM {t}none a
            ZREM {t}q b
            TYPE {t}q
            ZADD {t}r 3 c 1 a 2 b 2 bb
            ZSCAN {t}r 0
            ZSCAN {t}r 0 MATCH b* COUNT 100
            ZSCAN {t}r x
            ZSCAN {t}r 0 COUNT 0
            ZSCAN {t}r 0 MATCH
            ZSCAN {t}none 0
            SET {t}str v
            HSET {t}h f v
            SADD {t}set m
            ZADD {t}str 1 a
            ZADD {t}h 1 a
            ZADD {t}set 1 a
            ZADD {t}str x a
            ZRANGE {t}str 0 -1
            ZRANGE {t}str x 1
            ZRANGE {t}str 0 1 FOO
            ZSCORE {t}h f
            ZCARD {t}set
            ZCOUNT {t}str 0 1
            ZCOUNT {t}str x 1
            ZLEXCOUNT {t}str - +
            ZLEXCOUNT {t}str x +
            ZPOPMIN {t}str
            ZPOPMIN {t}str 0
            ZREM {t}h f
            ZRANK {t}set m
            ZSCAN {t}str 0
            HGET {t}r a
            SMEMBERS {t}r
            GET {t}r
            INCR {t}r
            TYPE {t}r
            EXISTS {t}r {t}s {t}none
            TTL {t}r
            EXPIRE {t}r 100
            TTL {t}r
            ZADD {t}r 9 z
            TTL {t}r
            PERSIST {t}r
            TTL {t}r
            DEL {t}r {t}s
            ZRANGE {t}r 0 -1
            ZADD {t}large 1 m1 2 m2 3 m3 4 m4 5 m5 6 m6 7 m7 8 m8 9 m9 10 m10 11 m11 12 m12 13 m13 14 m14 15 m15 16 m16 17 m17 18 m18 19 m19 20 m20 21 m21 22 m22 23 m23 24 m24 25 m25 26 m26 27 m27 28 m28 29 m29 30 m30 31 m31 32 m32 33 m33 34 m34 35 m35 36 m36 37 m37 38 m38 39 m39 40 m40 41 m41 42 m42 43 m43 44 m44 45 m45 46 m46 47 m47 48 m48 49 m49 50 m50 51 m51 52 m52 53 m53 54 m54 55 m55 56 m56 57 m57 58 m58 59 m59 60 m60 61 m61 62 m62 63 m63 64 m64 65 m65 66 m66 67 m67 68 m68 69 m69 70 m70 71 m71 72 m72 73 m73 74 m74 75 m75 76 m76 77 m77 78 m78 79 m79 80 m80 81 m81 82 m82 83 m83 84 m84 85 m85 86 m86 87 m87 88 m88 89 m89 90 m90 91 m91 92 m92 93 m93 94 m94 95 m95 96 m96 97 m97 98 m98 99 m99 100 m100 101 m101 102 m102 103 m103 104 m104 105 m105 106 m106 107 m107 108 m108 109 m109 110 m110 111 m111 112 m112 113 m113 114 m114 115 m115 116 m116 117 m117 118 m118 119 m119 120 m120 121 m121 122 m122 123 m123 124 m124 125 m125 126 m126 127 m127 128 m128 129 m129 130 m130
            ZCARD {t}large
            ZRANK {t}large m100
            ZREVRANK {t}large m100
            ZRANGE {t}large 125 -1 WITHSCORES
            ZRANGEBYSCORE {t}large (127.5 +inf
            ZCOUNT {t}large 10 (20
            ZPOPMAX {t}large 2
            ZREMRANGEBYRANK {t}large 0 99
            ZCARD {t}large
            """;

    @RegisterExtension
    static final SingleRespNode NODE = new SingleRespNode();

    @Test
    void addScoreRangeAndRemoveMembers() throws IOException {
        NODE.assertReplies("""
                ZADD {t}a 2 two 1 one 3 three
                ZSCORE {t}a two
                ZRANGE {t}a 0 -1 WITHSCORES
                ZRANGEBYSCORE {t}a (1 +inf
                ZINCRBY {t}a 0.5 one
                ZRANK {t}a one WITHSCORE
                ZREM {t}a one two three
                TYPE {t}a
                ZADD {t}a
                """, """
                :3
                $1
                2
                *6
                $3
                one
                $1
                1
                $3
                two
                $1
                2
                $5
                three
                $1
                3
                *2
                $3
                two
                $5
                three
                $3
                1.5
                *2
                :0
                $3
                1.5
                :3
                +none
                -ERR wrong number of arguments for 'zadd' command
                """);
    }

    @Test
    void typesMeetAsRedisHasThem() throws IOException {
        NODE.assertReplies("""
                ZADD {t}k 1 m
                SET {t}kstr v
                ZADD {t}kstr 1 m
                GET {t}k
                SCAN 0 COUNT 100000 MATCH {t}k TYPE zset
                SCAN 0 COUNT 100000 MATCH {t}k TYPE set
                """, """
                :1
                +OK
                """ + RedisCli.WRONGTYPE + RedisCli.WRONGTYPE + """
                *2
                $1
                0
                *1
                $4
                {t}k
                *2
                $1
                0
                *0
                """);
    }

    @Test
    void aSortedSetExpiresWhole() throws IOException {
        RedisCli.assertExpiresWhole(NODE.address(), "{t}e", "ZADD {t}e 1 a 2 b", "ZRANGE {t}e 0 -1");
    }

    /** The same sequence on a real Redis and on Zaris: every reply alike, in order. */
    @Test
    void everyReplyMatchesARealRedis() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        RedisServer.assertSameReplies(NODE.address(), SEQUENCE.lines().toList(), Set.of());
    }

    /**
     * The same sequence after {@code HELLO 3} (whose server facts differ and are not compared): scores as RESP3
     * doubles, WITHSCORES as nested pairs, nulls as RESP3's, every reply alike.
     */
    @Test
    void everyResp3ReplyMatchesARealRedis() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        List<String> commands = new java.util.ArrayList<>();
        commands.add("HELLO 3");
        SEQUENCE.lines().map(line -> line.replace("{t}", "{t}3")).forEach(commands::add);
        List<String> redis;
        try (RedisServer server = RedisServer.start()) {
            redis = RedisServer.replies(server.address(), commands, Set.of());
        }
        List<String> zaris = RedisServer.replies(NODE.address(), commands, Set.of());
        assertThat(redis).as("Redis answered every command").hasSameSizeAs(commands).doesNotContainNull();
        for (int i = 1; i < commands.size(); i++) {
            assertThat(zaris.get(i)).as("reply to %s", commands.get(i)).isEqualTo(redis.get(i));
        }
    }

    /** redis-cli, which speaks RESP arrays (not inline commands) and prints replies its own way. */
    @Test
    void redisCliSeesSortedSetsAsRedisShowsThem() throws Exception {
        assumeThat(RedisCli.installed()).as(RedisCli.MISSING).isTrue();
        NodeAddress address = NODE.address();
        assertThat(RedisCli.at(address, "ZADD", "{t}cli", "10", "alice", "20", "bob")).isEqualTo("2");
        assertThat(RedisCli.at(address, "ZREVRANGE", "{t}cli", "0", "-1", "WITHSCORES")).isEqualTo("bob\n20\nalice\n10");
        assertThat(RedisCli.at(address, "TYPE", "{t}cli")).isEqualTo("zset");
        assertThat(RedisCli.at(address, "DEL", "{t}cli")).isEqualTo("1");
    }
}
