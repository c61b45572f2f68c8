package io.zaris.store;

import static io.zaris.store.RecordingStore.bytes;
import static io.zaris.store.RecordingStore.text;
import static io.zaris.store.RecordingStore.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.protocol.Request;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The whole-key SET and EXPIRE ops: SET ... NX/XX/KEEPTTL/GET, PERSIST and EXPIRE ... NX/XX/GT/LT on a key of any
 * type, each one {@link NodeStore#hash} call whose condition is judged and whose write is made under one hold of the
 * segment's lock, with Redis's outcomes; and replication: a replica applying what shipped (or a snapshot, or a
 * follower's tail) holds the same value, type and expiry.
 */
@Tag("unit")
class ConditionalKeyWriteStoreTests {

    private final RecordingStore store = new RecordingStore();
    private final NodeStore active = store.active();
    private final List<Change> shipped = store.shipped();

    private HashReply set(String key, String conditions, long ttl, String value) {
        return store.run(HashOp.SET, key, conditions, Long.toString(ttl), value);
    }

    private HashReply expire(String key, String conditions, long ttl) {
        return store.run(HashOp.EXPIRE, key, conditions, Long.toString(ttl));
    }

    private long ttl(String key) {
        return store.run(HashOp.TYPE, key).count();
    }

    /** A hash, a list, a set and a sorted set, each with {@code ttl} ms to live (0: none). */
    private List<String> collections(long ttl) {
        store.run(HashOp.HSET, "h", "f", "v");
        store.run(HashOp.RPUSH, "l", "x");
        store.run(HashOp.SADD, "s", "m");
        store.run(HashOp.ZADD, "z", "", "1", "m");
        List<String> keys = List.of("h", "l", "s", "z");
        if (ttl > 0) {
            for (String key : keys) {
                assertThat(active.touch(0, bytes(key), ttl, 1).status()).isEqualTo(KvStatus.OK);
            }
        }
        return keys;
    }

    @Test
    void setNxAndXxJudgeAKeyOfAnyType() {
        for (String key : collections(0)) {
            int before = shipped.size();
            assertThat(set(key, "N", 0, "v").count()).as("%s exists: NX keeps it", key).isZero();
            assertThat(shipped).as("nothing changed").hasSize(before);
            assertThat(store.type(key)).isNotEqualTo("string");
            HashReply replaced = set(key, "X", 0, "new");
            assertThat(replaced.count()).as("%s exists: XX replaces it", key).isEqualTo(1);
            assertThat(replaced.version()).isPositive();
            assertThat(store.type(key)).isEqualTo("string");
            assertThat(text(active.get(0, bytes(key)).value())).isEqualTo("new");
        }
        assertThat(set("missing", "X", 0, "v").count()).as("XX on a missing key").isZero();
        assertThat(store.type("missing")).isEqualTo("none");
        assertThat(set("missing", "N", 0, "v").count()).as("NX on a missing key").isEqualTo(1);
        assertThat(set("missing", "N", 0, "w").count()).as("NX on a string").isZero();
        assertThat(set("missing", "X", 5_000, "w").count()).as("XX on a string").isEqualTo(1);
        assertThat(ttl("missing")).isEqualTo(5_000);
        store.assertShippedChangesMakeTheSameCopy();
    }

    @Test
    void keepTtlKeepsTheExpiryOfWhateverTheKeyHeld() {
        collections(60_000);
        active.put(0, bytes("str"), bytes("old"), 60_000, false, Request.ANY_VERSION, 1);
        store.advance(1_000);
        for (String key : List.of("h", "l", "s", "z", "str")) {
            assertThat(set(key, "K", 0, "v").count()).isEqualTo(1);
            assertThat(store.type(key)).isEqualTo("string");
            assertThat(ttl(key)).as("%s keeps its expiry to the millisecond", key).isEqualTo(59_000);
        }
        assertThat(set("fresh", "K", 0, "v").count()).as("KEEPTTL on a missing key: no TTL").isEqualTo(1);
        assertThat(ttl("fresh")).isZero();
        assertThat(set("str", "", 0, "plain").count()).as("without KEEPTTL the TTL goes").isEqualTo(1);
        assertThat(ttl("str")).isZero();

        NodeStore replica = store.assertShippedChangesMakeTheSameCopy();
        assertThat(RecordingStore.run(replica, HashOp.TYPE, "h").count()).as("the replica's expiry").isEqualTo(59_000);
        assertThat(text(RecordingStore.run(replica, HashOp.TYPE, "h").items().get(0))).isEqualTo("string");
        store.assertSnapshotInstalledChunkByChunkMakesTheSameCopy(store.snapshot());
        store.assertTailShipsOnThroughAFollower("value");
    }

    @Test
    void getAnswersTheOldStringAndRefusesAnotherTypeWithoutWriting() {
        collections(0);
        int before = shipped.size();
        for (String key : List.of("h", "l", "s", "z")) {
            HashReply refused = set(key, "G", 0, "v");
            assertThat(refused.status()).as(key).isEqualTo(KvStatus.WRONG_TYPE);
            assertThat(store.type(key)).isNotEqualTo("string");
        }
        assertThat(shipped).as("a refused SET ... GET writes nothing").hasSize(before);

        HashReply absent = set("k", "G", 0, "one");
        assertThat(absent.count()).isEqualTo(1);
        assertThat(absent.items()).containsExactly((byte[]) null);
        assertThat(texts(set("k", "G", 0, "two").items())).containsExactly("one");
        assertThat(texts(set("k", "GN", 0, "three").items())).as("NX kept it; the old value still answers")
                .containsExactly("two");
        assertThat(set("k", "GN", 0, "three").count()).isZero();
        assertThat(text(active.get(0, bytes("k")).value())).isEqualTo("two");
        assertThat(set("none", "GX", 0, "v").items()).as("XX on a missing key: nil, nothing written")
                .containsExactly((byte[]) null);
        assertThat(store.type("none")).isEqualTo("none");
        store.assertShippedChangesMakeTheSameCopy();
    }

    @Test
    void persistRemovesTheExpiryOfAnyTypeAndShipsOnlyThat() {
        collections(60_000);
        active.put(0, bytes("str"), bytes("v"), 60_000, false, Request.ANY_VERSION, 1);
        active.put(0, bytes("forever"), bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        int before = shipped.size();
        for (String key : List.of("h", "l", "s", "z")) {
            assertThat(expire(key, "P", 0).count()).as(key).isEqualTo(1);
            assertThat(ttl(key)).isZero();
            assertThat(expire(key, "P", 0).count()).as("%s has no TTL left to remove", key).isZero();
        }
        assertThat(shipped.subList(before, shipped.size())).as("a collection ships its new expiry, not its elements")
                .extracting(Change::kind)
                .containsOnly(Change.Kind.EXPIRY).hasSize(4);
        assertThat(expire("str", "P", 0).count()).isEqualTo(1);
        assertThat(ttl("str")).isZero();
        assertThat(expire("forever", "P", 0).count()).isZero();
        assertThat(expire("missing", "P", 0).count()).isZero();

        NodeStore replica = store.assertShippedChangesMakeTheSameCopy();
        assertThat(RecordingStore.run(replica, HashOp.TYPE, "z").count()).isZero();
        store.assertTailShipsOnThroughAFollower("value");
    }

    @Test
    void expireConditionsJudgeTheKeysExpiryInTheSameStep() {
        collections(0);
        for (String key : List.of("h", "l", "s", "z")) {
            assertThat(expire(key, "X", 10_000).count()).as("%s: XX without a TTL", key).isZero();
            assertThat(expire(key, "G", 10_000).count()).as("GT: no TTL is infinite").isZero();
            assertThat(expire(key, "N", 10_000).count()).as("NX without a TTL").isEqualTo(1);
            assertThat(ttl(key)).isEqualTo(10_000);
            assertThat(expire(key, "N", 20_000).count()).as("NX with a TTL").isZero();
            assertThat(expire(key, "XG", 5_000).count()).as("GT with a shorter one").isZero();
            assertThat(expire(key, "XG", 20_000).count()).as("GT with a longer one").isEqualTo(1);
            assertThat(expire(key, "L", 20_000).count()).as("LT with an equal one").isZero();
            assertThat(expire(key, "L", 15_000).count()).as("LT with a shorter one").isEqualTo(1);
            assertThat(ttl(key)).isEqualTo(15_000);
        }
        active.put(0, bytes("str"), bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        assertThat(expire("str", "L", 15_000).count()).as("LT on a string without a TTL").isEqualTo(1);
        assertThat(ttl("str")).isEqualTo(15_000);
        assertThat(text(active.get(0, bytes("str")).value())).isEqualTo("v");
        assertThat(expire("missing", "L", 15_000).count()).isZero();

        NodeStore replica = store.assertShippedChangesMakeTheSameCopy();
        assertThat(RecordingStore.run(replica, HashOp.TYPE, "l").count()).isEqualTo(15_000);
        store.assertSnapshotInstalledChunkByChunkMakesTheSameCopy(store.snapshot());
    }

    @Test
    void aTtlInThePastThatTheConditionLetsThroughDeletesTheKey() {
        collections(10_000);
        assertThat(expire("h", "G", -1).count()).as("GT: -1 is not greater").isZero();
        assertThat(store.type("h")).isEqualTo("hash");
        assertThat(expire("h", "L", 0).count()).as("LT: 0 is less").isEqualTo(1);
        assertThat(store.type("h")).isEqualTo("none");
        assertThat(expire("l", "X", -5).count()).isEqualTo(1);
        assertThat(store.type("l")).isEqualTo("none");
        store.assertShippedChangesMakeTheSameCopy();
    }

    @Test
    void anExpiredKeyIsAbsentToEveryCondition() {
        collections(1_000);
        store.advance(1_000);
        assertThat(expire("h", "L", 5_000).count()).isZero();
        assertThat(expire("l", "P", 0).count()).isZero();
        assertThat(set("s", "N", 0, "v").count()).as("NX: an expired set is no key").isEqualTo(1);
        assertThat(ttl("s")).isZero();
        assertThat(set("z", "X", 0, "v").count()).as("XX: an expired sorted set is no key").isZero();
        assertThat(store.type("z")).isEqualTo("none");
        store.assertShippedChangesMakeTheSameCopy();
    }

    @Test
    void expiryConditionsAsRedisHasThem() {
        assertThat(KeyCommands.expiryAllowed("", 0, 100)).isTrue();
        assertThat(KeyCommands.expiryAllowed("N", 0, 100)).isTrue();
        assertThat(KeyCommands.expiryAllowed("N", 50, 100)).isFalse();
        assertThat(KeyCommands.expiryAllowed("X", 0, 100)).isFalse();
        assertThat(KeyCommands.expiryAllowed("G", 0, 100)).as("nothing is greater than infinite").isFalse();
        assertThat(KeyCommands.expiryAllowed("L", 0, 100)).as("everything is less than infinite").isTrue();
        assertThat(KeyCommands.expiryAllowed("XG", 50, 100)).isTrue();
        assertThat(KeyCommands.expiryAllowed("XG", 150, 100)).isFalse();
        assertThat(KeyCommands.expiryAllowed("XL", 150, 100)).isTrue();
        assertThat(KeyCommands.expiryAllowed("XL", 0, 100)).as("LT alone would apply; XX says no").isFalse();
        assertThat(KeyCommands.expiryAllowed("G", 100, 100)).as("equal is not greater").isFalse();
        assertThat(KeyCommands.expiryAllowed("L", 100, 100)).as("equal is not less").isFalse();
        assertThat(KeyCommands.setAllowed("N", true)).isFalse();
        assertThat(KeyCommands.setAllowed("N", false)).isTrue();
        assertThat(KeyCommands.setAllowed("X", false)).isFalse();
        assertThat(KeyCommands.setAllowed("XKG", true)).isTrue();
        assertThat(KeyCommands.setAllowed("", false)).isTrue();
    }

    @Test
    void aBadTtlIsRefusedBeforeTheKeyIsLookedAt() {
        assertThat(store.run(HashOp.SET, "k", "", "soon", "v").status()).isEqualTo(KvStatus.BAD_REQUEST);
        assertThat(store.run(HashOp.SET, "k", "", "-1", "v").status()).isEqualTo(KvStatus.BAD_REQUEST);
        assertThat(store.run(HashOp.EXPIRE, "k", "N", "soon").status()).isEqualTo(KvStatus.BAD_REQUEST);
        assertThat(shipped).isEmpty();
    }
}
