package io.zaris.spring.template;

import java.time.Duration;

/**
 * A value read through {@link ZarisTemplate}, with the version to pass to a compare-and-set and the time it
 * has left to live ({@code null} when it never expires).
 */
public record ZarisValue<T>(T value, long version, Duration timeToLive) {
}
