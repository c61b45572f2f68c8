package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.VersionedValue;
import io.zaris.protocol.SegmentInvalidations;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The near cache's bookkeeping with plain objects for connections and a hand-driven clock. */
class NearCacheTests {

    private static final Object CONNECTION = new Object();
    private static final int SEGMENT = 5;
    private static final long EPOCH = 3;

    private final NearCache near = new NearCache(NearCacheOptions.builder().maxEntries(100).maxBytes(1 << 20).build());

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static VersionedValue value(String text, long version) {
        return new VersionedValue(bytes(text), version, 0);
    }

    private VersionedValue lookup(String key) {
        return near.lookup(bytes(key), CONNECTION, true, EPOCH, 0);
    }

    @Test
    void aFilledValueIsServedWithItsVersion() {
        near.fill(bytes("k"), SEGMENT, near.stampOf(SEGMENT), value("v", 9), CONNECTION, EPOCH, 0);

        VersionedValue hit = lookup("k");
        assertThat(hit).isNotNull();
        assertThat(new String(hit.value(), StandardCharsets.UTF_8)).isEqualTo("v");
        assertThat(hit.version()).isEqualTo(9);
        assertThat(near.stats().hits()).isEqualTo(1);
    }

    @Test
    void anInvalidationBetweenSendAndAnswerKeepsTheAnswerOut() {
        long stamp = near.stampOf(SEGMENT);
        near.invalidated(new SegmentInvalidations(SEGMENT, new long[] {42}, List.of(bytes("k"))));
        near.fill(bytes("k"), SEGMENT, stamp, value("old", 41), CONNECTION, EPOCH, 0);

        assertThat(lookup("k")).as("the read may have seen the value before the change").isNull();
        assertThat(near.stats().misses()).isEqualTo(1);
    }

    @Test
    void anInvalidationDropsACachedKey() {
        near.fill(bytes("k"), SEGMENT, near.stampOf(SEGMENT), value("v", 1), CONNECTION, EPOCH, 0);
        near.invalidated(new SegmentInvalidations(SEGMENT, new long[] {2}, List.of(bytes("k"))));

        assertThat(lookup("k")).isNull();
        assertThat(near.stats().entries()).isZero();
    }

    @Test
    void anEntryIsNotServedUnderANewEpochAndIsDropped() {
        near.fill(bytes("k"), SEGMENT, near.stampOf(SEGMENT), value("v", 1), CONNECTION, EPOCH, 0);

        assertThat(near.lookup(bytes("k"), CONNECTION, true, EPOCH + 1, 0)).isNull();
        assertThat(near.stats().entries()).isZero();
    }

    @Test
    void anEntryIsNotServedOverAClosedConnection() {
        near.fill(bytes("k"), SEGMENT, near.stampOf(SEGMENT), value("v", 1), CONNECTION, EPOCH, 0);

        assertThat(near.lookup(bytes("k"), CONNECTION, false, EPOCH, 0)).isNull();
    }

    @Test
    void forgettingAConnectionDropsOnlyItsEntries() {
        Object other = new Object();
        near.fill(bytes("a"), SEGMENT, near.stampOf(SEGMENT), value("v", 1), CONNECTION, EPOCH, 0);
        near.fill(bytes("b"), SEGMENT, near.stampOf(SEGMENT), value("v", 1), other, EPOCH, 0);

        near.forget(CONNECTION);

        assertThat(near.stats().entries()).isEqualTo(1);
        assertThat(near.lookup(bytes("b"), other, true, EPOCH, 0)).isNotNull();
    }

    @Test
    void aValueWithATimeToLiveExpiresCountingFromWhenTheReadWasSent() {
        long sentAt = 1_000_000;
        near.fill(bytes("k"), SEGMENT, near.stampOf(SEGMENT), new VersionedValue(bytes("v"), 1, 10), CONNECTION, EPOCH,
                sentAt);

        VersionedValue early = near.lookup(bytes("k"), CONNECTION, true, EPOCH, sentAt + 4_000_000);
        assertThat(early).isNotNull();
        assertThat(early.ttlRemainingMillis()).isEqualTo(6);
        assertThat(near.lookup(bytes("k"), CONNECTION, true, EPOCH, sentAt + 10_000_000)).isNull();
    }

    @Test
    void absentKeysAreNotCached() {
        near.fill(bytes("k"), SEGMENT, near.stampOf(SEGMENT), null, CONNECTION, EPOCH, 0);

        assertThat(near.stats().entries()).isZero();
    }

    @Test
    void bytesHeldCountKeyValueAndOverheadAndStayWithinTheBound() {
        NearCache small = new NearCache(NearCacheOptions.builder().maxEntries(1_000)
                .maxBytes(3L * (NearCache.ENTRY_OVERHEAD_BYTES + 2 + 10)).build());
        for (int i = 0; i < 10; i++) {
            small.fill(bytes("k" + i), SEGMENT, small.stampOf(SEGMENT), value("0123456789", 1), CONNECTION, EPOCH, 0);
        }

        assertThat(small.stats().entries()).isEqualTo(3);
        assertThat(small.stats().bytes()).isEqualTo(3L * (NearCache.ENTRY_OVERHEAD_BYTES + 2 + 10));
        assertThat(small.stats().evictions()).isEqualTo(7);
    }
}
