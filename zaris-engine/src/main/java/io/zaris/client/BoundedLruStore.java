package io.zaris.client;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A map bounded by entry count and by total weight (bytes), evicting the least recently used entry first.
 *
 * <p>Eviction: after every insert, the eldest entries by access order leave until both bounds hold again. An
 * entry heavier than the whole weight bound is not stored at all (it would only evict everything else and
 * then itself).
 *
 * <p>Concurrency: every method holds the store's monitor, briefly (a hash lookup and a relink; eviction is
 * amortised O(1) per insert). A single lock keeps the two bounds exact and the code obvious; a read hit costs
 * one uncontended lock, tens of nanoseconds, well inside the near cache's budget.
 */
final class BoundedLruStore<K, V> {

    private final int maxEntries;
    private final long maxWeight;
    private final ToLongFunction<V> weigher;
    /** Access order: the eldest entry is the least recently used. Guarded by {@code this}. */
    private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(16, 0.75f, true);
    /** Sum of the weights of {@code entries}. Guarded by {@code this}. */
    private long weight;
    /** Entries evicted to keep the bounds. Guarded by {@code this}. */
    private long evictions;

    BoundedLruStore(int maxEntries, long maxWeight, ToLongFunction<V> weigher) {
        if (maxEntries < 1 || maxWeight < 1) {
            throw new IllegalArgumentException("bounds must be >= 1 but were " + maxEntries + " entries, "
                    + maxWeight + " weight");
        }
        this.maxEntries = maxEntries;
        this.maxWeight = maxWeight;
        this.weigher = weigher;
    }

    /** The value, counted as a use; {@code null} when absent. */
    synchronized V get(K key) {
        return entries.get(key);
    }

    /**
     * Stores {@code value} under {@code key} (replacing any), then evicts the least recently used entries until
     * both bounds hold. Returns whether the value was stored: {@code false} when it alone outweighs the bound.
     */
    synchronized boolean put(K key, V value) {
        long w = weigher.applyAsLong(value);
        if (w > maxWeight) {
            remove(key);
            return false;
        }
        V previous = entries.put(key, value);
        if (previous != null) {
            weight -= weigher.applyAsLong(previous);
        }
        weight += w;
        Iterator<Map.Entry<K, V>> eldest = entries.entrySet().iterator();
        while (entries.size() > maxEntries || weight > maxWeight) {
            Map.Entry<K, V> victim = eldest.next();
            weight -= weigher.applyAsLong(victim.getValue());
            eldest.remove();
            evictions++;
        }
        return true;
    }

    /** Removes whatever {@code key} maps to; returns it or {@code null}. */
    synchronized V remove(K key) {
        V removed = entries.remove(key);
        if (removed != null) {
            weight -= weigher.applyAsLong(removed);
        }
        return removed;
    }

    /** Removes {@code key} only while it still maps to this very {@code value} (identity). */
    synchronized boolean remove(K key, V value) {
        V current = entries.get(key);
        if (current != value || current == null) {
            return false;
        }
        remove(key);
        return true;
    }

    /** Removes every entry whose value matches; returns how many. O(size): for rare events only. */
    synchronized int removeIf(Predicate<V> doomed) {
        int removed = 0;
        for (Iterator<V> it = entries.values().iterator(); it.hasNext(); ) {
            V value = it.next();
            if (doomed.test(value)) {
                weight -= weigher.applyAsLong(value);
                it.remove();
                removed++;
            }
        }
        return removed;
    }

    synchronized int size() {
        return entries.size();
    }

    /** Total weight held now; never above the bound once an insert returned. */
    synchronized long weight() {
        return weight;
    }

    synchronized long evictions() {
        return evictions;
    }
}
