package io.zaris.spring;

import java.util.concurrent.atomic.LongAdder;

/**
 * The sizes of the entries this application writes (key bytes plus value bytes), as a running mean: the
 * basis of the {@code zaris.memory.estimated} meter until the store reports the bytes it holds.
 *
 * <p>The estimate assumes that what this application writes through the cache and {@code ZarisTemplate}
 * is representative of what the cluster holds; entries written by other clients (other applications, the
 * Redis protocol) are counted by the nodes but their sizes are not seen here.
 *
 * <p><b>Concurrency.</b> Two {@link LongAdder}s, updated by any writing thread without locks; a reader may
 * see a byte total and a count from slightly different moments, which only blurs an estimate.
 */
public final class EntrySizeSample {

    private final LongAdder entries = new LongAdder();
    private final LongAdder bytes = new LongAdder();

    /** Records one written entry. */
    public void record(int keyBytes, int valueBytes) {
        if (keyBytes < 0 || valueBytes < 0) {
            throw new IllegalArgumentException("sizes must be >= 0 but were key " + keyBytes + ", value " + valueBytes);
        }
        entries.increment();
        bytes.add((long) keyBytes + valueBytes);
    }

    /** Entries recorded so far. */
    public long sampledEntries() {
        return entries.sum();
    }

    /** Mean key plus value bytes of the recorded entries; 0 before the first. */
    public double meanEntryBytes() {
        long count = entries.sum();
        return count == 0 ? 0 : (double) bytes.sum() / count;
    }

    /**
     * Estimated bytes held by {@code storedEntries} entries: each costs the mean sampled key and value plus
     * {@code overheadPerEntry} bytes of bookkeeping. A pure function of its inputs and the sample.
     */
    public double estimateBytes(long storedEntries, int overheadPerEntry) {
        return storedEntries * (meanEntryBytes() + overheadPerEntry);
    }
}
