package io.zaris.spring.template;

import io.zaris.client.WatchGap;

/** Ends a watch flux whose watch missed changes ({@link WatchGap}); re-read what it watches and subscribe again. */
public final class ZarisWatchGapException extends RuntimeException {

    private final transient WatchGap gap;

    public ZarisWatchGapException(WatchGap gap) {
        super("key watch missed changes: " + gap.reason() + (gap.segment() < 0 ? "" : " in segment " + gap.segment()
                + " after revision " + gap.afterRevision()) + (gap.droppedChanges() < 0 ? ""
                : ", " + gap.droppedChanges() + " changes dropped"));
        this.gap = gap;
    }

    public WatchGap gap() {
        return gap;
    }
}
