package io.zaris.store;

import static io.zaris.store.RecordingStore.bytes;
import static io.zaris.store.RecordingStore.text;
import static io.zaris.store.RecordingStore.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.model.DumpPayload;
import io.zaris.model.HashOp;
import io.zaris.model.KeyContent;
import io.zaris.model.KvStatus;
import io.zaris.protocol.Request;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * RENAME, DUMP and RESTORE in the store: every type moves or round-trips with its expiry, Redis's answers and order of
 * checks, and replication: a replica applying the shipped changes (or a snapshot, or a follower's tail) holds the
 * same copy.
 */
@Tag("unit")
class KeyStoreTests {

    private final RecordingStore store = new RecordingStore();
    private final NodeStore active = store.active();
    private final List<Change> shipped = store.shipped();

    /** One key of each type, each with a TTL of {@code ttl} ms (the string's set with the put). */
    private void writeOneOfEachType(String suffix, long ttl) {
        active.put(0, bytes("s" + suffix), bytes("text"), ttl, false, Request.ANY_VERSION, 1);
        store.run(HashOp.HSET, "h" + suffix, "f1", "v1", "f2", "v2");
        store.run(HashOp.RPUSH, "l" + suffix, "x", "y", "x");
        store.run(HashOp.SADD, "set" + suffix, "m", "n");
        store.run(HashOp.ZADD, "z" + suffix, "", "2.5", "b", "-1", "a");
        for (String key : List.of("h", "l", "set", "z")) {
            assertThat(active.touch(0, bytes(key + suffix), ttl, 1).status()).isEqualTo(KvStatus.OK);
        }
    }

    /** What each type's own read answers for the keys {@link #writeOneOfEachType} wrote, under {@code suffix}. */
    private static void assertOneOfEachType(NodeStore store, String suffix) {
        assertThat(text(store.get(0, bytes("s" + suffix)).value())).isEqualTo("text");
        assertThat(texts(RecordingStore.run(store, HashOp.HGETALL, "h" + suffix).items())).containsExactly("f1", "v1", "f2", "v2");
        assertThat(texts(RecordingStore.run(store, HashOp.LRANGE, "l" + suffix, "0", "-1").items())).containsExactly("x", "y", "x");
        assertThat(texts(RecordingStore.run(store, HashOp.SMEMBERS, "set" + suffix).items())).containsExactly("m", "n");
        assertThat(texts(RecordingStore.run(store, HashOp.ZRANGE, "z" + suffix, "RANK", "0", "0", "-1", "0", "-1").items()))
                .containsExactly("a", "-1", "b", "2.5");
    }

    private HashReply rename(String from, String to, boolean nx) {
        return store.run(HashOp.RENAME, from, to, nx ? "1" : "0");
    }

    @Test
    void renameMovesEveryTypeWithItsExpiryAndReplicasHoldTheSameCopy() {
        writeOneOfEachType("", 60_000);
        store.advance(1_000);
        int renamesStart = shipped.size();

        for (String key : List.of("s", "h", "l", "set", "z")) {
            HashReply reply = rename(key, key + "2", false);
            assertThat(reply.count()).as(key).isEqualTo(1);
            assertThat(reply.version()).isPositive();
            assertThat(store.type(key)).isEqualTo("none");
            assertThat(store.run(HashOp.TYPE, key + "2").count()).as("%s keeps its TTL", key).isEqualTo(59_000);
        }
        assertOneOfEachType(active, "2");
        assertThat(shipped.subList(renamesStart, shipped.size())).as("one rename change per key, whatever its type")
                .extracting(Change::kind).containsOnly(Change.Kind.RENAME).hasSize(5);

        NodeStore replica = store.assertShippedChangesMakeTheSameCopy();
        assertOneOfEachType(replica, "2");
        assertThat(RecordingStore.run(replica, HashOp.TYPE, "z2").count()).isEqualTo(59_000);
        store.assertTailShipsOnThroughAFollower("value");
        assertOneOfEachType(store.assertSnapshotInstalledChunkByChunkMakesTheSameCopy(store.snapshot()), "2");
    }

    @Test
    void renameAnswersAsRedisDoes() {
        store.run(HashOp.SADD, "a", "m");
        store.run(HashOp.HSET, "b", "f", "v");

        assertThat(rename("missing", "x", false).count()).as("no such key").isEqualTo(-1);
        assertThat(rename("missing", "missing", true).count()).isEqualTo(-1);
        assertThat(rename("a", "a", false).count()).as("a key renamed to itself: OK").isEqualTo(1);
        assertThat(rename("a", "a", true).count()).as("RENAMENX to itself: 0").isZero();
        shipped.clear();
        assertThat(rename("a", "b", true).count()).as("RENAMENX onto an existing key").isZero();
        assertThat(shipped).as("nothing changed").isEmpty();

        assertThat(rename("a", "b", false).count()).as("RENAME replaces a key of another type").isEqualTo(1);
        assertThat(shipped).extracting(Change::kind)
                .containsExactly(Change.Kind.RENAME);
        assertThat(store.type("b")).isEqualTo("set");
        assertThat(store.run(HashOp.TYPE, "b").count()).as("no TTL").isZero();
        assertThat(rename("b", "c", true).count()).isEqualTo(1);
        assertThat(store.type("c")).isEqualTo("set");
    }

    @Test
    void anExpiredSourceIsNoSuchKeyAndAnExpiredDestinationDoesNotStopRenamenx() {
        active.put(0, bytes("gone"), bytes("v"), 1_000, false, Request.ANY_VERSION, 1);
        active.put(0, bytes("src"), bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        active.put(0, bytes("dst"), bytes("old"), 1_000, false, Request.ANY_VERSION, 1);
        store.advance(1_000);

        assertThat(rename("gone", "x", false).count()).isEqualTo(-1);
        assertThat(rename("src", "dst", true).count()).isEqualTo(1);
        assertThat(text(active.get(0, bytes("dst")).value())).isEqualTo("v");
        store.assertShippedChangesMakeTheSameCopy();
    }

    @Test
    void dumpAndRestoreRoundTripEveryTypeWithReplaceAndTtl() {
        writeOneOfEachType("", 60_000);
        writeOneOfEachType("2", 5_000); // the REPLACE targets, of the same types
        for (String key : List.of("s", "h", "l", "set", "z")) {
            byte[] payload = store.run(HashOp.DUMP, key).items().get(0);
            assertThat(restore(key + "2", "", "0", payload).count()).as("%s: BUSYKEY", key).isEqualTo(-1);
            assertThat(restore(key + "2", "R", "30000", payload).count()).isEqualTo(1);
            assertThat(store.run(HashOp.TYPE, key + "2").count()).as("the TTL given, not the dumped one").isEqualTo(30_000);
            assertThat(restore(key + "3", "A", Long.toString(1_000_000 + 90_000), payload).count()).isEqualTo(1);
            assertThat(store.run(HashOp.TYPE, key + "3").count()).as("ABSTTL").isEqualTo(90_000);
            assertThat(restore(key + "4", "", "0", payload).count()).isEqualTo(1);
            assertThat(store.run(HashOp.TYPE, key + "4").count()).as("ttl 0: none").isZero();
        }
        assertOneOfEachType(active, "2");
        assertOneOfEachType(active, "3");
        assertOneOfEachType(active, "4");
        assertThat(store.run(HashOp.DUMP, "missing").items()).as("DUMP of a missing key: nil").isEmpty();

        NodeStore replica = store.assertShippedChangesMakeTheSameCopy();
        assertOneOfEachType(replica, "4");
        store.assertTailShipsOnThroughAFollower("value");
    }

    @Test
    void restoreChecksAsRedisDoesInRedisOrder() {
        active.put(0, bytes("taken"), bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        byte[] good = DumpPayload.encode(new KeyContent(KeyContent.Type.STRING, List.of(bytes("x"))));
        byte[] damaged = good.clone();
        damaged[6] ^= 1;

        assertThat(restore("taken", "", "-1", bytes("junk")).count()).as("BUSYKEY comes first").isEqualTo(-1);
        assertThat(restore("k", "", "x", good).error()).isEqualTo("value is not an integer or out of range");
        assertThat(restore("k", "", "-1", good).error()).isEqualTo("Invalid TTL value, must be >= 0");
        assertThat(restore("k", "", "0", bytes("junk")).error()).isEqualTo("DUMP payload version or checksum are wrong");
        assertThat(restore("k", "", "0", damaged).error()).isEqualTo("DUMP payload version or checksum are wrong");
        assertThat(restore("taken", "R", "0", damaged).status()).isEqualTo(KvStatus.BAD_REQUEST);
        assertThat(text(active.get(0, bytes("taken")).value())).as("a refused REPLACE keeps the old value").isEqualTo("v");

        shipped.clear();
        assertThat(restore("taken", "RA", "999999", good).count()).as("an expiry already past").isEqualTo(1);
        assertThat(store.type("taken")).as("REPLACE removed the old value and created nothing").isEqualTo("none");
        assertThat(shipped).extracting(Change::kind).containsExactly(Change.Kind.REMOVAL);
        assertThat(restore("new", "A", "999999", good).count()).isEqualTo(1);
        assertThat(store.type("new")).isEqualTo("none");
    }

    private HashReply restore(String key, String flags, String ttl, byte[] payload) {
        return active.hash(0, bytes(key), HashOp.RESTORE, List.of(bytes(flags), bytes(ttl), payload), 1);
    }
}
