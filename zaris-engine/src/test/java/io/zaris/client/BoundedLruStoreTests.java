package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class BoundedLruStoreTests {

    private static BoundedLruStore<String, String> store(int maxEntries, long maxWeight) {
        return new BoundedLruStore<>(maxEntries, maxWeight, String::length);
    }

    @Test
    void insertBeyondMaxEntriesEvictsTheLeastRecentlyUsed() {
        BoundedLruStore<String, String> store = store(3, 1_000);
        store.put("a", "1");
        store.put("b", "2");
        store.put("c", "3");
        store.get("a"); // a is now the most recently used
        store.put("d", "4");

        assertThat(store.get("b")).as("least recently used").isNull();
        assertThat(store.get("a")).isEqualTo("1");
        assertThat(store.get("c")).isEqualTo("3");
        assertThat(store.get("d")).isEqualTo("4");
        assertThat(store.size()).isEqualTo(3);
        assertThat(store.evictions()).isEqualTo(1);
    }

    @Test
    void insertBeyondMaxWeightEvictsUntilTheWeightFits() {
        BoundedLruStore<String, String> store = store(100, 10);
        store.put("a", "xxxx");
        store.put("b", "xxxx");
        store.put("c", "xxxxxx"); // 14 > 10: a leaves, 10 fits

        assertThat(store.get("a")).isNull();
        assertThat(store.get("b")).isNotNull();
        assertThat(store.get("c")).isNotNull();
        assertThat(store.weight()).isEqualTo(10);
    }

    @Test
    void aValueHeavierThanTheWholeBoundIsNotStoredAndEvictsNothing() {
        BoundedLruStore<String, String> store = store(100, 5);
        store.put("a", "xx");
        assertThat(store.put("big", "xxxxxx")).isFalse();

        assertThat(store.get("big")).isNull();
        assertThat(store.get("a")).isEqualTo("xx");
        assertThat(store.weight()).isEqualTo(2);
    }

    @Test
    void replacingAKeyAccountsOnlyTheNewWeight() {
        BoundedLruStore<String, String> store = store(100, 100);
        store.put("a", "xxxxx");
        store.put("a", "xx");

        assertThat(store.size()).isEqualTo(1);
        assertThat(store.weight()).isEqualTo(2);
    }

    @Test
    void removeOfASpecificValueLeavesAReplacementInPlace() {
        BoundedLruStore<String, String> store = store(10, 100);
        String first = new String("v");
        store.put("a", first);
        store.put("a", new String("v"));

        assertThat(store.remove("a", first)).as("identity, not equality").isFalse();
        assertThat(store.get("a")).isNotNull();
    }

    @Test
    void removeIfDropsMatchingValuesAndTheirWeight() {
        BoundedLruStore<String, String> store = store(10, 100);
        store.put("a", "keep");
        store.put("b", "drop");
        store.put("c", "drop");

        assertThat(store.removeIf("drop"::equals)).isEqualTo(2);
        assertThat(store.size()).isEqualTo(1);
        assertThat(store.weight()).isEqualTo(4);
    }

    @Test
    void boundsBelowOneAreRefused() {
        assertThatThrownBy(() -> store(0, 10)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 entries");
        assertThatThrownBy(() -> store(10, 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 weight");
    }
}
