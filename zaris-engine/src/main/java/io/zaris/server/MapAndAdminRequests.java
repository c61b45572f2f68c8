package io.zaris.server;

import io.netty.buffer.ByteBuf;
import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.protocol.ClusterViewCodec;
import io.zaris.protocol.MapFingerprint;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import java.util.function.Supplier;

/**
 * The requests about the node rather than a key: the cluster view it holds, that view's fingerprint, and the
 * operator commands (drain, rebalance). Each is answered at once and whole into {@code out}; a node that holds no
 * map yet answers {@code UNAVAILABLE}. The access check of the operator commands (no read-only users) happened on
 * the connection.
 *
 * <p>Runs on the connection's event loop; holds no state of its own beyond references to thread-safe
 * collaborators, so one instance serves every connection of a node.
 */
final class MapAndAdminRequests {

    private final String nodeId;
    private final Supplier<ClusterView> currentView;
    private final NodeStats stats;
    /** What operator commands do on this node. */
    private final AdminActions admin;

    MapAndAdminRequests(String nodeId, Supplier<ClusterView> currentView, NodeStats stats, AdminActions admin) {
        this.nodeId = nodeId;
        this.currentView = currentView;
        this.stats = stats;
        this.admin = admin;
    }

    /** Answers {@code request} into {@code out} when it is one of these; {@code false} (nothing written) otherwise. */
    boolean handle(Request request, ByteBuf out) {
        if (request instanceof Request.ClusterMap) {
            stats.mapRequest();
            writeClusterMap(request.id(), currentView.get(), out);
        } else if (request instanceof Request.MapVersion) {
            writeMapVersion(request.id(), currentView.get(), out);
        } else if (request instanceof Request.AdminDrain || request instanceof Request.AdminRebalance) {
            answerAdmin(request, currentView.get(), out);
        } else {
            return false;
        }
        return true;
    }

    /** Operator commands; a node without a map has no cluster to move partitions in yet. */
    private void answerAdmin(Request request, ClusterView view, ByteBuf out) {
        if (view == null) {
            ResponseCodec.writeError(out, request.id(), KvStatus.UNAVAILABLE, "node " + nodeId
                    + " has no cluster map yet; " + request.op() + " needs one");
            return;
        }
        if (request instanceof Request.AdminDrain) {
            String refusal = admin.drain();
            if (refusal != null) {
                ResponseCodec.writeError(out, request.id(), KvStatus.UNAVAILABLE, refusal);
                return;
            }
        } else {
            admin.rebalance();
        }
        ResponseCodec.writeHeader(out, request.id(), KvStatus.OK);
    }

    private void writeMapVersion(long id, ClusterView view, ByteBuf out) {
        if (view == null) {
            writeNoMap(id, out);
            return;
        }
        ResponseCodec.writeHeader(out, id, KvStatus.OK);
        MapFingerprint.of(view).encode(out);
    }

    private void writeClusterMap(long id, ClusterView view, ByteBuf out) {
        if (view == null) {
            writeNoMap(id, out);
            return;
        }
        ResponseCodec.writeHeader(out, id, KvStatus.OK);
        ClusterViewCodec.encode(view, out);
    }

    private void writeNoMap(long id, ByteBuf out) {
        ResponseCodec.writeError(out, id, KvStatus.UNAVAILABLE, "node " + nodeId + " has no cluster map yet");
    }
}
