package io.zaris.model;

/**
 * A value as read from a node: its bytes, its version (strictly increasing on every change of the key)
 * and the time it has left to live ({@code 0} when it has no TTL).
 */
public record VersionedValue(byte[] value, long version, long ttlRemainingMillis) {

    /** Sentinel for "no TTL" wherever a TTL in milliseconds is passed. */
    public static final long NO_TTL = 0;
    /** Sentinel for "no version precondition" wherever an expected version is passed. */
    public static final long ANY_VERSION = -1;
}
