package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.HashOp;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** How the sorted-set commands are planned: the engine op and arguments, or Redis's error, from the arguments alone. */
@Tag("unit")
class RespSortedSetCommandsTests {

    private static final int MAX_MEMBER = 16;

    @Test
    void zaddReadsItsOptionsUntilTheFirstScore() {
        RespSortedSetCommands.Plan plan = plan("zadd", "k", "nx", "CH", "1", "a", "2", "nx");

        assertThat(plan.immediate()).isNull();
        assertThat(plan.op()).isEqualTo(HashOp.ZADD);
        assertThat(texts(plan.args())).as("a member may be named like an option").containsExactly("NC", "1", "a", "2", "nx");
    }

    @Test
    void zaddOptionErrorsComeInRedisOrder() {
        assertThat(error(plan("zadd", "k", "nx", "xx"))).isEqualTo("ERR syntax error");
        assertThat(error(plan("zadd", "k", "1", "a", "2"))).isEqualTo("ERR syntax error");
        assertThat(error(plan("zadd", "k", "nx", "xx", "1", "a"))).isEqualTo("ERR XX and NX options at the same time are not compatible");
        assertThat(error(plan("zadd", "k", "gt", "lt", "1", "a")))
                .isEqualTo("ERR GT, LT, and/or NX options at the same time are not compatible");
        assertThat(error(plan("zadd", "k", "incr", "1", "a", "2", "b")))
                .isEqualTo("ERR INCR option supports a single increment-element pair");
        assertThat(error(plan("zadd", "k", "1", "a-member-longer-than-16")))
                .isEqualTo("ERR sorted set member is larger than 16 bytes");
    }

    @Test
    void aReversedScoreRangeIsGivenMaxFirstAndSentMinFirst() {
        RespSortedSetCommands.Plan plan = plan("zrange", "k", "(5", "1", "rev", "BYSCORE", "limit", "1", "2");

        assertThat(plan.op()).isEqualTo(HashOp.ZRANGE);
        assertThat(texts(plan.args())).containsExactly("SCORE", "1", "1", "(5", "1", "2");
        assertThat(texts(plan("zrevrangebyscore", "k", "+inf", "(0").args())).containsExactly("SCORE", "1", "(0", "+inf", "0", "-1");
        assertThat(texts(plan("zrevrange", "k", "0", "-1").args())).as("ranks are not swapped")
                .containsExactly("RANK", "1", "0", "-1", "0", "-1");
    }

    @Test
    void zrangeOptionConflictsAreRedisErrors() {
        assertThat(error(plan("zrange", "k", "0", "1", "LIMIT", "0", "1")))
                .isEqualTo("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
        assertThat(plan("zrange", "k", "0", "1", "LIMIT", "0", "-1").immediate()).as("LIMIT 0 -1 is no limit").isNull();
        assertThat(error(plan("zrange", "k", "a", "b", "BYLEX", "WITHSCORES")))
                .isEqualTo("ERR syntax error, WITHSCORES not supported in combination with BYLEX");
        assertThat(error(plan("zrangebyscore", "k", "0", "1", "BYSCORE"))).isEqualTo("ERR syntax error");
        assertThat(error(plan("zrange", "k", "0", "1", "REV", "REV"))).isEqualTo("ERR syntax error");
        assertThat(error(plan("zrange", "k", "0", "1", "LIMIT", "+1", "2")))
                .isEqualTo("ERR value is not an integer or out of range");
        assertThat(error(plan("zrange", "k", "0", "1", "LIMIT", "0"))).isEqualTo("ERR syntax error");
    }

    @Test
    void zpopCountsAndZrankWithScore() {
        assertThat(error(plan("zpopmin", "k", "-1"))).isEqualTo("ERR value is out of range, must be positive");
        assertThat(error(plan("zpopmin", "k", "x"))).isEqualTo("ERR value is out of range, must be positive");
        assertThat(error(plan("zpopmax", "k", "1", "2"))).isEqualTo("ERR syntax error");
        assertThat(texts(plan("zpopmax", "k").args())).containsExactly("1", "1");
        assertThat(texts(plan("zrevrank", "k", "m", "withscore").args())).containsExactly("m", "1");
        assertThat(error(plan("zrank", "k", "m", "scores"))).isEqualTo("ERR syntax error");
    }

    @Test
    void redisIntegersHaveNoPlusSignNorLeadingZero() {
        assertThat(RespSortedSetCommands.redisLong(bytes("-12"))).isEqualTo(-12);
        assertThat(RespSortedSetCommands.redisLong(bytes("0"))).isZero();
        assertThat(RespSortedSetCommands.redisLong(bytes("+1"))).isNull();
        assertThat(RespSortedSetCommands.redisLong(bytes("01"))).isNull();
        assertThat(RespSortedSetCommands.redisLong(bytes("-0"))).isNull();
        assertThat(RespSortedSetCommands.redisLong(bytes("9223372036854775808"))).isNull();
    }

    private static RespSortedSetCommands.Plan plan(String name, String... args) {
        List<byte[]> a = new ArrayList<>();
        a.add(bytes(name));
        for (String arg : args) {
            a.add(bytes(arg));
        }
        return RespSortedSetCommands.plan(name, a, MAX_MEMBER);
    }

    private static String error(RespSortedSetCommands.Plan plan) {
        assertThat(plan.immediate()).isInstanceOf(RespReply.Error.class);
        return ((RespReply.Error) plan.immediate()).text();
    }

    private static List<String> texts(List<byte[]> args) {
        return args.stream().map(arg -> new String(arg, StandardCharsets.UTF_8)).toList();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
