package io.zaris.client;

import io.zaris.model.KvStatus;
import io.zaris.transport.ZarisStatusException;

/**
 * The client's own map gives the key's partition no serving owner, so the attempt was never sent. The
 * application sees it as {@code UNAVAILABLE} (nothing was applied), but the retry brain treats it like a
 * transport fault: the map may simply be out of date, so it is refreshed before the next attempt, and the
 * attempt is repeated for every operation since it never left the client.
 */
final class NoServingOwnerException extends ZarisStatusException {

    NoServingOwnerException(String message) {
        super(KvStatus.UNAVAILABLE, message);
    }
}
