package io.zaris.store;

import static io.zaris.store.RecordingStore.bytes;
import static io.zaris.store.RecordingStore.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.Change;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.protocol.Request;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The whole-key APPEND op: the suffix joined to the string in one step on the owner, the expiry kept to the
 * millisecond, Redis's outcomes on a missing, expired or other-typed key and past the longest string; replicas get
 * the put it makes. On a fake clock.
 */
@Tag("unit")
class AppendStoreTests {

    /** The longest string the tests allow unless they say otherwise. */
    private static final String LONGEST = "1000";

    private final RecordingStore store = new RecordingStore();
    private final NodeStore active = store.active();
    private final List<Change> shipped = store.shipped();

    private HashReply append(String key, String suffix) {
        return store.run(HashOp.APPEND, key, suffix, LONGEST);
    }

    @Test
    void aMissingKeyBecomesTheSuffixAndAStringIsJoined() {
        assertThat(append("k", "Hello").count()).isEqualTo(5);
        assertThat(append("k", " World").count()).isEqualTo(11);
        assertThat(append("k", "").count()).as("an empty suffix").isEqualTo(11);

        assertThat(text(active.get(0, bytes("k")).value())).isEqualTo("Hello World");
        assertThat(active.get(0, bytes("k")).ttlRemainingMillis()).as("created without a TTL").isZero();
        assertThat(shipped).extracting(Change::kind).containsOnly(Change.Kind.PUT).hasSize(3);
        store.assertShippedChangesMakeTheSameCopy();
        store.assertTailShipsOnThroughAFollower("value");
    }

    @Test
    void theStringKeepsItsExpiryToTheMillisecond() {
        active.put(0, bytes("k"), bytes("a"), 10_000, false, Request.ANY_VERSION, 1);
        long deadline = shipped.get(0).expiresAtMillis();
        store.advance(3_333);

        HashReply reply = append("k", "b");

        assertThat(reply.count()).isEqualTo(2);
        assertThat(reply.version()).isPositive();
        assertThat(shipped.get(shipped.size() - 1).expiresAtMillis()).as("the same deadline").isEqualTo(deadline);
        assertThat(active.get(0, bytes("k")).ttlRemainingMillis()).isEqualTo(6_667);
        NodeStore replica = store.assertShippedChangesMakeTheSameCopy();
        assertThat(replica.get(0, bytes("k")).ttlRemainingMillis()).isEqualTo(6_667);
    }

    @Test
    void anExpiredStringIsGoneAndTheSuffixStartsAfresh() {
        active.put(0, bytes("k"), bytes("old"), 1_000, false, Request.ANY_VERSION, 1);
        store.advance(1_000);

        assertThat(append("k", "new").count()).isEqualTo(3);

        assertThat(text(active.get(0, bytes("k")).value())).isEqualTo("new");
        assertThat(active.get(0, bytes("k")).ttlRemainingMillis()).isZero();
        assertThat(shipped.subList(1, shipped.size())).extracting(Change::kind)
                .as("the expired value's removal ships first").containsExactly(Change.Kind.REMOVAL, Change.Kind.PUT);
        store.assertShippedChangesMakeTheSameCopy();
    }

    @Test
    void aCollectionIsWrongTypeAndKeepsItsValue() {
        store.run(HashOp.HSET, "h", "f", "v");
        store.run(HashOp.RPUSH, "l", "x");
        store.run(HashOp.SADD, "s", "m");
        store.run(HashOp.ZADD, "z", "", "1", "m");
        int before = shipped.size();

        for (String key : List.of("h", "l", "s", "z")) {
            HashReply reply = append(key, "x");
            assertThat(reply.status()).as(key).isEqualTo(KvStatus.WRONG_TYPE);
            assertThat(store.type(key)).isNotEqualTo("string");
        }
        assertThat(shipped).as("nothing written").hasSize(before);
    }

    @Test
    void aResultPastTheLongestStringIsRefusedAndNothingIsWritten() {
        assertThat(store.run(HashOp.APPEND, "k", "abc", "5").count()).isEqualTo(3);
        assertThat(store.run(HashOp.APPEND, "k", "de", "5").count()).as("exactly the longest").isEqualTo(5);
        int before = shipped.size();

        HashReply refused = store.run(HashOp.APPEND, "k", "f", "5");

        assertThat(refused.status()).isEqualTo(KvStatus.BAD_REQUEST);
        assertThat(refused.error()).isEqualTo("string exceeds maximum allowed size (proto-max-bulk-len)");
        assertThat(text(active.get(0, bytes("k")).value())).isEqualTo("abcde");
        assertThat(shipped).hasSize(before);
        assertThat(store.run(HashOp.APPEND, "k", "f", "x").status()).as("a limit that is no number")
                .isEqualTo(KvStatus.BAD_REQUEST);
    }
}
