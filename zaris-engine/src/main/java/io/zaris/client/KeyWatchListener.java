package io.zaris.client;

/**
 * Hears the changes of watched keys ({@link ZarisClient#watch}, {@link ZarisClient#watchPrefix}). Called on one
 * delivery thread of the client, never concurrently; a listener that blocks delays every watch of the client, and
 * one that falls more than {@link KeyWatches#MAX_PENDING} changes behind is told so through {@link #onFellBehind}.
 */
public interface KeyWatchListener {

    /** A watched key changed; changes of one key arrive in the order their owner applied them. */
    void onChange(KeyChange change);

    /** Changes were not delivered; re-read what is watched. Never skipped silently. */
    void onFellBehind(WatchGap gap);
}
