package io.zaris.client;

import io.netty.buffer.ByteBuf;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.Request;
import io.zaris.transport.ResponseReader;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;

/**
 * What the typed collection operations need of {@link ZarisClient}, and no more: run one operation routed by its key
 * (retried by the {@link RequestExecutor}, the near cache kept in step with this client's writes), remember an ASYNC
 * acknowledgement, map keys to segments, refuse work once the client is closed, drop keys this client writes from the
 * near cache, and delete a key. The client implements it in a private class, so none of it becomes public API.
 */
interface RequestRunner {

    /**
     * Runs one operation to completion, as the client's own operations run.
     *
     * @param idempotent whether repeating it after it may already have been applied is harmless
     */
    <T> CompletableFuture<T> execute(OpCode op, byte[] routingKey, boolean idempotent,
                                     LongFunction<Request> requestFactory, ResponseReader<T> reader);

    /** Reads the acknowledgement trailer after a write's version and keeps it if it was an ASYNC one. */
    void acknowledged(byte[] key, long revision, ByteBuf body);

    /** The mapper of keys to segments of the cluster this client routes to. */
    SegmentMapper segmentMapper();

    /** Fails with {@link io.zaris.transport.ZarisException} once the client is closed. */
    void requireOpen();

    /** Drops {@code keys} from the near cache: this client writes them. */
    void forgetOwnWrite(List<byte[]> keys);

    /** Drops {@code keys} from the near cache again once {@code write} of them completed, however it did. */
    <T> CompletableFuture<T> forgetWhenDone(List<byte[]> keys, CompletableFuture<T> write);

    /** {@link ZarisClient#delete(String)}. */
    CompletableFuture<Boolean> delete(String key);
}
