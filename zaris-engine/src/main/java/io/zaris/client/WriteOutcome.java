package io.zaris.client;

/**
 * Result of a conditional write (IfAbsent, IfMatchVersion). When {@code applied}, {@code version} is the
 * key's new version; otherwise it is the version that made the condition fail ({@code 0} = key absent).
 */
public record WriteOutcome(boolean applied, long version) {
}
