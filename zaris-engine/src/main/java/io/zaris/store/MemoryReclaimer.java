package io.zaris.store;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Gives memory back on the active owner: evicts by the configured policy while the node is over its
 * budget, and expires keys whose TTL passed. Every removal is an ordinary change of its segment (logged,
 * replicated under the partition's epoch), so replicas stay identical to their active owner.
 *
 * <p>Eviction (approximated, as in Redis): per victim, {@code evictionSamples} keys are sampled from one
 * random active segment (keys with a TTL only, for the volatile policies) and {@link VictimSelector} picks
 * one; an empty segment is skipped. Active expiry: segments are visited round-robin; each gets rounds of
 * 20 random keys with a TTL, repeated while more than a quarter of a round had expired (Redis's rule: a
 * segment with much expired data is worked on until it is mostly clean), within a bound per run.
 *
 * <p>Threads: {@link #evict} runs on request threads (the write path) and on the maintenance thread at
 * once; it holds at most one segment lock at a time and keeps no state. {@link #expire} keeps a cursor
 * and must be called from one thread only (the maintenance thread).
 */
public final class MemoryReclaimer {

    /** Keys examined per round of active expiry (Redis: {@code ACTIVE_EXPIRE_CYCLE_KEYS_PER_LOOP}). */
    static final int EXPIRY_ROUND_KEYS = 20;
    /** Random segments tried for a sample before giving up a victim search as "nothing to evict". */
    static final int SEGMENT_TRIES = 16;

    private final NodeStore store;
    private final MemoryOptions options;
    /** Next position in the active segments for {@link #expire}; maintenance thread only. */
    private int expiryCursor;

    public MemoryReclaimer(NodeStore store, MemoryOptions options) {
        this.store = store;
        this.options = options;
    }

    public MemoryOptions options() {
        return options;
    }

    /** Whether the node's charged bytes exceed the budget. */
    public boolean overBudget() {
        return store.memory().usedBytes() > options.maxBytes();
    }

    /** Bytes the node holds beyond its budget (0 or negative when within it). */
    public long excessBytes() {
        return store.memory().usedBytes() - options.maxBytes();
    }

    /** Bytes charged for the given segments together. */
    public long bytesOf(ActiveSegments segments) {
        long total = 0;
        for (int i = 0; i < segments.count(); i++) {
            total += store.segmentBytes(segments.segment(i));
        }
        return total;
    }

    /**
     * Evicts from the given segments until the node is within its budget, {@code maxVictims} keys were
     * removed, or no key can be evicted.
     *
     * @return keys removed
     */
    public int evict(ActiveSegments active, int maxVictims, RandomGenerator random) {
        return evict(active, maxVictims, Long.MAX_VALUE, random);
    }

    /**
     * Evicts from the given segments until {@code bytesToFree} bytes were freed ({@link Long#MAX_VALUE}:
     * until the node is within its budget), {@code maxVictims} keys were removed, or no key can be evicted.
     *
     * @return keys removed
     */
    public int evict(ActiveSegments active, int maxVictims, long bytesToFree, RandomGenerator random) {
        if (!options.policy().evicts()) {
            return 0;
        }
        int removed = 0;
        long freed = 0;
        List<EvictionCandidate> sample = new ArrayList<>(options.evictionSamples());
        int raced = 0;
        while (removed < maxVictims && raced < SEGMENT_TRIES
                && (bytesToFree == Long.MAX_VALUE ? overBudget() : freed < bytesToFree)) {
            Victim victim = findVictim(active, random, sample);
            if (victim == null) {
                return removed;
            }
            long now = store.time().currentTimeMillis();
            long bytes = store.segment(victim.candidate().segment()).evict(victim.candidate(), victim.epoch(), now);
            if (bytes >= 0) {
                removed++;
                freed += bytes;
                raced = 0;
            } else {
                raced++; // written since it was sampled: sample again, a bounded number of times
            }
        }
        return removed;
    }

    private record Victim(EvictionCandidate candidate, long epoch) {
    }

    /** A victim from one random non-empty active segment, or {@code null} when none was found. */
    private Victim findVictim(ActiveSegments active, RandomGenerator random, List<EvictionCandidate> sample) {
        if (active.count() == 0) {
            return null;
        }
        boolean ttlOnly = options.policy().onlyKeysWithTtl();
        int tries = Math.min(active.count(), SEGMENT_TRIES);
        int start = random.nextInt(active.count());
        for (int attempt = 0; attempt < tries + active.count(); attempt++) {
            // A few random tries first; then every segment in order, so a sparse node still finds its keys.
            int i = attempt < tries ? random.nextInt(active.count()) : (start + attempt - tries) % active.count();
            sample.clear();
            store.segment(active.segment(i)).sample(ttlOnly, options.evictionSamples(), random, sample);
            int chosen = VictimSelector.choose(options.policy(), sample, store.time().currentTimeMillis());
            if (chosen >= 0) {
                return new Victim(sample.get(chosen), active.epoch(i));
            }
        }
        return null;
    }

    /**
     * One run of active expiry over the active segments, examining at most {@code maxChecks} keys.
     *
     * @return keys expired
     */
    public int expire(ActiveSegments active, int maxChecks, RandomGenerator random) {
        int checks = 0;
        int expired = 0;
        for (int visited = 0; visited < active.count() && checks < maxChecks; visited++) {
            int i = Math.floorMod(expiryCursor++, active.count());
            Segment segment = store.segment(active.segment(i));
            Segment.ExpiryRound round;
            do {
                round = segment.expireSample(Math.min(EXPIRY_ROUND_KEYS, maxChecks - checks), random, active.epoch(i),
                        store.time().currentTimeMillis());
                checks += round.examined();
                expired += round.expired();
            } while (round.expired() * 4 > round.examined() && checks < maxChecks);
        }
        return expired;
    }
}
