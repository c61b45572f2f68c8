package io.zaris.resp;

import io.netty.buffer.ByteBuf;
import io.zaris.model.ClusterView;
import io.zaris.protocol.ProtocolLimits;
import io.zaris.protocol.Request;
import io.zaris.time.TimeSource;
import java.util.concurrent.CompletableFuture;

/**
 * What the RESP listener needs of its node. {@link #execute} is the node's own request path — the same
 * ownership decision, epoch check, majority fence, replica-count check, store operation and SYNC/ASYNC
 * acknowledgement as a request on the native data port — so RESP adds no second way to write.
 */
public interface RespBackend {

    String nodeId();

    /** The node's current cluster view, {@code null} before its first map. */
    ClusterView currentView();

    /**
     * Runs one data request as if it arrived on the data port.
     *
     * @return the native response payload ({@code ResponseCodec} layout, from the response marker on); it
     *         completes when the response may be sent (for a SYNC write: once the replicas acknowledged it),
     *         and fails when a write applied locally was not acknowledged by enough replicas
     */
    CompletableFuture<ByteBuf> execute(Request request);

    /**
     * {@link #execute(Request)} with the answer written into {@code into}, an empty heap buffer the caller lends (and
     * reuses once it has read the answer) instead of a new buffer per request. Completes when {@code into} holds the
     * whole payload, when {@link #execute(Request)}'s would, and fails as it would; a request answered at once may
     * complete a shared future rather than one of its own. This default copies {@link #execute(Request)}'s payload.
     */
    default CompletableFuture<Void> executeInto(Request request, ByteBuf into) {
        return execute(request).thenAccept(payload -> into.writeBytes(payload, payload.readerIndex(), payload.readableBytes()));
    }

    /**
     * Relays a RESP {@code PUBLISH} made here to the subscribers of every other node: at most once, never blocking
     * (a node that is down or slow to take it misses the message). A lone node has nobody to relay to.
     */
    default void publishToPeers(byte[] channel, byte[] message) {
    }

    /** Relays of {@link #publishToPeers} dropped since the node started (a peer down, unreachable, or too far behind). */
    default long publishRelaysDropped() {
        return 0;
    }

    /** Keys held in the segments this node actively serves (expired entries not yet removed included). */
    long servedKeys();

    /** Of {@link #servedKeys()}, those with a TTL. */
    long servedKeysWithTtl();

    /** Live keys of {@code slot} when this node actively serves it, else -1. */
    long keysInSlot(int slot);

    /** Size limits of keys, values and batches, the same as on the data port. */
    ProtocolLimits limits();

    /** Wall clock for converting absolute expiry times (EXAT, PXAT, EXPIREAT) into TTLs. */
    TimeSource time();

    /** The node's memory figures, for {@code INFO memory} and {@code INFO stats}. */
    Memory memory();

    /**
     * @param usedBytes   bytes charged for the node's entries (keys, values, per-entry overhead estimate)
     * @param maxBytes    the node's memory budget
     * @param policy      the eviction policy's Redis name ({@code allkeys-lru} …)
     * @param evictions   keys evicted by this node
     * @param expirations keys removed by active expiry
     */
    record Memory(long usedBytes, long maxBytes, String policy, long evictions, long expirations) {
    }
}
