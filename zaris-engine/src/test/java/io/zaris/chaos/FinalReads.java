package io.zaris.chaos;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Once the cluster healed: reads every key the workload may have written, with a client of its own, so every
 * acknowledged write that no later write replaced is checked. A key whose read is not answered is tried again
 * a few times; every try is recorded, so a status that still reaches the application counts.
 */
final class FinalReads {

    /** Reads of one key before it counts as unreadable. */
    static final int TRIES = 5;
    /** Pause between tries of one key. */
    private static final long PAUSE_MILLIS = 1_000;

    private FinalReads() {
    }

    static void readAll(ChaosClient client, List<String> keys) throws InterruptedException {
        for (String key : keys) {
            untilAnswered(() -> client.read(key, true) != null);
        }
    }

    /** Runs {@code read} (which records itself and says whether it was answered) up to {@link #TRIES} times. */
    static void untilAnswered(BooleanSupplier read) throws InterruptedException {
        for (int attempt = 1; !read.getAsBoolean() && attempt < TRIES; attempt++) {
            Thread.sleep(PAUSE_MILLIS); // a pause between tries of a refused read, not a synchronisation
        }
    }
}
