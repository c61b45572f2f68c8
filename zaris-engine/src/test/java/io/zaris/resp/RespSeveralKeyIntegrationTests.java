package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The several-key commands (SMOVE, the sorted-set algebra, LMPOP, ZMPOP, the blocking sorted-set pops) and the random
 * picks on one node serving every slot, against a real {@code redis-server} (started by the test when it is
 * installed) in RESP2 and, after {@code HELLO 3}, in RESP3, where scores are doubles, WITHSCORES and WITHVALUES nest
 * their pairs. A blocking pop is sent only where it pops at once (this exchange ends its input, and Redis drops a
 * client whose input ended while it waits). Random picks are asked only where chance has one answer (a single field,
 * a single member). CROSSSLOT, which a standalone Redis never answers, is pinned on its own.
 */
@Tag("in-process-cluster")
class RespSeveralKeyIntegrationTests {

    @RegisterExtension
    static final SingleRespNode NODE = new SingleRespNode();

    private static final List<String> SEQUENCE = List.of("ZADD {t}a 1 x 2 y 3 z", "ZADD {t}b 10 y 0.5 z 4 w",
            "SADD {t}s y q", "ZUNION 2 {t}a {t}b WITHSCORES", "ZINTER 3 {t}a {t}b {t}s WITHSCORES AGGREGATE MAX",
            "ZDIFF 2 {t}a {t}b WITHSCORES", "ZDIFF 2 {t}a {t}b", "ZUNIONSTORE {t}d 2 {t}a {t}b WEIGHTS 2 1",
            "ZRANGE {t}d 0 -1 WITHSCORES", "ZINTERCARD 2 {t}a {t}b LIMIT 1", "ZMPOP 2 {t}none {t}d MAX COUNT 2",
            "ZMPOP 1 {t}none MIN", "BZPOPMIN {t}none {t}d 0.01", "BZMPOP 0.01 1 {t}d MIN COUNT 5",
            "RPUSH {t}l a b c", "LMPOP 2 {t}none {t}l LEFT COUNT 2", "LMPOP 1 {t}none RIGHT", "BLMPOP 0.01 1 {t}l RIGHT",
            "SMOVE {t}s {t}s2 y", "SISMEMBER {t}s2 y", "SMOVE {t}s {t}a q", "HSET {t}h f v", "HRANDFIELD {t}h",
            "HRANDFIELD {t}h 1 WITHVALUES", "HRANDFIELD {t}h -2 WITHVALUES", "HRANDFIELD {t}none 2",
            "ZADD {t}one 1.5 m", "ZRANDMEMBER {t}one -2 WITHSCORES", "ZRANDMEMBER {t}one", "ZRANDMEMBER {t}none 1 WITHSCORES",
            "DEL {t}a {t}b {t}s {t}s2 {t}d {t}l {t}h {t}one");

    @Test
    void everyReplyMatchesARealRedis() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        RedisServer.assertSameReplies(NODE.address(), SEQUENCE, Set.of());
    }

    @Test
    void everyResp3ReplyMatchesARealRedis() throws Exception {
        assumeThat(RedisServer.installed()).as(RedisServer.MISSING).isTrue();
        List<String> commands = new ArrayList<>();
        commands.add("HELLO 3");
        SEQUENCE.stream().map(line -> line.replace("{t}", "{t}3")).forEach(commands::add);
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

    @Test
    void keysOfSeveralSlotsAreRefusedAsRedisClusterRefusesThem() throws Exception {
        List<String> replies = RedisServer.replies(NODE.address(), List.of("SMOVE {a}s {b}s m", "ZUNION 2 {a}z {b}z",
                "ZUNIONSTORE {a}d 1 {b}z", "LMPOP 2 {a}l {b}l LEFT", "BZPOPMIN {a}z {b}z 1", "BZMPOP 1 2 {a}z {b}z MIN"), Set.of());

        assertThat(replies).allMatch(reply -> reply.contains("CROSSSLOT"), "CROSSSLOT");
    }
}
