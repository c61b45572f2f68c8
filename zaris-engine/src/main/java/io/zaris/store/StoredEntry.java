package io.zaris.store;

import io.zaris.protocol.VersionedValue;

/**
 * One stored value. Immutable: a write replaces the entry, so a lock-free reader sees either the old or
 * the new entry, never a mix. {@code expiresAtMillis} is wall-clock, {@code 0} for no TTL.
 */
record StoredEntry(byte[] value, long version, long expiresAtMillis) {

    boolean isExpired(long nowMillis) {
        return expiresAtMillis != 0 && nowMillis >= expiresAtMillis;
    }

    VersionedValue toVersionedValue(long nowMillis) {
        long ttlRemaining = expiresAtMillis == 0 ? 0 : Math.max(1, expiresAtMillis - nowMillis);
        return new VersionedValue(value, version, ttlRemaining);
    }
}
