package io.zaris.client;

import io.zaris.transport.ZarisException;

/**
 * An operation that needs its key to exist found none (Redis's {@code ERR no such key}): a
 * {@link ZarisClient#rename} of an absent key. Nothing changed, and repeating the operation gives the same answer
 * while the key stays absent.
 */
public final class ZarisNoSuchKeyException extends ZarisException {

    private static final long serialVersionUID = 1L;

    private final String key;

    public ZarisNoSuchKeyException(String key) {
        super("no such key '" + key + "'");
        this.key = key;
    }

    /** The key that was absent. */
    public String key() {
        return key;
    }
}
