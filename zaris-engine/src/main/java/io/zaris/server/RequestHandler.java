package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.zaris.cluster.ClusterView;
import io.zaris.cluster.NodeAddress;
import io.zaris.cluster.PartitionRuntime;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.KvStatus;
import io.zaris.protocol.MapFingerprint;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.protocol.VersionedValue;
import io.zaris.store.IncrementResult;
import io.zaris.store.NodeStore;
import io.zaris.store.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Executes one decoded data request against the store and writes the complete response frame payload.
 * The ownership check comes first for every key-addressed operation and is the only place a request can
 * be turned away for being on the wrong node.
 *
 * <p>Runs on the connection's event loop; holds no state of its own beyond references to thread-safe
 * collaborators, so one instance serves every connection of a node.
 */
final class RequestHandler {

    private final String nodeId;
    private final SegmentMapper segmentMapper;
    private final NodeStore store;
    private final Supplier<ClusterView> currentView;
    private final NodeStats stats;

    RequestHandler(String nodeId, SegmentMapper segmentMapper, NodeStore store, Supplier<ClusterView> currentView,
                   NodeStats stats) {
        this.nodeId = nodeId;
        this.segmentMapper = segmentMapper;
        this.store = store;
        this.currentView = currentView;
        this.stats = stats;
    }

    /**
     * Handles one request and writes its response into {@code out}.
     *
     * @param routedEpoch   the partition epoch the client routed by (0 = not routed by key)
     * @param deadlineNanos when the client stops waiting, on this JVM's {@link System#nanoTime()} scale
     * @return {@code false} when the request was dropped unanswered because nobody waits for it any more
     */
    boolean handle(Request request, long routedEpoch, long deadlineNanos, ByteBuf out) {
        if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
            stats.expired();
            return false;
        }
        if (request instanceof Request.ClusterMap) {
            stats.mapRequest();
            writeClusterMap(request.id(), out);
            return true;
        }
        ClusterView view = currentView.get();
        if (request instanceof Request.MapVersion) {
            writeMapVersion(request.id(), view, out);
            return true;
        }
        if (view == null) {
            stats.wrongNode();
            ResponseCodec.writeError(out, request.id(), KvStatus.UNAVAILABLE, "node " + nodeId + " has no cluster map yet");
            return true;
        }
        if (request instanceof Request.Scan scan) {
            stats.served();
            scan(view, scan, out);
            return true;
        }
        int segment = segmentOf(request);
        if (segment < 0) {
            stats.rejected();
            ResponseCodec.writeError(out, request.id(), KvStatus.BAD_REQUEST,
                    "keys of a multi-key request must share one segment; give them a common {hash tag}");
            return true;
        }
        int partition = view.layout().partitionOf(segment);
        PartitionRuntime runtime = view.runtimeMap().get(partition);
        KvStatus ownership = routedEpoch > runtime.epoch()
                // The client already knows a newer epoch than this node: this node's view is behind and
                // must not act as owner until it catches up.
                ? KvStatus.OWNERSHIP_CHANGING
                : OwnershipDecision.decide(nodeId, view.partitionMap(), runtime, partition, request.op().isWrite(), false);
        if (ownership != KvStatus.OK) {
            stats.wrongNode();
            NodeAddress activeAddress = runtime.activeNode() == null ? null : view.addresses().get(runtime.activeNode());
            ResponseCodec.writeRoutingError(out, request.id(), ownership,
                    "segment " + segment + " (partition " + partition + ", epoch " + runtime.epoch() + ") is served by "
                            + runtime.activeNode() + ", not " + nodeId,
                    new RuntimeOwnershipChangedEvent(partition, runtime, activeAddress));
            return true;
        }
        stats.served();
        execute(request, segment, out);
        return true;
    }

    private void execute(Request request, int segment, ByteBuf out) {
        long id = request.id();
        if (request instanceof Request.Get get) {
            VersionedValue value = store.get(segment, get.key());
            if (value == null) {
                ResponseCodec.writeHeader(out, id, KvStatus.NOT_FOUND);
            } else {
                ResponseCodec.writeHeader(out, id, KvStatus.OK);
                ResponseCodec.writeValue(out, value);
            }
        } else if (request instanceof Request.Put put) {
            writeResult(out, id, store.put(segment, put.key(), put.value(), put.ttlMillis(), put.ifAbsent(),
                    put.expectedVersion()));
        } else if (request instanceof Request.Delete delete) {
            writeResult(out, id, store.delete(segment, delete.key(), delete.expectedVersion()));
        } else if (request instanceof Request.Increment increment) {
            IncrementResult result = store.increment(segment, increment.key(), increment.delta());
            if (result.status() == KvStatus.OK) {
                ResponseCodec.writeHeader(out, id, KvStatus.OK);
                out.writeLong(result.value());
                out.writeLong(result.version());
            } else {
                stats.rejected();
                ResponseCodec.writeError(out, id, result.status(), result.error());
            }
        } else if (request instanceof Request.Touch touch) {
            writeResult(out, id, store.touch(segment, touch.key(), touch.ttlMillis()));
        } else if (request instanceof Request.MultiGet multiGet) {
            ResponseCodec.writeHeader(out, id, KvStatus.OK);
            ResponseCodec.writeOptionalValues(out, store.multiGet(segment, multiGet.keys()));
        } else if (request instanceof Request.MultiPut multiPut) {
            long[] versions = store.multiPut(segment, multiPut.keys(), multiPut.values(), multiPut.ttlMillis());
            ResponseCodec.writeHeader(out, id, KvStatus.OK);
            ResponseCodec.writeLongs(out, versions);
        } else if (request instanceof Request.MultiDelete multiDelete) {
            ResponseCodec.writeHeader(out, id, KvStatus.OK);
            out.writeInt(store.multiDelete(segment, multiDelete.keys()));
        } else {
            stats.rejected();
            ResponseCodec.writeError(out, id, KvStatus.BAD_REQUEST, request.op() + " is not a data operation");
        }
    }

    private static void writeResult(ByteBuf out, long id, WriteResult result) {
        ResponseCodec.writeHeader(out, id, result.status());
        if (result.status() != KvStatus.NOT_FOUND) {
            out.writeLong(result.version());
        }
    }

    /** The segment every key of the request maps to, or -1 when a multi-key request spans segments. */
    private int segmentOf(Request request) {
        if (request instanceof Request.Get get) {
            return segmentMapper.segmentOf(get.key());
        } else if (request instanceof Request.Put put) {
            return segmentMapper.segmentOf(put.key());
        } else if (request instanceof Request.Delete delete) {
            return segmentMapper.segmentOf(delete.key());
        } else if (request instanceof Request.Increment increment) {
            return segmentMapper.segmentOf(increment.key());
        } else if (request instanceof Request.Touch touch) {
            return segmentMapper.segmentOf(touch.key());
        } else if (request instanceof Request.MultiGet multiGet) {
            return commonSegment(multiGet.keys());
        } else if (request instanceof Request.MultiPut multiPut) {
            return commonSegment(multiPut.keys());
        } else if (request instanceof Request.MultiDelete multiDelete) {
            return commonSegment(multiDelete.keys());
        }
        return -1;
    }

    private int commonSegment(List<byte[]> keys) {
        int segment = segmentMapper.segmentOf(keys.get(0));
        for (int i = 1; i < keys.size(); i++) {
            if (segmentMapper.segmentOf(keys.get(i)) != segment) {
                return -1;
            }
        }
        return segment;
    }

    /** Whole segments this node actively serves, from the cursor on, until {@code count} keys are collected. */
    private void scan(ClusterView view, Request.Scan scan, ByteBuf out) {
        List<byte[]> keys = new ArrayList<>();
        int segment = scan.cursor();
        int segmentCount = view.layout().segmentCount();
        while (segment < segmentCount && keys.size() < scan.count()) {
            if (view.runtimeOfSegment(segment).isServedBy(nodeId)) {
                store.collectKeys(segment, keys);
            }
            segment++;
        }
        ResponseCodec.writeHeader(out, scan.id(), KvStatus.OK);
        ResponseCodec.writeScanPage(out, segment < segmentCount ? segment : -1, keys);
    }

    private void writeMapVersion(long id, ClusterView view, ByteBuf out) {
        if (view == null) {
            ResponseCodec.writeError(out, id, KvStatus.UNAVAILABLE, "node " + nodeId + " has no cluster map yet");
            return;
        }
        ResponseCodec.writeHeader(out, id, KvStatus.OK);
        MapFingerprint.of(view).encode(out);
    }

    private void writeClusterMap(long id, ByteBuf out) {
        ClusterView view = currentView.get();
        if (view == null) {
            ResponseCodec.writeError(out, id, KvStatus.UNAVAILABLE, "node " + nodeId + " has no cluster map yet");
            return;
        }
        ResponseCodec.writeHeader(out, id, KvStatus.OK);
        ClusterViewCodec.encode(view, out);
    }
}
