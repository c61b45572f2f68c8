package io.zaris.client;

import io.zaris.protocol.Request;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** The checks and encodings of what a caller hands the client: keys, values, times to live. Stateless. */
final class RequestInputs {

    private RequestInputs() {
    }

    static byte[] bytes(String key) {
        if (key == null) {
            throw new IllegalArgumentException("key must not be null");
        }
        return key.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] requireValue(byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("value must not be null");
        }
        return value;
    }

    static long ttlMillis(Duration ttl) {
        if (ttl == null || ttl.isZero()) {
            return Request.NO_TTL;
        }
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must not be negative but was " + ttl);
        }
        return Math.max(1, ttl.toMillis());
    }
}
