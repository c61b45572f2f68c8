package io.zaris.client;

/**
 * One change of a watched key, as its owner applied it.
 *
 * @param key     the key
 * @param version the key's new version: the segment revision of the change (a deletion has one too)
 * @param deleted whether the change removed the key (a delete, an expiry or an eviction)
 */
public record KeyChange(String key, long version, boolean deleted) {
}
