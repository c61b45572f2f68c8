package io.zaris.store;

import static io.zaris.store.RecordingStore.bytes;
import static io.zaris.store.RecordingStore.text;
import static io.zaris.store.RecordingStore.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.protocol.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * RENAME as one change ({@link Change.Kind#RENAME}): however large the value, the owner ships one change and its op
 * log keeps one entry; a replica applying it, a tail replayed from any revision, a follower passing its tail on and a
 * snapshot all end with the owner's copy and byte count. On a fake clock.
 */
@Tag("unit")
class RenameChangeStoreTests {

    /** Elements of each large collection: enough that a change per element would be plain in every count below. */
    private static final int ELEMENTS = 2_000;

    private final RecordingStore store = new RecordingStore();
    private final NodeStore active = store.active();
    private final List<Change> shipped = store.shipped();

    /** A hash, a list, a set and a sorted set of {@link #ELEMENTS} elements each, at "h", "l", "s", "z". */
    private static void writeLargeCollections(NodeStore into) {
        for (int i = 0; i < ELEMENTS; i++) {
            RecordingStore.run(into, HashOp.HSET, "h", "f" + i, "v" + i);
            RecordingStore.run(into, HashOp.RPUSH, "l", "e" + i);
            RecordingStore.run(into, HashOp.SADD, "s", "m" + i);
            RecordingStore.run(into, HashOp.ZADD, "z", "", Integer.toString(i), "m" + i);
        }
    }

    @Test
    void aRenameOfALargeCollectionShipsOneChangeAndLogsOneEntry() {
        writeLargeCollections(active);
        for (String key : List.of("h", "l", "s", "z")) {
            assertThat(active.touch(0, bytes(key), 60_000, 1).status()).isEqualTo(io.zaris.model.KvStatus.OK);
        }
        store.advance(1_000);

        for (String key : List.of("h", "l", "s", "z")) {
            long before = active.segmentRevision(0);
            int shippedBefore = shipped.size();

            assertThat(store.run(HashOp.RENAME, key, key + "-renamed", "0").count()).as(key).isEqualTo(1);

            assertThat(shipped.subList(shippedBefore, shipped.size())).as("%s: one change", key)
                    .singleElement().satisfies(change -> {
                        assertThat(change.kind()).isEqualTo(Change.Kind.RENAME);
                        assertThat(text(change.key())).isEqualTo(key);
                        assertThat(text(change.field())).isEqualTo(key + "-renamed");
                        assertThat(change.expiresAtMillis()).as("the expiry it keeps").isEqualTo(1_000_000 + 60_000);
                    });
            assertThat(active.segmentRevision(0)).as("%s: one revision", key).isEqualTo(before + 1);
            assertThat(active.changesSince(0, before)).as("%s: one op-log entry", key).hasSize(1);
            assertThat(store.run(HashOp.TYPE, key + "-renamed").count()).as("%s keeps its TTL", key).isEqualTo(59_000);
        }
        assertThat(texts(store.run(HashOp.LRANGE, "l-renamed", "0", "2").items())).containsExactly("e0", "e1", "e2");

        NodeStore replica = store.assertShippedChangesMakeTheSameCopy();
        assertThat(texts(RecordingStore.run(replica, HashOp.HMGET, "h-renamed", "f0", "f1999").items()))
                .containsExactly("v0", "v1999");
        assertThat(store.type("h")).isEqualTo("none");
        store.assertTailShipsOnThroughAFollower("value");
        store.assertSnapshotInstalledChunkByChunkMakesTheSameCopy(store.snapshot());
    }

    @Test
    void theBytesOfBothKeysAreAccountedAsIfTheValueHadBeenWrittenUnderItsNewName() {
        writeLargeCollections(active);
        RecordingStore.run(active, HashOp.SADD, "dest-h", "old"); // replaced by the rename
        active.put(0, bytes("dest-s"), bytes("an old string value"), Request.NO_TTL, false, Request.ANY_VERSION, 1);

        for (String key : List.of("h", "l", "s", "z")) {
            String destination = key.equals("h") ? "dest-h" : key.equals("s") ? "dest-s" : "longer-destination-" + key;
            store.run(HashOp.RENAME, key, destination, "0");
        }
        NodeStore direct = store.newStore();
        for (int i = 0; i < ELEMENTS; i++) {
            RecordingStore.run(direct, HashOp.HSET, "dest-h", "f" + i, "v" + i);
            RecordingStore.run(direct, HashOp.RPUSH, "longer-destination-l", "e" + i);
            RecordingStore.run(direct, HashOp.SADD, "dest-s", "m" + i);
            RecordingStore.run(direct, HashOp.ZADD, "longer-destination-z", "", Integer.toString(i), "m" + i);
        }

        assertThat(active.segmentBytes(0)).isEqualTo(direct.segmentBytes(0));
        assertThat(active.memory().usedBytes()).isEqualTo(direct.memory().usedBytes());
        assertThat(active.segmentSize(0)).isEqualTo(4);
        NodeStore replica = store.assertShippedChangesMakeTheSameCopy();
        assertThat(replica.memory().usedBytes()).isEqualTo(direct.memory().usedBytes());
    }

    @Test
    void aStringRenamedKeepsItsValueAndATailReadsItsPutBackFromItsNewKey() {
        active.put(0, bytes("a"), bytes("one"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        store.run(HashOp.RENAME, "a", "b", "0");
        store.run(HashOp.RENAME, "b", "c", "0");

        List<Change> tail = active.changesSince(0, 0);

        assertThat(tail).extracting(Change::kind).containsExactly(Change.Kind.PUT, Change.Kind.RENAME, Change.Kind.RENAME);
        assertThat(text(tail.get(0).value())).as("read back from c, where the value is now").isEqualTo("one");
        assertThat(active.get(0, bytes("c")).version()).as("a renamed key takes the rename's revision").isEqualTo(3);
        store.assertTailShipsOnThroughAFollower("value");
    }

    @Test
    void aReplicaThatNeverHeldTheSourceEndsWithTheOwnersCopy() {
        // The hash's only write is superseded in a tail (a later write of the same field, at its new key): a replica
        // replaying it has no source when it meets the rename, and the later write sets the destination.
        store.run(HashOp.HSET, "a", "f", "old");
        store.run(HashOp.HSET, "b", "g", "replaced");
        store.run(HashOp.RENAME, "a", "b", "0");
        store.run(HashOp.HSET, "b", "f", "new");
        active.put(0, bytes("x"), bytes("1"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        store.run(HashOp.RENAME, "x", "y", "0");
        active.put(0, bytes("y"), bytes("2"), Request.NO_TTL, false, Request.ANY_VERSION, 1);

        List<Change> tail = active.changesSince(0, 0);

        assertThat(tail).extracting(Change::kind).containsExactly(Change.Kind.SUPERSEDED, Change.Kind.SUPERSEDED,
                Change.Kind.RENAME, Change.Kind.FIELD_PUT, Change.Kind.SUPERSEDED, Change.Kind.RENAME, Change.Kind.PUT);
        NodeStore replica = store.newStore();
        assertThat(replica.applyReplicated(0, tail).gap()).isFalse();
        assertThat(replica.segmentDigest(0)).isEqualTo(active.segmentDigest(0));
        assertThat(replica.segmentBytes(0)).isEqualTo(active.segmentBytes(0));
        assertThat(texts(RecordingStore.run(replica, HashOp.HGETALL, "b").items())).containsExactly("f", "new");
        store.assertTailShipsOnThroughAFollower("value");
    }

    @Test
    void aTrackerResumingPastARenameHearsOfBothKeys() {
        store.run(HashOp.SADD, "a", "m");
        long position = active.segmentRevision(0);
        store.run(HashOp.RENAME, "a", "b", "0");

        TrackStart start = active.track(0, position, 1, () -> { });

        assertThat(start.resumed()).isTrue();
        assertThat(start.changes()).extracting(change -> text(change.key()), TrackStart.Change::removal)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", true), org.assertj.core.groups.Tuple.tuple("b", false));
        assertThat(start.changes()).extracting(TrackStart.Change::revision).containsOnly(position + 1);
    }

    @Test
    void besideAnOlderReplicaARenameShipsTheRemovalAndThePutItMakes() {
        active.put(0, bytes("a"), bytes("one"), 5_000, false, Request.ANY_VERSION, 1);
        active.put(0, bytes("b"), bytes("two"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        shipped.clear();

        HashReply reply = active.hash(0, bytes("a"), HashOp.RENAME, List.of(bytes("b"), bytes("0")), 1, false);

        assertThat(reply.count()).isEqualTo(1);
        assertThat(shipped).extracting(Change::kind).containsExactly(Change.Kind.REMOVAL, Change.Kind.REMOVAL, Change.Kind.PUT);
        assertThat(text(active.get(0, bytes("b")).value())).isEqualTo("one");
        assertThat(active.get(0, bytes("b")).ttlRemainingMillis()).isEqualTo(5_000);
    }

    /**
     * Seeded sequences of writes of every type, renames and removals on a few keys; for every revision a replica may
     * stand at, the tail from there brings it to the owner's copy, and the tail passes on through a follower.
     */
    @Test
    void aTailFromAnyRevisionReplaysRenamesInterleavedWithWritesOfEveryType() {
        for (long seed = 1; seed <= 40; seed++) {
            RecordingStore sequence = new RecordingStore();
            NodeStore owner = sequence.active();
            Random random = new Random(seed);
            List<String> steps = new ArrayList<>();
            for (int step = 0; step < 40; step++) {
                steps.add(randomWrite(sequence, random));
            }
            String replay = "seed " + seed + ": " + steps;

            long last = owner.segmentRevision(0);
            for (long from = 0; from <= last; from++) {
                NodeStore replica = sequence.newStore();
                long at = from;
                assertThat(replica.applyReplicated(0, sequence.shipped().stream().filter(c -> c.revision() <= at).toList())
                        .gap()).isFalse();
                List<Change> tail = owner.changesSince(0, from);
                assertThat(tail).as("the tail from %d, %s", from, replay).isNotNull();
                assertThat(replica.applyReplicated(0, tail).gap()).isFalse();
                assertThat(replica.segmentDigest(0)).as("from %d, %s", from, replay).isEqualTo(owner.segmentDigest(0));
                assertThat(replica.segmentBytes(0)).as("from %d, %s", from, replay).isEqualTo(owner.segmentBytes(0));
            }
            sequence.assertTailShipsOnThroughAFollower("value");
            sequence.assertShippedChangesMakeTheSameCopy();
        }
    }

    private static String randomWrite(RecordingStore store, Random random) {
        String[] keys = {"a", "b", "c"};
        String key = keys[random.nextInt(keys.length)];
        String other = keys[random.nextInt(keys.length)];
        String item = Integer.toString(random.nextInt(3));
        int kind = random.nextInt(9);
        try {
            switch (kind) {
                case 0 -> store.run(HashOp.HSET, key, "f" + item, "v" + random.nextInt(100));
                case 1 -> store.run(HashOp.SADD, key, "m" + item);
                case 2 -> store.run(HashOp.RPUSH, key, "e" + item);
                case 3 -> store.run(HashOp.ZADD, key, "", item, "m" + random.nextInt(3));
                case 4 -> store.active().put(0, bytes(key), bytes("s" + item), Request.NO_TTL, false, Request.ANY_VERSION, 1);
                case 5 -> store.active().delete(0, bytes(key), Request.ANY_VERSION, 1);
                case 6 -> store.run(HashOp.HDEL, key, "f" + item);
                case 7 -> store.active().touch(0, bytes(key), 60_000 + random.nextInt(1_000), 1);
                default -> store.run(HashOp.RENAME, key, other, random.nextBoolean() ? "1" : "0");
            }
        } catch (WrongTypeException e) {
            // another type at the key: nothing written, as Redis answers WRONGTYPE
        }
        return List.of("HSET", "SADD", "RPUSH", "ZADD", "SET", "DEL", "HDEL", "EXPIRE", "RENAME").get(kind) + " " + key
                + (kind == 8 ? " " + other : "");
    }
}
