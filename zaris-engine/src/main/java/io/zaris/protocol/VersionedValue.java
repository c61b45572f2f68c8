package io.zaris.protocol;

/**
 * A value as read from a node: its bytes, its version (strictly increasing on every change of the key)
 * and the time it has left to live ({@code 0} when it has no TTL).
 */
public record VersionedValue(byte[] value, long version, long ttlRemainingMillis) {
}
