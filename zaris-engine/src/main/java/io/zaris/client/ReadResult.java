package io.zaris.client;

import io.zaris.model.VersionedValue;
import java.util.Optional;

/**
 * What {@link ZarisClient#read} found, and where.
 *
 * @param value the value and its version, or empty when the key does not exist
 * @param local whether the near cache answered (no round trip); {@code false} when the key's owner did
 */
public record ReadResult(Optional<VersionedValue> value, boolean local) {

    public ReadResult {
        if (value == null) {
            throw new IllegalArgumentException("value must not be null; use Optional.empty()");
        }
        if (local && value.isEmpty()) {
            throw new IllegalArgumentException("the near cache holds no absent keys, so a local answer has a value");
        }
    }

    static ReadResult remote(Optional<VersionedValue> value) {
        return new ReadResult(value, false);
    }
}
