package io.zaris.store;

import static io.zaris.store.RecordingStore.bytes;
import static io.zaris.store.RecordingStore.text;
import static io.zaris.store.RecordingStore.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.protocol.Request;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Hashes in the store: Redis's answers, types, expiry, memory, and replication field by field. */
@Tag("unit")
class HashStoreTests {

    private final RecordingStore store = new RecordingStore();
    private final NodeStore active = store.active();
    private final List<Change> shipped = store.shipped();

    @Test
    void hashCommandsAnswerAsRedisDoes() {
        assertThat(hash(HashOp.HSET, "h", "f1", "v1", "f2", "v2").count()).isEqualTo(2);
        assertThat(hash(HashOp.HSET, "h", "f1", "x", "f3", "v3", "f3", "v3b").count()).as("f3 counted once").isEqualTo(1);
        assertThat(texts(hash(HashOp.HMGET, "h", "f1", "nope", "f3").items())).containsExactly("x", null, "v3b");
        assertThat(hash(HashOp.HLEN, "h").count()).isEqualTo(3);
        assertThat(texts(hash(HashOp.HGETALL, "h").items())).containsExactly("f1", "x", "f2", "v2", "f3", "v3b");
        assertThat(texts(hash(HashOp.HKEYS, "h").items())).containsExactly("f1", "f2", "f3");
        assertThat(texts(hash(HashOp.HVALS, "h").items())).containsExactly("x", "v2", "v3b");
        assertThat(hash(HashOp.HSETNX, "h", "f1", "y").count()).isZero();
        assertThat(hash(HashOp.HSETNX, "h", "f4", "y").count()).isEqualTo(1);
        assertThat(hash(HashOp.HDEL, "h", "f1", "nope", "f2").count()).isEqualTo(2);
        assertThat(hash(HashOp.HDEL, "h", "f3", "f4").count()).isEqualTo(2);
        assertThat(type("h")).as("a hash without fields no longer exists").isEqualTo("none");
        assertThat(hash(HashOp.HGETALL, "h").items()).isEmpty();
        assertThat(hash(HashOp.HLEN, "missing").count()).isZero();
    }

    @Test
    void hashIncrementsCheckTheFieldAndOverflow() {
        assertThat(hash(HashOp.HINCRBY, "h", "n", "5").count()).isEqualTo(5);
        assertThat(hash(HashOp.HINCRBY, "h", "n", "-7").count()).isEqualTo(-2);
        hash(HashOp.HSET, "h", "s", "abc", "max", Long.toString(Long.MAX_VALUE));
        assertThat(hash(HashOp.HINCRBY, "h", "s", "1").error()).isEqualTo("hash value is not an integer");
        assertThat(hash(HashOp.HINCRBY, "h", "max", "1").error()).isEqualTo("increment or decrement would overflow");
        assertThat(hash(HashOp.HINCRBY, "h", "n", "x").error()).isEqualTo("value is not an integer or out of range");
        hash(HashOp.HSET, "h", "f", "10.50");
        assertThat(texts(hash(HashOp.HINCRBYFLOAT, "h", "f", "0.1").items())).containsExactly("10.6");
        assertThat(texts(hash(HashOp.HINCRBYFLOAT, "h", "g", "5.0e3").items())).containsExactly("5000");
        assertThat(hash(HashOp.HINCRBYFLOAT, "h", "s", "1").error()).isEqualTo("hash value is not a float");
        assertThat(hash(HashOp.HINCRBYFLOAT, "h", "f", "1e5000").error()).isEqualTo("value is not a valid float"); // 1e400 is a long double, as Redis reads it
        assertThat(text(hash(HashOp.HMGET, "h", "n").items().get(0))).isEqualTo("-2");
    }

    @Test
    void aCommandOnTheOtherTypeIsRefusedAndSetReplacesAHash() {
        active.put(0, bytes("s"), bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        hash(HashOp.HSET, "h", "f", "v");

        assertThat(hash(HashOp.HSET, "s", "f", "v").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(hash(HashOp.HGETALL, "s").error()).startsWith("WRONGTYPE ");
        assertThatThrownBy(() -> active.get(0, bytes("h"))).isInstanceOf(WrongTypeException.class);
        assertThat(active.increment(0, bytes("h"), 1, 1).status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(active.multiGet(0, List.of(bytes("h"), bytes("s")))).extracting(v -> v == null ? null : text(v.value()))
                .as("MGET answers nil for a hash").containsExactly(null, "v");
        assertThat(type("s")).isEqualTo("string");
        assertThat(type("h")).isEqualTo("hash");

        active.put(0, bytes("h"), bytes("now a string"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        assertThat(type("h")).isEqualTo("string");
        assertThat(text(active.get(0, bytes("h")).value())).isEqualTo("now a string");
        assertThat(active.delete(0, bytes("s"), Request.ANY_VERSION, 1).status()).isEqualTo(KvStatus.OK);
    }

    @Test
    void aHashExpiresWholeAndAWriteAfterItsExpiryStartsAFreshHash() {
        hash(HashOp.HSET, "h", "old", "1");
        assertThat(active.touch(0, bytes("h"), 5_000, 1).status()).isEqualTo(KvStatus.OK);
        assertThat(shipped.get(shipped.size() - 1).kind()).as("only the expiry ships").isEqualTo(Change.Kind.EXPIRY);
        assertThat(hash(HashOp.TYPE, "h").count()).isEqualTo(5_000);
        hash(HashOp.HSET, "h", "kept", "2");
        assertThat(hash(HashOp.TYPE, "h").count()).as("a field write keeps the hash's TTL").isEqualTo(5_000);

        store.advance(5_000);
        assertThat(type("h")).isEqualTo("none");
        shipped.clear();
        hash(HashOp.HSET, "h", "new", "3");

        assertThat(texts(hash(HashOp.HGETALL, "h").items())).containsExactly("new", "3");
        assertThat(hash(HashOp.TYPE, "h").count()).isZero();
        assertThat(shipped).extracting(Change::kind).as("replicas drop the expired hash before the new field")
                .containsExactly(Change.Kind.REMOVAL, Change.Kind.FIELD_PUT);
    }

    @Test
    void memoryIsChargedPerFieldAndFreedWithTheHash() {
        long empty = active.segmentBytes(0);
        hash(HashOp.HSET, "h", "f1", "12345");
        long oneField = active.segmentBytes(0);
        hash(HashOp.HSET, "h", "f2", "1234567890");
        long twoFields = active.segmentBytes(0);

        assertThat(twoFields - oneField).isEqualTo(HashEntry.FIELD_OVERHEAD_BYTES + 2 + 10);
        assertThat(active.memory().usedBytes()).isEqualTo(twoFields);
        hash(HashOp.HDEL, "h", "f2");
        assertThat(active.segmentBytes(0)).isEqualTo(oneField);
        active.delete(0, bytes("h"), Request.ANY_VERSION, 1);
        assertThat(active.segmentBytes(0)).isEqualTo(empty);
        assertThat(active.memory().usedBytes()).isEqualTo(empty);
    }

    @Test
    void aWriteToALargeHashShipsOnlyTheFieldItChanged() {
        for (int i = 0; i < 1_000; i++) {
            hash(HashOp.HSET, "big", "f" + i, "v" + i);
        }
        shipped.clear();

        hash(HashOp.HSET, "big", "f500", "changed");

        assertThat(shipped).hasSize(1);
        Change change = shipped.get(0);
        assertThat(change.kind()).isEqualTo(Change.Kind.FIELD_PUT);
        assertThat(text(change.field())).isEqualTo("f500");
        assertThat(text(change.value())).isEqualTo("changed");
        assertThat(change.sizeBytes()).isLessThan(100);
    }

    @Test
    void aReplicaApplyingTheShippedChangesHoldsTheSameCopy() {
        writeMixedHistory();

        NodeStore replica = store.assertShippedChangesMakeTheSameCopy();

        assertThat(texts(replica.hash(0, bytes("h"), HashOp.HGETALL, List.of(), 0).items()))
                .containsExactly("a", "1", "c", "3", "d", "4");
    }

    @Test
    void aHashGrownAndShrunkThroughItsTablesGrowthsReplicatesAlikeEveryWay() {
        Map<String, String> model = new HashMap<>();
        for (int i = 0; i < 3_000; i++) { // past the compact layout and through five growths, a field per write
            assertThat(hash(HashOp.HSET, "big", "f" + i, "first").count()).isEqualTo(1);
            assertThat(hash(HashOp.HSET, "big", "f" + i, "v" + i).count()).as("set again").isZero();
            model.put("f" + i, "v" + i);
            if (i % 3 == 0) {
                assertThat(hash(HashOp.HDEL, "big", "f" + (i / 3)).count()).isEqualTo(model.remove("f" + (i / 3)) != null ? 1 : 0);
            }
        }

        assertThat(hash(HashOp.HLEN, "big").count()).isEqualTo(model.size());
        List<String> all = texts(hash(HashOp.HGETALL, "big").items());
        Map<String, String> read = new HashMap<>();
        for (int i = 0; i < all.size(); i += 2) {
            read.put(all.get(i), all.get(i + 1));
        }
        assertThat(all).hasSize(2 * model.size());
        assertThat(read).isEqualTo(model);
        store.assertShippedChangesMakeTheSameCopy();
        store.assertSnapshotInstalledChunkByChunkMakesTheSameCopy(store.snapshot());
        store.assertTailShipsOnThroughAFollower("value");
    }

    @Test
    void aSnapshotCarriesAHashFieldByFieldAndInstallsTheSameCopy() {
        writeMixedHistory();
        SegmentSnapshot snapshot = store.snapshot();
        assertThat(snapshot.entries()).extracting(Change::kind).containsOnly(Change.Kind.PUT, Change.Kind.FIELD_PUT);

        NodeStore replica = store.assertSnapshotInstalledChunkByChunkMakesTheSameCopy(snapshot);

        assertThat(RecordingStore.run(replica, HashOp.TYPE, "h").count()).isEqualTo(60_000);
    }

    @Test
    void aTailShipsFieldsChangedAgainLaterAsSupersededAndAFollowerCanShipItOn() {
        writeMixedHistory();

        store.assertTailShipsOnThroughAFollower("value");
    }

    /** Field puts overwritten later, a field removed, a string replaced by a hash and back, an expiry. */
    private void writeMixedHistory() {
        hash(HashOp.HSET, "h", "a", "0", "b", "2");
        hash(HashOp.HSET, "h", "a", "1", "c", "3");
        hash(HashOp.HDEL, "h", "b");
        hash(HashOp.HINCRBY, "h", "d", "4");
        active.touch(0, bytes("h"), 60_000, 1);
        active.put(0, bytes("flip"), bytes("string"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        active.delete(0, bytes("flip"), Request.ANY_VERSION, 1);
        hash(HashOp.HSET, "flip", "x", "1");
        active.put(0, bytes("flip"), bytes("string again"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        hash(HashOp.HSET, "gone", "x", "1");
        active.delete(0, bytes("gone"), Request.ANY_VERSION, 1);
    }

    private HashReply hash(HashOp op, String key, String... args) {
        return store.run(op, key, args);
    }

    private String type(String key) {
        return store.type(key);
    }
}
