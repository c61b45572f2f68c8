package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The op log's ring: order across wrap-around and growth, both retention limits, and the catch-up contract. */
@Tag("unit")
class OpLogTests {

    @Test
    void keepsTheNewestChangesInOrderAcrossWrapAroundAndGrowth() {
        OpLog log = new OpLog(40, Long.MAX_VALUE);
        for (int revision = 1; revision <= 1000; revision++) {
            append(log, revision, 10);
        }
        assertThat(log.size()).isEqualTo(40);
        assertThat(log.since(960, 1000)).extracting(LoggedChange::revision)
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(961, 1000).boxed().toList());
        assertThat(log.since(959, 1000)).isNull();
        assertThat(log.since(995, 1000)).extracting(LoggedChange::revision).containsExactly(996L, 997L, 998L, 999L, 1000L);
    }

    /**
     * A list change is kept as it is, element and all, among field changes, across the ring's growth; its position and
     * element count against the byte bound like a field.
     */
    @Test
    void aListChangeIsKeptAsItIsBesideFieldChanges() {
        OpLog log = new OpLog(100, Long.MAX_VALUE);
        ByteKey list = new ByteKey(new byte[] {'l'});
        ByteKey hash = new ByteKey(new byte[] {'h'});
        io.zaris.model.Change push = io.zaris.model.Change.listInsert(1, 3, list.bytes(), 0, new byte[100], 0);
        log.appendList(push, list, LoggedChange.Kind.LIST_INSERT);
        log.append(2, 3, hash, new ByteKey(new byte[] {'f'}), LoggedChange.Kind.FIELD_PUT, 0);
        for (int revision = 3; revision <= 40; revision++) { // grows the ring past its first slots
            log.append(revision, 3, hash, new ByteKey(new byte[] {'f'}), LoggedChange.Kind.FIELD_PUT, 0);
        }

        java.util.List<LoggedChange> tail = log.since(0, 40);
        assertThat(tail.get(0).listChange()).isSameAs(push);
        assertThat(tail.get(0).field()).isNull();
        assertThat(ListLog.change(tail.get(0))).isSameAs(push);
        assertThat(tail.get(0).sizeBytes()).isEqualTo(LoggedChange.OVERHEAD_BYTES + 1 + push.field().length + 100);
        assertThat(tail.get(1).listChange()).isNull();
        assertThat(tail.get(1).field().bytes()).containsExactly('f');
        assertThatThrownBy(() -> ListLog.change(tail.get(1))).isInstanceOf(IllegalArgumentException.class);
        assertThat(log.bytes()).isEqualTo(tail.stream().mapToLong(LoggedChange::sizeBytes).sum());
    }

    /** A rename is one entry whatever its value's size: its source as the key, its destination as the field. */
    @Test
    void aRenameIsOneEntryNamingBothKeys() {
        OpLog log = new OpLog(100, Long.MAX_VALUE);
        ByteKey source = new ByteKey(new byte[] {'a'});
        ByteKey destination = new ByteKey(new byte[] {'d', 'e', 's', 't'});

        log.append(7, 2, source, destination, LoggedChange.Kind.RENAME, 1234);

        assertThat(log.since(6, 7)).singleElement().satisfies(rename -> {
            assertThat(rename.kind()).isEqualTo(LoggedChange.Kind.RENAME);
            assertThat(rename.key()).isEqualTo(source);
            assertThat(rename.field()).isEqualTo(destination);
            assertThat(rename.expiresAtMillis()).isEqualTo(1234);
            assertThat(rename.listChange()).isNull();
        });
        assertThat(log.bytes()).isEqualTo(LoggedChange.OVERHEAD_BYTES + 1 + 4);
    }

    @Test
    void sinceTheCurrentRevisionIsEmptyEvenWhenTheLogIsEmpty() {
        OpLog log = new OpLog(8, 1000);
        assertThat(log.since(5, 5)).isEmpty();
        assertThat(log.since(4, 5)).isNull();
    }

    @Test
    void dropsTheOldestChangesToStayWithinTheByteBudget() {
        OpLog log = new OpLog(100, 1000);
        for (int revision = 1; revision <= 50; revision++) {
            append(log, revision, 100 - LoggedChange.OVERHEAD_BYTES);
            assertThat(log.bytes()).isLessThanOrEqualTo(1000);
        }
        assertThat(log.size()).isEqualTo(10);
        assertThat(log.since(40, 50)).hasSize(10);
        assertThat(log.since(39, 50)).isNull();
    }

    @Test
    void keepsTheNewestChangeEvenWhenItAloneExceedsTheByteBudget() {
        OpLog log = new OpLog(100, 150);
        append(log, 1, 10);
        append(log, 2, 500);
        assertThat(log.size()).isEqualTo(1);
        assertThat(log.since(1, 2)).extracting(LoggedChange::revision).containsExactly(2L);
    }

    @Test
    void clearForgetsEverythingAndTheLogStartsAgainAfterASnapshot() {
        OpLog log = new OpLog(64, Long.MAX_VALUE);
        for (int revision = 1; revision <= 30; revision++) {
            append(log, revision, 10);
        }
        log.clear();
        assertThat(log.size()).isZero();
        assertThat(log.bytes()).isZero();
        assertThat(log.since(29, 30)).isNull();
        append(log, 31, 10);
        assertThat(log.since(30, 31)).extracting(LoggedChange::revision).containsExactly(31L);
    }

    @Test
    void aLogOfOneChangeKeepsOnlyTheNewest() {
        OpLog log = new OpLog(1, Long.MAX_VALUE);
        append(log, 1, 10);
        append(log, 2, 10);
        assertThat(log.size()).isEqualTo(1);
        assertThat(log.since(1, 2)).extracting(LoggedChange::revision).containsExactly(2L);
    }

    @Test
    void refusesLimitsBelowOne() {
        assertThatThrownBy(() -> new OpLog(0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OpLog(10, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Logs a put whose key takes {@code keyBytes}: what the byte budget counts besides the overhead. */
    private static void append(OpLog log, long revision, int keyBytes) {
        log.append(revision, 1, new ByteKey(new byte[keyBytes]), LoggedChange.Kind.PUT, 0);
    }
}
