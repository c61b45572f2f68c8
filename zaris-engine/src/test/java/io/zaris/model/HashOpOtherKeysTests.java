package io.zaris.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Which arguments of a collection op name further keys, which a node requires to share the op's segment: the
 * destinations, the further keys of the multi-key pops, the algebra's sources, and nothing else (not a member, a
 * weight or a count).
 */
@Tag("unit")
class HashOpOtherKeysTests {

    @Test
    void destinationsAndFurtherKeysAreNamed() {
        assertThat(texts(HashOp.LMOVE.otherKeys(args("dst", "LEFT", "RIGHT")))).containsExactly("dst");
        assertThat(texts(HashOp.RENAME.otherKeys(args("dst", "0")))).containsExactly("dst");
        assertThat(texts(HashOp.SMOVE.otherKeys(args("dst", "member")))).containsExactly("dst");
        assertThat(texts(HashOp.LMPOP.otherKeys(args("LEFT", "1", "k2", "k3")))).containsExactly("k2", "k3");
        assertThat(texts(HashOp.ZMPOP.otherKeys(args("0", "2")))).isEmpty();
        assertThat(texts(HashOp.ZCOMBINE.otherKeys(args("UNION", "SUM", "s1", "1", "s2", "2.5"))))
                .containsExactly("s1", "s2");
        assertThat(texts(HashOp.ZCOMBINESTORE.otherKeys(args("INTER", "MAX", "s1", "1")))).containsExactly("s1");
    }

    @Test
    void singleKeyOpsNameNone() {
        assertThat(HashOp.HSET.otherKeys(args("field", "value"))).isEmpty();
        assertThat(HashOp.SADD.otherKeys(args("m1", "m2"))).isEmpty();
        assertThat(HashOp.SSTORE.otherKeys(args("m1"))).as("SSTORE's arguments are members").isEmpty();
        assertThat(HashOp.ZADD.otherKeys(args("", "1", "m"))).isEmpty();
        assertThat(HashOp.LPOP.otherKeys(args("2"))).isEmpty();
    }

    private static List<byte[]> args(String... texts) {
        return Arrays.stream(texts).map(text -> text.getBytes(StandardCharsets.UTF_8)).toList();
    }

    private static List<String> texts(List<byte[]> keys) {
        return keys.stream().map(key -> new String(key, StandardCharsets.UTF_8)).toList();
    }
}
