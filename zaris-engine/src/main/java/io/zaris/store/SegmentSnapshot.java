package io.zaris.store;

import io.zaris.model.Change;
import java.util.List;

/**
 * A segment's whole content at one revision: every live entry as an upsert {@link Change} carrying its
 * version and expiry. Installing it replaces the receiver's segment.
 */
public record SegmentSnapshot(long revision, long epoch, List<Change> entries) {
}
