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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Sets in the store: Redis's answers, types, expiry, memory, and replication member by member. */
@Tag("unit")
class SetStoreTests {

    private final RecordingStore store = new RecordingStore();
    private final NodeStore active = store.active();
    private final List<Change> shipped = store.shipped();

    @Test
    void setCommandsAnswerAsRedisDoes() {
        assertThat(set(HashOp.SADD, "s", "a", "b", "a").count()).as("a counted once").isEqualTo(2);
        assertThat(set(HashOp.SADD, "s", "b", "c").count()).isEqualTo(1);
        assertThat(texts(set(HashOp.SMEMBERS, "s").items())).containsExactly("a", "b", "c");
        assertThat(set(HashOp.SCARD, "s").count()).isEqualTo(3);
        assertThat(texts(set(HashOp.SMISMEMBER, "s", "a", "nope", "c").items())).containsExactly("a", null, "c");
        assertThat(set(HashOp.SREM, "s", "a", "nope").count()).isEqualTo(1);
        assertThat(type("s")).isEqualTo("set");
        assertThat(set(HashOp.SREM, "s", "b", "c").count()).isEqualTo(2);
        assertThat(type("s")).as("a set without members no longer exists").isEqualTo("none");
        assertThat(set(HashOp.SMEMBERS, "missing").items()).isEmpty();
        assertThat(set(HashOp.SCARD, "missing").count()).isZero();
        assertThat(set(HashOp.SPOP, "missing").items()).isEmpty();
    }

    @Test
    void spopRemovesWhatItAnswersAndSrandmemberFollowsRedisCountRule() {
        set(HashOp.SADD, "s", "1", "2", "3", "4", "5");
        List<String> popped = texts(set(HashOp.SPOP, "s", "2").items());
        assertThat(popped).hasSize(2).doesNotHaveDuplicates();
        List<String> left = texts(set(HashOp.SMEMBERS, "s").items());
        assertThat(left).hasSize(3).doesNotContainAnyElementsOf(popped);
        Set<String> all = new HashSet<>(popped);
        all.addAll(left);
        assertThat(all).containsExactlyInAnyOrder("1", "2", "3", "4", "5");
        assertThat(shipped.subList(shipped.size() - 2, shipped.size())).extracting(Change::kind)
                .as("each popped member ships as its removal").containsOnly(Change.Kind.FIELD_REMOVAL);

        assertThat(texts(set(HashOp.SRANDMEMBER, "s", "10").items())).as("at most the whole set, distinct")
                .containsExactlyInAnyOrderElementsOf(left);
        assertThat(texts(set(HashOp.SRANDMEMBER, "s", "-7").items())).hasSize(7).isSubsetOf(left);
        assertThat(set(HashOp.SRANDMEMBER, "s", "0").items()).isEmpty();
        assertThat(set(HashOp.SCARD, "s").count()).as("SRANDMEMBER removes nothing").isEqualTo(3);
        assertThat(set(HashOp.SPOP, "s", "-1").error()).isEqualTo("value is out of range, must be positive");
        assertThat(set(HashOp.SPOP, "s", "x").error()).isEqualTo("value is not an integer or out of range");
        assertThat(set(HashOp.SRANDMEMBER, "s", "-2000000").status()).isEqualTo(KvStatus.BAD_REQUEST);
        assertThat(texts(set(HashOp.SPOP, "s", "9").items())).containsExactlyInAnyOrderElementsOf(left);
        assertThat(type("s")).isEqualTo("none");
    }

    @Test
    void aCommandOnTheOtherTypeIsRefused() {
        active.put(0, bytes("str"), bytes("v"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        set(HashOp.SADD, "s", "m");
        store.run(HashOp.HSET, "h", "f", "v");

        assertThat(set(HashOp.SADD, "str", "m").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(set(HashOp.SADD, "h", "m").error()).startsWith("WRONGTYPE ");
        assertThat(set(HashOp.SMEMBERS, "h").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(store.run(HashOp.HSET, "s", "f", "v").status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(store.run(HashOp.HGETALL, "s").error()).startsWith("WRONGTYPE ");
        assertThatThrownBy(() -> active.get(0, bytes("s"))).isInstanceOf(WrongTypeException.class);
        assertThat(active.increment(0, bytes("s"), 1, 1).status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(texts(set(HashOp.SMEMBERS, "s").items())).as("unchanged by the refused writes").containsExactly("m");

        active.put(0, bytes("s"), bytes("now a string"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        assertThat(type("s")).isEqualTo("string");
    }

    @Test
    void aSetExpiresWholeAndAnAddAfterItsExpiryStartsAFreshSet() {
        set(HashOp.SADD, "s", "old");
        assertThat(active.touch(0, bytes("s"), 5_000, 1).status()).isEqualTo(KvStatus.OK);
        assertThat(shipped.get(shipped.size() - 1).kind()).as("only the expiry ships").isEqualTo(Change.Kind.EXPIRY);
        set(HashOp.SADD, "s", "kept");
        assertThat(store.run(HashOp.TYPE, "s").count()).as("an add keeps the set's TTL").isEqualTo(5_000);

        store.advance(5_000);
        assertThat(type("s")).isEqualTo("none");
        shipped.clear();
        set(HashOp.SADD, "s", "new");

        assertThat(texts(set(HashOp.SMEMBERS, "s").items())).containsExactly("new");
        assertThat(store.run(HashOp.TYPE, "s").count()).isZero();
        assertThat(shipped).extracting(Change::kind).as("replicas drop the expired set before the new member")
                .containsExactly(Change.Kind.REMOVAL, Change.Kind.MEMBER_PUT);
    }

    @Test
    void memoryIsChargedPerMemberAndFreedWithTheSet() {
        long empty = active.segmentBytes(0);
        set(HashOp.SADD, "s", "m1");
        long oneMember = active.segmentBytes(0);
        set(HashOp.SADD, "s", "member2");
        long twoMembers = active.segmentBytes(0);

        assertThat(twoMembers - oneMember).isEqualTo(SetEntry.MEMBER_OVERHEAD_BYTES + 7);
        assertThat(active.memory().usedBytes()).isEqualTo(twoMembers);
        set(HashOp.SADD, "s", "member2");
        assertThat(active.segmentBytes(0)).as("a member already there costs nothing more").isEqualTo(twoMembers);
        set(HashOp.SREM, "s", "member2");
        assertThat(active.segmentBytes(0)).isEqualTo(oneMember);
        active.delete(0, bytes("s"), Request.ANY_VERSION, 1);
        assertThat(active.segmentBytes(0)).isEqualTo(empty);
        assertThat(active.memory().usedBytes()).isEqualTo(empty);
    }

    @Test
    void anAddToALargeSetShipsOnlyTheMemberItAdded() {
        for (int i = 0; i < 1_000; i++) {
            set(HashOp.SADD, "big", "m" + i);
        }
        shipped.clear();

        assertThat(set(HashOp.SADD, "big", "m500", "new").count()).isEqualTo(1);

        assertThat(shipped).as("a member already there ships nothing").hasSize(1);
        Change change = shipped.get(0);
        assertThat(change.kind()).isEqualTo(Change.Kind.MEMBER_PUT);
        assertThat(text(change.field())).isEqualTo("new");
        assertThat(change.value()).isNull();
        assertThat(change.sizeBytes()).isLessThan(100);
    }

    @Test
    void aSetGrownAndShrunkThroughItsTablesGrowthsReplicatesAlikeEveryWay() {
        Set<String> model = new HashSet<>();
        for (int i = 0; i < 3_000; i++) { // past the compact layout and through five growths, a member per write
            assertThat(set(HashOp.SADD, "big", "m" + i).count()).isEqualTo(1);
            assertThat(set(HashOp.SADD, "big", "m" + i).count()).as("there already").isZero();
            model.add("m" + i);
            if (i % 3 == 0) {
                assertThat(set(HashOp.SREM, "big", "m" + (i / 3)).count()).isEqualTo(model.remove("m" + (i / 3)) ? 1 : 0);
            }
        }

        assertThat(set(HashOp.SCARD, "big").count()).isEqualTo(model.size());
        assertThat(texts(set(HashOp.SMEMBERS, "big").items())).containsExactlyInAnyOrderElementsOf(model);
        assertThat(texts(set(HashOp.SMISMEMBER, "big", "m2999", "m1").items())).containsExactly("m2999", null);
        store.assertShippedChangesMakeTheSameCopy();
        store.assertSnapshotInstalledChunkByChunkMakesTheSameCopy(store.snapshot());
        store.assertTailShipsOnThroughAFollower("member");
    }

    @Test
    void aReplicaApplyingTheShippedChangesHoldsTheSameCopy() {
        writeMixedHistory();

        NodeStore replica = store.assertShippedChangesMakeTheSameCopy();

        assertThat(texts(RecordingStore.run(replica, HashOp.SMEMBERS, "s").items())).containsExactly("a", "c", "d");
        assertThat(text(RecordingStore.run(replica, HashOp.TYPE, "flip").items().get(0))).isEqualTo("set");
    }

    @Test
    void aSnapshotCarriesASetMemberByMemberAndInstallsTheSameCopy() {
        writeMixedHistory();
        SegmentSnapshot snapshot = store.snapshot();
        assertThat(snapshot.entries()).extracting(Change::kind).contains(Change.Kind.MEMBER_PUT)
                .containsOnly(Change.Kind.FIELD_PUT, Change.Kind.MEMBER_PUT);

        NodeStore replica = store.assertSnapshotInstalledChunkByChunkMakesTheSameCopy(snapshot);

        assertThat(RecordingStore.run(replica, HashOp.TYPE, "s").count()).isEqualTo(60_000);
        assertThat(text(RecordingStore.run(replica, HashOp.TYPE, "s").items().get(0))).isEqualTo("set");
    }

    @Test
    void aTailShipsMembersChangedAgainLaterAsSupersededAndAFollowerCanShipItOn() {
        writeMixedHistory();

        store.assertTailShipsOnThroughAFollower("member");
    }

    @Test
    void aStoreReplacesTheKeyOfAnyTypeInOneWrite() {
        active.put(0, bytes("d"), bytes("string"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        shipped.clear();

        assertThat(store.run(HashOp.SSTORE, "d", "a", "b", "a").count()).isEqualTo(2);

        assertThat(type("d")).isEqualTo("set");
        assertThat(texts(set(HashOp.SMEMBERS, "d").items())).containsExactly("a", "b");
        assertThat(shipped).extracting(Change::kind).as("the string's removal, then each member")
                .containsExactly(Change.Kind.REMOVAL, Change.Kind.MEMBER_PUT, Change.Kind.MEMBER_PUT);
        assertThat(store.run(HashOp.SSTORE, "d").count()).isZero();
        assertThat(type("d")).as("an empty result leaves the key absent").isEqualTo("none");
    }

    @Test
    void aSetAndAHashWithTheSameFieldsDigestApart() {
        set(HashOp.SADD, "k", "a");
        NodeStore other = store.newStore();
        other.hash(0, bytes("k"), HashOp.HSET, List.of(bytes("a"), new byte[0]), 1);

        assertThat(other.segmentDigest(0)).isNotEqualTo(active.segmentDigest(0));
    }

    /** Members added again and removed, a set removed and added again, a key turning from set to hash to set. */
    private void writeMixedHistory() {
        set(HashOp.SADD, "s", "a", "b");
        set(HashOp.SADD, "s", "a", "c");
        set(HashOp.SREM, "s", "b");
        set(HashOp.SADD, "s", "b", "d");
        set(HashOp.SREM, "s", "b");
        active.touch(0, bytes("s"), 60_000, 1);
        store.run(HashOp.HSET, "flip", "x", "1");
        active.delete(0, bytes("flip"), Request.ANY_VERSION, 1);
        set(HashOp.SADD, "flip", "x");
        active.put(0, bytes("str"), bytes("string"), Request.NO_TTL, false, Request.ANY_VERSION, 1);
        set(HashOp.SADD, "gone", "x");
        active.delete(0, bytes("gone"), Request.ANY_VERSION, 1);
        store.run(HashOp.HSET, "h", "f", "v");
        store.run(HashOp.SSTORE, "str", "x", "y");
        store.run(HashOp.SSTORE, "dest", "p");
        store.run(HashOp.SSTORE, "dest", "q", "r");
        store.run(HashOp.SSTORE, "emptied", "z");
        store.run(HashOp.SSTORE, "emptied");
    }

    private HashReply set(HashOp op, String key, String... args) {
        return store.run(op, key, args);
    }

    private String type(String key) {
        return store.type(key);
    }
}
