package io.zaris.store;

/**
 * The heap an entry is charged for: its key bytes, its value's slot ({@link ValueSlabs#slotBytes}: the value
 * rounded up to its size class) and {@link #OVERHEAD_BYTES}, an estimate of
 * everything else one entry costs on a 64-bit JVM with compressed references (the default below 32 GiB):
 *
 * <table>
 *   <caption>Per-entry overhead estimate</caption>
 *   <tr><th>object</th><th>bytes</th></tr>
 *   <tr><td>{@code ConcurrentHashMap} node (header, hash, key, value, next)</td><td>32</td></tr>
 *   <tr><td>its share of the map's table (load factor ≤ 0.75, power-of-two sizing)</td><td>8</td></tr>
 *   <tr><td>{@link ByteKey} (header, array reference, cached hash)</td><td>24</td></tr>
 *   <tr><td>key array header and alignment</td><td>20</td></tr>
 *   <tr><td>{@link StoredEntry} (header, chunk reference, slot and length, version, access time, sampling
 *   slot, freed flag; with a TTL also expiry and TTL sampling slot): 48, or 56 with a TTL, charged as 56</td><td>56</td></tr>
 *   <tr><td>its value slot's owner reference and free-stack entry in its {@link SlabChunk}</td><td>8</td></tr>
 *   <tr><td>its slots in the sampling arrays (all keys, keys with a TTL), amortised growth</td><td>8</td></tr>
 * </table>
 *
 * The estimate leaves out what is not per entry (free slots of partly used chunks, about an eighth of a
 * class's slots at most; the op log, which has its own byte bound; network buffers; the JVM itself), which is why the default budget is a fraction of the heap, not all of it.
 */
public final class EntrySize {

    /** Bytes charged per entry on top of its key and value bytes. */
    public static final int OVERHEAD_BYTES = 156;

    private EntrySize() {
    }

    /** Bytes charged for an entry with a key of {@code keyBytes} and a value of {@code valueBytes}. */
    public static long of(int keyBytes, int valueBytes) {
        return (long) OVERHEAD_BYTES + keyBytes + ValueSlabs.slotBytes(valueBytes);
    }
}
