package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class StoredEntryTests {

    private final SlabChunk chunk = new SlabChunk(16, 4);

    @Test
    void anEntryWithoutATtlNeverExpiresAndHasNoTtlSlot() {
        StoredEntry entry = StoredEntry.of(chunk, 1, 10, 7, 0, 1_000);

        assertThat(entry.hasTtl()).isFalse();
        assertThat(entry.expiresAtMillis()).isZero();
        assertThat(entry.isExpired(Long.MAX_VALUE)).isFalse();
        assertThat(entry.ttlRemainingMillis(1_000)).isZero();
        assertThatThrownBy(entry::ttlSlot).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> entry.ttlSlot(3)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anEntryWithATtlExpiresAtItsDeadlineAndKeepsItsTtlSlot() {
        StoredEntry entry = StoredEntry.of(chunk, 1, 10, 7, 5_000, 1_000);
        entry.ttlSlot(3);

        assertThat(entry.hasTtl()).isTrue();
        assertThat(entry.isExpired(4_999)).isFalse();
        assertThat(entry.isExpired(5_000)).isTrue();
        assertThat(entry.ttlRemainingMillis(4_000)).isEqualTo(1_000);
        assertThat(entry.ttlRemainingMillis(6_000)).isEqualTo(1); // expired but not yet removed: never "no TTL"
        assertThat(entry.ttlSlot()).isEqualTo(3);
    }

    @Test
    void aMoveKeepsVersionExpiryAccessTimeAndBothSamplingSlots() {
        StoredEntry expiring = StoredEntry.of(chunk, 1, 10, 7, 5_000, 1_000);
        expiring.keySlot = 11;
        expiring.ttlSlot(3);
        SlabChunk other = new SlabChunk(16, 4);

        StoredEntry moved = expiring.movedTo(other, 2);

        assertThat(moved.chunk()).isSameAs(other);
        assertThat(moved.slot()).isEqualTo(2);
        assertThat(moved.length()).isEqualTo(10);
        assertThat(moved.version()).isEqualTo(7);
        assertThat(moved.expiresAtMillis()).isEqualTo(5_000);
        assertThat(moved.accessedAtMillis()).isEqualTo(1_000);
        assertThat(moved.keySlot).isEqualTo(11);
        assertThat(moved.ttlSlot()).isEqualTo(3);
        assertThat(StoredEntry.of(chunk, 0, 10, 8, 0, 1_000).movedTo(other, 3).hasTtl()).isFalse();
    }
}
