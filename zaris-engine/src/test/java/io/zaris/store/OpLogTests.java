package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.protocol.Change;
import org.junit.jupiter.api.Test;

/** The op log's ring: order across wrap-around and growth, both retention limits, and the catch-up contract. */
class OpLogTests {

    @Test
    void keepsTheNewestChangesInOrderAcrossWrapAroundAndGrowth() {
        OpLog log = new OpLog(40, Long.MAX_VALUE);
        for (int revision = 1; revision <= 1000; revision++) {
            log.append(change(revision, 10));
        }
        assertThat(log.size()).isEqualTo(40);
        assertThat(log.since(960, 1000)).extracting(Change::revision)
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(961, 1000).boxed().toList());
        assertThat(log.since(959, 1000)).isNull();
        assertThat(log.since(995, 1000)).extracting(Change::revision).containsExactly(996L, 997L, 998L, 999L, 1000L);
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
            log.append(change(revision, 100 - Change.OVERHEAD_BYTES));
            assertThat(log.bytes()).isLessThanOrEqualTo(1000);
        }
        assertThat(log.size()).isEqualTo(10);
        assertThat(log.since(40, 50)).hasSize(10);
        assertThat(log.since(39, 50)).isNull();
    }

    @Test
    void keepsTheNewestChangeEvenWhenItAloneExceedsTheByteBudget() {
        OpLog log = new OpLog(100, 150);
        log.append(change(1, 10));
        log.append(change(2, 500));
        assertThat(log.size()).isEqualTo(1);
        assertThat(log.since(1, 2)).extracting(Change::revision).containsExactly(2L);
    }

    @Test
    void clearForgetsEverythingAndTheLogStartsAgainAfterASnapshot() {
        OpLog log = new OpLog(64, Long.MAX_VALUE);
        for (int revision = 1; revision <= 30; revision++) {
            log.append(change(revision, 10));
        }
        log.clear();
        assertThat(log.size()).isZero();
        assertThat(log.bytes()).isZero();
        assertThat(log.since(29, 30)).isNull();
        log.append(change(31, 10));
        assertThat(log.since(30, 31)).extracting(Change::revision).containsExactly(31L);
    }

    @Test
    void aLogOfOneChangeKeepsOnlyTheNewest() {
        OpLog log = new OpLog(1, Long.MAX_VALUE);
        log.append(change(1, 10));
        log.append(change(2, 10));
        assertThat(log.size()).isEqualTo(1);
        assertThat(log.since(1, 2)).extracting(Change::revision).containsExactly(2L);
    }

    @Test
    void refusesLimitsBelowOne() {
        assertThatThrownBy(() -> new OpLog(0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OpLog(10, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keepsCopiesOfKeysAndValuesNotTheArraysItWasHanded() {
        OpLog log = new OpLog(8, 10_000);
        byte[] key = {1, 2, 3};
        byte[] value = {4, 5, 6, 7};
        log.append(new Change(1, 3, key, value, 42));
        key[0] = 9;
        value[0] = 9;
        Change kept = log.since(0, 1).get(0);
        assertThat(kept.key()).containsExactly(1, 2, 3);
        assertThat(kept.value()).containsExactly(4, 5, 6, 7);
        assertThat(kept.epoch()).isEqualTo(3);
        assertThat(kept.expiresAtMillis()).isEqualTo(42);
    }

    /**
     * Random changes (removals, empty values, values larger than the whole budget) against a plain list: the log
     * always holds a suffix of what was appended, newest included, byte for byte, within both limits.
     */
    @Test
    void holdsAnExactSuffixOfTheAppendedChangesWithinItsLimits() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        for (int round = 0; round < 200; round++) {
            int maxChanges = 1 + random.nextInt(64);
            long maxBytes = 1 + random.nextInt(8_000);
            OpLog log = new OpLog(maxChanges, maxBytes);
            java.util.List<Change> appended = new java.util.ArrayList<>();
            for (long revision = 1; revision <= 300; revision++) {
                byte[] key = new byte[1 + random.nextInt(20)];
                random.nextBytes(key);
                byte[] value = null;
                int kind = random.nextInt(10);
                if (kind > 0) {
                    value = new byte[kind == 9 ? random.nextInt(10_000) : random.nextInt(300)];
                    random.nextBytes(value);
                }
                Change change = new Change(revision, random.nextInt(5), key, value, random.nextInt(3));
                log.append(change);
                appended.add(change);

                assertThat(log.size()).isBetween(1, maxChanges);
                assertThat(log.bytes() <= maxBytes || log.size() == 1).isTrue();
                java.util.List<Change> kept = log.since(revision - log.size(), revision);
                assertThat(kept).hasSize(log.size());
                assertThat(log.since(revision - log.size() - 1, revision)).isNull();
                for (int i = 0; i < kept.size(); i++) {
                    Change expected = appended.get(appended.size() - kept.size() + i);
                    Change actual = kept.get(i);
                    assertThat(actual.revision()).isEqualTo(expected.revision());
                    assertThat(actual.epoch()).isEqualTo(expected.epoch());
                    assertThat(actual.expiresAtMillis()).isEqualTo(expected.expiresAtMillis());
                    assertThat(actual.key()).isEqualTo(expected.key());
                    assertThat(actual.value()).isEqualTo(expected.value());
                }
            }
        }
    }

    private static Change change(long revision, int valueBytes) {
        return new Change(revision, 1, new byte[0], new byte[valueBytes], 0);
    }
}
