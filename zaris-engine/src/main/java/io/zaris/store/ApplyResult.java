package io.zaris.store;

/**
 * What a replica did with shipped changes. {@code gap}: a change did not follow the segment's revision,
 * so nothing from it on was applied and the replica needs a tail or a snapshot from {@code appliedRevision}.
 */
public record ApplyResult(boolean gap, long appliedRevision) {
}
