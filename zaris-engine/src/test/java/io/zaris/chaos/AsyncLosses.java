package io.zaris.chaos;

import io.zaris.model.AckMode;
import java.util.Collection;
import java.util.Set;

/**
 * The ASYNC rule: an acknowledged write may be lost when the active owner dies before a replica has it, but
 * only if the client was told so, write by write. An anomaly is excused only when every acknowledged write it
 * implies was lost is named by its key and revision; a loss named for a key never excuses another write of
 * that key. Under SYNC nothing is excused.
 */
final class AsyncLosses {

    private final boolean async;
    private final Set<String> named;

    AsyncLosses(AckMode ackMode, Set<String> named) {
        this.async = ackMode == AckMode.ASYNC;
        this.named = named;
    }

    /**
     * Whether losing exactly these acknowledged writes is excused: ASYNC, at least one write, and each one
     * named by key and revision (a write whose acknowledgement named no revision cannot be matched, so it is
     * never excused).
     */
    boolean excuse(String key, Collection<Long> revisions) {
        if (!async || revisions.isEmpty()) {
            return false;
        }
        for (long revision : revisions) {
            if (revision < 0 || !named.contains(History.lossName(key, revision))) {
                return false;
            }
        }
        return true;
    }
}
