package io.zaris.store;

import io.zaris.model.KvStatus;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Outcome of a {@link io.zaris.model.HashOp}: on {@code OK} a count and items as the op's table says; on
 * {@code WRONG_TYPE} (or {@code BAD_REQUEST}) the reason in {@code error}; {@code OWNERSHIP_CHANGING} when the
 * copy was retired. {@code version} is the revision of a write's last change, 0 when it changed nothing. {@code replicated} completes when
 * a write's changes are acknowledged as the acknowledgement mode requires.
 */
public record HashReply(KvStatus status, long count, List<byte[]> items, String error, long version,
                        CompletableFuture<Void> replicated) {

    private static final HashReply COUNTED_ZERO = read(0, List.of());
    private static final HashReply COUNTED_ONE = read(1, List.of());

    /**
     * An answer of a count and no items, as most writes' edits give before their version is known: the counts 0 and
     * 1 (one field, member or element, the common case) are shared instances, not one more record per write.
     */
    static HashReply counted(long count) {
        return count == 0 ? COUNTED_ZERO : count == 1 ? COUNTED_ONE : read(count, List.of());
    }

    static HashReply read(long count, List<byte[]> items) {
        return new HashReply(KvStatus.OK, count, items, null, 0, WriteResult.NOTHING_TO_REPLICATE);
    }

    static HashReply error(KvStatus status, String error) {
        return new HashReply(status, 0, List.of(), error, 0, WriteResult.NOTHING_TO_REPLICATE);
    }

}
