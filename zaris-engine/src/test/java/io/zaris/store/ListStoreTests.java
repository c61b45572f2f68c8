package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.protocol.Request;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Lists in the store: Redis's answers, types, expiry, memory, and replication by position. */
@Tag("unit")
class ListStoreTests {

    private final RecordingStore store = new RecordingStore();
    private final NodeStore active = store.active();
    private final List<Change> shipped = store.shipped();

    @Test
    void pushPopAndRangeAnswerAsRedisDoes() {
        assertThat(list(HashOp.RPUSH, "l", "a", "b").count()).isEqualTo(2);
        assertThat(list(HashOp.LPUSH, "l", "x", "y").count()).as("each pushed at the head in turn").isEqualTo(4);
        assertThat(range("l")).containsExactly("y", "x", "a", "b");
        assertThat(list(HashOp.LLEN, "l").count()).isEqualTo(4);
        assertThat(texts(list(HashOp.LRANGE, "l", "-2", "100").items())).containsExactly("a", "b");
        assertThat(texts(list(HashOp.LRANGE, "l", "3", "1").items())).isEmpty();
        assertThat(texts(list(HashOp.LRANGE, "l", "-100", "0").items())).containsExactly("y");
        assertThat(texts(list(HashOp.LINDEX, "l", "-1").items())).containsExactly("b");
        assertThat(texts(list(HashOp.LINDEX, "l", "4").items())).containsExactly((String) null);
        assertThat(texts(list(HashOp.LPOP, "l").items())).containsExactly("y");
        assertThat(texts(list(HashOp.RPOP, "l", "2").items())).as("from the tail inwards").containsExactly("b", "a");
        assertThat(list(HashOp.LPUSHX, "missing", "a").count()).isZero();
        assertThat(type("missing")).isEqualTo("none");
        assertThat(list(HashOp.RPUSHX, "l", "z").count()).isEqualTo(2);
        assertThat(texts(list(HashOp.LPOP, "l", "5").items())).containsExactly("x", "z");
        assertThat(type("l")).as("an emptied list no longer exists").isEqualTo("none");
        assertThat(list(HashOp.LPOP, "l").count()).as("no list to pop from").isZero();
        assertThat(list(HashOp.LPOP, "l", "-1").error()).isEqualTo("value is out of range, must be positive");
        assertThat(list(HashOp.LRANGE, "l", "a", "1").error()).isEqualTo("value is not an integer or out of range");
    }

    @Test
    void lsetLremLtrimLinsertLmoveAndLposChangeByPosition() {
        list(HashOp.RPUSH, "l", "a", "b", "a", "a", "c", "a");
        assertThat(list(HashOp.LREM, "l", "-2", "a").count()).isEqualTo(2);
        assertThat(range("l")).containsExactly("a", "b", "a", "c");
        assertThat(list(HashOp.LREM, "l", "0", "a").count()).isEqualTo(2);
        assertThat(range("l")).containsExactly("b", "c");
        assertThat(list(HashOp.LSET, "l", "-1", "C").status()).isEqualTo(KvStatus.OK);
        assertThat(list(HashOp.LSET, "l", "2", "x").error()).isEqualTo("index out of range");
        assertThat(list(HashOp.LSET, "missing", "0", "x").error()).isEqualTo("no such key");
        assertThat(list(HashOp.LINSERT, "l", "BEFORE", "C", "m").count()).isEqualTo(3);
        assertThat(list(HashOp.LINSERT, "l", "after", "C", "n").count()).isEqualTo(4);
        assertThat(list(HashOp.LINSERT, "l", "AFTER", "nope", "n").count()).isEqualTo(-1);
        assertThat(list(HashOp.LINSERT, "missing", "AFTER", "nope", "n").count()).isZero();
        assertThat(list(HashOp.LINSERT, "l", "ABOVE", "C", "n").error()).isEqualTo("syntax error");
        assertThat(range("l")).containsExactly("b", "m", "C", "n");
        assertThat(texts(list(HashOp.LPOS, "l", "C", "1", "-1", "0").items())).containsExactly("2");
        list(HashOp.RPUSH, "l", "b");
        assertThat(texts(list(HashOp.LPOS, "l", "b", "-1", "0", "0").items())).containsExactly("4", "0");
        assertThat(texts(list(HashOp.LPOS, "l", "b", "2", "0", "0").items())).containsExactly("4");
        assertThat(texts(list(HashOp.LPOS, "l", "b", "1", "0", "2").items())).as("maxlen 2").containsExactly("0");

        assertThat(list(HashOp.LTRIM, "l", "1", "-2").status()).isEqualTo(KvStatus.OK);
        assertThat(range("l")).containsExactly("m", "C", "n");
        assertThat(texts(list(HashOp.LMOVE, "l", "d", "LEFT", "RIGHT").items())).containsExactly("m");
        assertThat(texts(list(HashOp.LMOVE, "l", "d", "right", "left").items())).containsExactly("n");
        assertThat(range("d")).containsExactly("n", "m");
        assertThat(texts(list(HashOp.LMOVE, "d", "d", "LEFT", "RIGHT").items())).as("a rotation").containsExactly("n");
        assertThat(range("d")).containsExactly("m", "n");
        assertThat(texts(list(HashOp.LMOVE, "missing", "d", "LEFT", "RIGHT").items())).containsExactly((String) null);
        assertThat(list(HashOp.LMOVE, "l", "d", "UP", "RIGHT").error()).isEqualTo("syntax error");
        assertThat(list(HashOp.LTRIM, "l", "5", "10").status()).isEqualTo(KvStatus.OK);
        assertThat(type("l")).as("a trim to nothing removes the list").isEqualTo("none");
    }

    @Test
    void aCommandOnTheOtherTypeIsRefused() {
        active.put(0, bytes("str"), bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        list(HashOp.RPUSH, "l", "a");
        active.hash(0, bytes("h"), HashOp.HSET, List.of(bytes("f"), bytes("v")), 1);
        active.hash(0, bytes("s"), HashOp.SADD, List.of(bytes("m")), 1);

        assertThat(list(HashOp.LPUSH, "str", "x").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(list(HashOp.LRANGE, "h", "0", "-1").error()).startsWith("WRONGTYPE ");
        assertThat(list(HashOp.LLEN, "s").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(list(HashOp.LMOVE, "l", "h", "LEFT", "LEFT").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(range("l")).as("a refused move moves nothing").containsExactly("a");
        assertThat(active.hash(0, bytes("l"), HashOp.HGETALL, List.of(), 1).status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(active.hash(0, bytes("l"), HashOp.SADD, List.of(bytes("x")), 1).status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThatThrownBy(() -> active.get(0, bytes("l"))).isInstanceOf(WrongTypeException.class);
        assertThat(active.increment(0, bytes("l"), 1, 1).status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(type("l")).isEqualTo("list");
        active.put(0, bytes("l"), bytes("now a string"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        assertThat(type("l")).isEqualTo("string");
    }

    @Test
    void aListExpiresWholeAndAPushAfterItsExpiryStartsAFreshList() {
        list(HashOp.RPUSH, "l", "old");
        assertThat(active.touch(0, bytes("l"), 5_000, 1).status()).isEqualTo(KvStatus.OK);
        assertThat(shipped.get(shipped.size() - 1).kind()).as("only the expiry ships").isEqualTo(Change.Kind.EXPIRY);
        list(HashOp.RPUSH, "l", "kept");
        assertThat(list(HashOp.TYPE, "l").count()).as("a push keeps the list's TTL").isEqualTo(5_000);

        store.advance(5_000);
        assertThat(type("l")).isEqualTo("none");
        shipped.clear();
        list(HashOp.RPUSH, "l", "new");

        assertThat(range("l")).containsExactly("new");
        assertThat(list(HashOp.TYPE, "l").count()).isZero();
        assertThat(shipped).extracting(Change::kind).as("replicas drop the expired list before the new element")
                .containsExactly(Change.Kind.REMOVAL, Change.Kind.LIST_INSERT);
    }

    @Test
    void memoryIsChargedPerElementAndFreedWithTheList() {
        long empty = active.segmentBytes(0);
        list(HashOp.RPUSH, "l", "e1");
        long one = active.segmentBytes(0);
        list(HashOp.RPUSH, "l", "element");
        assertThat(active.segmentBytes(0) - one).isEqualTo(ListEntry.ELEMENT_OVERHEAD_BYTES + 7);
        list(HashOp.LSET, "l", "1", "el");
        assertThat(active.segmentBytes(0) - one).isEqualTo(ListEntry.ELEMENT_OVERHEAD_BYTES + 2);
        list(HashOp.RPOP, "l");
        assertThat(active.segmentBytes(0)).isEqualTo(one);
        active.delete(0, bytes("l"), Request.ANY_VERSION, 1);
        assertThat(active.segmentBytes(0)).isEqualTo(empty);
        assertThat(active.memory().usedBytes()).isEqualTo(empty);
    }

    @Test
    void aPushOrPopOnALongListShipsOnlyWhatChanged() {
        for (int i = 0; i < 1_000; i++) {
            list(HashOp.RPUSH, "big", "e" + i);
        }
        shipped.clear();

        list(HashOp.LPUSH, "big", "new");
        list(HashOp.RPOP, "big", "3");
        list(HashOp.LTRIM, "big", "10", "-10");

        assertThat(shipped).extracting(Change::kind).containsExactly(Change.Kind.LIST_INSERT, Change.Kind.LIST_REMOVE,
                Change.Kind.LIST_REMOVE, Change.Kind.LIST_REMOVE);
        assertThat(shipped).allSatisfy(change -> assertThat(change.sizeBytes()).isLessThan(100));
        assertThat(text(shipped.get(1).field())).as("three from index 998").isEqualTo("998 3");
    }

    @Test
    void replicasByStreamTailAndSnapshotHoldTheSameListsAfterRandomOperations() {
        Random random = new Random(38);
        for (int i = 0; i < 3_000; i++) {
            randomOperation(random);
        }
        assertThat(range("k0")).as("the history left lists to compare").isNotEmpty();

        store.assertShippedChangesMakeTheSameCopy();
        store.assertTailShipsOnThroughAFollower("element");
        NodeStore installed = store.assertSnapshotInstalledChunkByChunkMakesTheSameCopy(store.snapshot());
        assertThat(installed.segmentBytes(0)).isEqualTo(active.segmentBytes(0));
    }

    @Test
    void aListAndAStringDigestApart() {
        list(HashOp.RPUSH, "k", "a", "b");
        NodeStore reordered = store.newStore();
        reordered.hash(0, bytes("k"), HashOp.RPUSH, List.of(bytes("b"), bytes("a")), 1);
        assertThat(reordered.segmentDigest(0)).as("order counts").isNotEqualTo(active.segmentDigest(0));
    }

    private void randomOperation(Random random) {
        String key = "k" + random.nextInt(4);
        String element = "e" + random.nextInt(6);
        String index = Integer.toString(random.nextInt(12) - 6);
        switch (random.nextInt(12)) {
            case 0, 1 -> list(HashOp.LPUSH, key, element, "e" + random.nextInt(6));
            case 2, 3 -> list(HashOp.RPUSH, key, element);
            case 4 -> list(HashOp.LPOP, key, Integer.toString(random.nextInt(3)));
            case 5 -> list(HashOp.RPOP, key);
            case 6 -> list(HashOp.LSET, key, index, element);
            case 7 -> list(HashOp.LREM, key, index, element);
            case 8 -> list(HashOp.LTRIM, key, index, Integer.toString(random.nextInt(20) - 3));
            case 9 -> list(HashOp.LMOVE, key, "k" + random.nextInt(4), random.nextBoolean() ? "LEFT" : "RIGHT",
                    random.nextBoolean() ? "LEFT" : "RIGHT");
            case 10 -> list(HashOp.LINSERT, key, random.nextBoolean() ? "BEFORE" : "AFTER", element, "i" + random.nextInt(3));
            default -> {
                if (random.nextInt(10) == 0) {
                    active.delete(0, bytes(key), Request.ANY_VERSION, 1);
                } else {
                    active.touch(0, bytes(key), 1_000_000, 1);
                }
            }
        }
    }

    private HashReply list(HashOp op, String key, String... args) {
        return store.run(op, key, args);
    }

    private List<String> range(String key) {
        return texts(list(HashOp.LRANGE, key, "0", "-1").items());
    }

    private String type(String key) {
        return store.type(key);
    }

    private static List<String> texts(List<byte[]> items) {
        return RecordingStore.texts(items);
    }

    private static String text(byte[] bytes) {
        return RecordingStore.text(bytes);
    }

    private static byte[] bytes(String text) {
        return RecordingStore.bytes(text);
    }
}
