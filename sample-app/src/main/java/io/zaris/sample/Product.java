package io.zaris.sample;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * A catalog entry. {@code Serializable} because the cache stores it with JDK serialization (the default
 * format); its package is the application's, so Zaris' deserialization allow-list accepts it.
 *
 * @param lookedUpAt when the slow lookup produced this value: a cached answer keeps the original time
 */
record Product(String id, String name, BigDecimal price, Instant lookedUpAt) implements Serializable {
}
