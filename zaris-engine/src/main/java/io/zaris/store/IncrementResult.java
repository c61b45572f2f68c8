package io.zaris.store;

import io.zaris.protocol.KvStatus;

/** Outcome of INCREMENT: the new counter value and version on {@code OK}, a reason on {@code WRONG_TYPE}. */
public record IncrementResult(KvStatus status, long value, long version, String error) {

    static IncrementResult ok(long value, long version) {
        return new IncrementResult(KvStatus.OK, value, version, null);
    }

    static IncrementResult wrongType(String error) {
        return new IncrementResult(KvStatus.WRONG_TYPE, 0, 0, error);
    }
}
