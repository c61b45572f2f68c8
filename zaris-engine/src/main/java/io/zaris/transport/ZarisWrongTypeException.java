package io.zaris.transport;

import io.zaris.model.KvStatus;

/**
 * The key holds a value of another kind than the operation works on (Redis's {@code WRONGTYPE}): a hash
 * operation on a string or a list, a string read on a sorted set, an increment of text that is not a decimal
 * integer. Nothing changed, and repeating the operation gives the same answer; its status is always
 * {@link KvStatus#WRONG_TYPE}.
 */
public final class ZarisWrongTypeException extends ZarisStatusException {

    public ZarisWrongTypeException(String message) {
        super(KvStatus.WRONG_TYPE, message, null);
    }
}
