package io.zaris.store;

import io.zaris.protocol.KvStatus;

/**
 * Outcome of a single-key write. {@code version} is the new version on {@code OK}, the current version
 * ({@code 0} when absent) on {@code CONFLICT}, and {@code 0} on {@code NOT_FOUND}.
 */
public record WriteResult(KvStatus status, long version) {
}
