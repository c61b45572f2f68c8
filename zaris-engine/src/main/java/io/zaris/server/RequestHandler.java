package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.zaris.cluster.ClusterView;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.KvStatus;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
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

    void handle(Request request, ByteBuf out) {
        if (request instanceof Request.ClusterMap) {
            writeClusterMap(request.id(), out);
            return;
        }
        ClusterView view = currentView.get();
        if (view == null) {
            stats.wrongNode();
            ResponseCodec.writeError(out, request.id(), KvStatus.UNAVAILABLE, "node " + nodeId + " has no cluster map yet");
            return;
        }
        if (request instanceof Request.Scan scan) {
            stats.served();
            scan(view, scan, out);
            return;
        }
        int segment = segmentOf(request);
        if (segment < 0) {
            stats.rejected();
            ResponseCodec.writeError(out, request.id(), KvStatus.BAD_REQUEST,
                    "keys of a multi-key request must share one segment; give them a common {hash tag}");
            return;
        }
        int partition = view.layout().partitionOf(segment);
        KvStatus ownership = OwnershipDecision.decide(nodeId, view.partitionMap(), view.runtimeMap().get(partition),
                partition, request.op().isWrite(), false);
        if (ownership != KvStatus.OK) {
            stats.wrongNode();
            ResponseCodec.writeError(out, request.id(), ownership,
                    "segment " + segment + " (partition " + partition + ") is served by "
                            + view.runtimeMap().get(partition).activeNode() + ", not " + nodeId);
            return;
        }
        stats.served();
        execute(request, segment, out);
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
