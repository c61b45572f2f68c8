package io.zaris.store;

import static io.zaris.store.RecordingStore.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The several-key ops (SMOVE, LMPOP, ZMPOP, ZCOMBINE, ZCOMBINESTORE) and the random picks (HRANDFIELD, ZRANDMEMBER)
 * in the store: their answers, and what they ship, which is the member, score and element changes a replica already
 * applies, never a whole value.
 */
@Tag("unit")
class SeveralKeyStoreTests {

    private final RecordingStore store = new RecordingStore();
    private final List<Change> shipped = store.shipped();

    @Test
    void smoveShipsTheRemovalAndTheAdditionOfTheOneMemberItMoves() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            many.add("m" + i);
        }
        store.run(HashOp.SADD, "from", many.toArray(String[]::new));
        store.run(HashOp.SADD, "to", "x");
        int before = shipped.size();

        assertThat(store.run(HashOp.SMOVE, "from", "to", "m7").count()).isEqualTo(1);

        assertThat(since(before)).extracting(Change::kind).containsExactly(Change.Kind.FIELD_REMOVAL, Change.Kind.MEMBER_PUT);
        assertThat(store.run(HashOp.SMOVE, "from", "to", "m7").count()).as("no longer in the source").isZero();
        assertThat(store.run(HashOp.SMOVE, "none", "to", "m7").count()).isZero();
        assertThat(store.run(HashOp.SMOVE, "from", "from", "m8").count()).as("onto itself: whether it is there").isEqualTo(1);
        assertThat(since(before)).as("the refused and idle moves ship nothing").hasSize(2);
        store.run(HashOp.HSET, "h", "f", "v");
        assertThat(store.run(HashOp.SMOVE, "from", "h", "m9").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(texts(store.run(HashOp.SMEMBERS, "to").items())).containsExactly("x", "m7");
        store.assertShippedChangesMakeTheSameCopy();
    }

    @Test
    void aStoreReplacesTheDestinationMemberByMemberAndAReadShipsNothing() {
        store.run(HashOp.ZADD, "a", "", "1", "x", "2", "y");
        store.run(HashOp.ZADD, "b", "", "10", "y", "3", "z");
        store.run(HashOp.SADD, "s", "y");
        store.run(HashOp.HSET, "dest", "f", "v");
        int before = shipped.size();

        assertThat(texts(store.run(HashOp.ZCOMBINE, "a", "INTER", "SUM", "a", "1", "b", "2", "s", "1").items()))
                .containsExactly("y", "23");
        assertThat(since(before)).as("a read").isEmpty();

        assertThat(store.run(HashOp.ZCOMBINESTORE, "dest", "UNION", "MAX", "a", "1", "b", "1").count()).isEqualTo(3);

        assertThat(since(before)).extracting(Change::kind).containsExactly(Change.Kind.REMOVAL, Change.Kind.SCORE_PUT,
                Change.Kind.SCORE_PUT, Change.Kind.SCORE_PUT);
        assertThat(texts(store.run(HashOp.ZRANGE, "dest", "RANK", "0", "0", "-1", "0", "-1").items()))
                .containsExactly("x", "1", "z", "3", "y", "10");
        assertThat(store.run(HashOp.ZCOMBINESTORE, "dest", "DIFF", "SUM", "a", "1", "a", "1").count()).isZero();
        assertThat(store.type("dest")).as("an empty result removes the destination").isEqualTo("none");
        assertThat(store.run(HashOp.ZCOMBINE, "a", "TYPES", "SUM", "a", "1", "dest", "1", "h", "1").status())
                .as("every source is looked at").isEqualTo(KvStatus.OK);
        store.run(HashOp.HSET, "h", "f", "v");
        assertThat(store.run(HashOp.ZCOMBINE, "a", "TYPES", "SUM", "a", "1", "h", "1").status()).isEqualTo(KvStatus.WRONG_TYPE);
        store.assertShippedChangesMakeTheSameCopy();
    }

    @Test
    void lmpopAndZmpopTakeFromTheFirstKeyHoldingOneAndShipTheirRemovals() {
        store.run(HashOp.RPUSH, "l", "a", "b", "c");
        store.run(HashOp.ZADD, "z", "", "1", "x", "2", "y", "3", "w");
        int before = shipped.size();

        assertThat(texts(store.run(HashOp.LMPOP, "none", "RIGHT", "2", "l").items())).containsExactly("l", "c", "b");
        assertThat(texts(store.run(HashOp.ZMPOP, "none", "1", "5", "z").items()))
                .containsExactly("z", "w", "3", "y", "2", "x", "1");
        assertThat(store.type("z")).as("the last member's removal removes the key").isEqualTo("none");
        assertThat(store.run(HashOp.ZMPOP, "none", "0", "1", "z").items()).isEmpty();
        assertThat(store.run(HashOp.LMPOP, "z", "LEFT", "1", "l").items()).as("a missing key is passed over").hasSize(2);
        assertThat(since(before)).extracting(Change::kind).containsOnly(Change.Kind.LIST_REMOVE, Change.Kind.FIELD_REMOVAL);
        store.run(HashOp.SADD, "s", "m");
        assertThat(store.run(HashOp.ZMPOP, "s", "0", "1", "z").status()).isEqualTo(KvStatus.WRONG_TYPE);
        store.assertShippedChangesMakeTheSameCopy();
    }

    @Test
    void randomPicksFollowRedisCountRuleAndShipNothing() {
        store.run(HashOp.HSET, "h", "f", "1", "g", "2", "h", "3");
        store.run(HashOp.ZADD, "z", "", "1", "x", "2", "y");
        int before = shipped.size();

        List<String> two = texts(store.run(HashOp.HRANDFIELD, "h", "2", "0").items());
        assertThat(two).hasSize(2).doesNotHaveDuplicates().isSubsetOf("f", "g", "h");
        assertThat(texts(store.run(HashOp.HRANDFIELD, "h", "100", "1").items())).hasSize(6)
                .containsExactlyInAnyOrder("f", "1", "g", "2", "h", "3");
        assertThat(store.run(HashOp.HRANDFIELD, "h", "-7", "0").items()).as("repeats allowed").hasSize(7);
        List<String> pairs = texts(store.run(HashOp.ZRANDMEMBER, "z", "-5").items());
        assertThat(pairs).hasSize(10);
        for (int i = 0; i < pairs.size(); i += 2) {
            assertThat(pairs.get(i + 1)).isEqualTo(pairs.get(i).equals("x") ? "1" : "2");
        }
        assertThat(new HashSet<>(texts(store.run(HashOp.ZRANDMEMBER, "z", "2").items()))).contains("x", "y");
        assertThat(store.run(HashOp.ZRANDMEMBER, "none", "3").items()).isEmpty();
        assertThat(store.run(HashOp.ZRANDMEMBER, "z", "-1000001").status()).as("bounded").isEqualTo(KvStatus.BAD_REQUEST);
        assertThat(store.run(HashOp.HRANDFIELD, "z", "1", "0").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(since(before)).isEmpty();
    }

    @Test
    void badArgumentsAreRefusedBeforeAnyKeyIsLookedAt() {
        assertThat(store.run(HashOp.ZCOMBINE, "a", "AVG", "SUM", "a", "1").status()).isEqualTo(KvStatus.BAD_REQUEST);
        assertThat(store.run(HashOp.ZCOMBINE, "a", "UNION", "SUM", "a", "x").error()).isEqualTo("weight value is not a float");
        assertThat(store.run(HashOp.LMPOP, "l", "UP", "1").status()).isEqualTo(KvStatus.BAD_REQUEST);
        assertThat(store.run(HashOp.ZMPOP, "z", "0", "0").status()).isEqualTo(KvStatus.BAD_REQUEST);
        assertThat(store.run(HashOp.ZCOMBINE, "a", "UNION", "SUM", "a").status()).as("a source without its weight")
                .isEqualTo(KvStatus.BAD_REQUEST);
    }

    /** The changes shipped after the first {@code before}. */
    private List<Change> since(int before) {
        return shipped.subList(before, shipped.size());
    }
}
