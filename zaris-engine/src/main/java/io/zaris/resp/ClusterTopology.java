package io.zaris.resp;

import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.SegmentMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Redis Cluster picture of a Zaris {@link ClusterView}, as pure functions of (view, this node, peer
 * RESP ports).
 *
 * <p><b>Slots.</b> A partition's segments are a contiguous run of segments and each segment a contiguous run
 * of slots, so every partition is one slot range {@code firstSlotOf(firstSegment)..lastSlotOf(lastSegment)}.
 * Adjacent partitions with the same active owner and the same replicas merge into one range. A partition
 * without an active node (UNAVAILABLE) is not reported: its slots are uncovered, as in a failed Redis
 * Cluster. The master of a range is the partition's <em>active</em> node (runtime map), its replicas the
 * other assigned owners (partition map).
 *
 * <p><b>Roles.</b> A Zaris node is active for some partitions and replica of others, while a Redis node is
 * either a master or the replica of exactly one master. {@code CLUSTER SLOTS} and {@code CLUSTER SHARDS} are
 * per range and say it exactly: the active owner as master, every other owner as replica. {@code CLUSTER
 * NODES} has one role per node line, so {@link #roles} picks the truthful one: a node that is active for at
 * least one range is a master of those ranges (its replica duties are listed by SLOTS and SHARDS); a node
 * active for none that replicates some range is {@code slave} of that range's master (the lowest such
 * range); a node that owns nothing at all (it just joined) is a master without slots, as an empty Redis
 * master is.
 *
 * <p><b>Ids.</b> Redis node ids are 40 hex characters; a Zaris node's is the SHA-1 of its node id, so every
 * node names every other the same way without exchanging anything.
 */
final class ClusterTopology {

    private ClusterTopology() {
    }

    /** One reported slot range. */
    record SlotRange(int start, int end, String master, List<String> replicas) {
    }

    static String redisId(String nodeId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(nodeId.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
    }

    /** Merged slot ranges of every partition that has an active node whose RESP port is known. */
    static List<SlotRange> ranges(ClusterView view, RespPeerPorts ports) {
        SegmentMapper mapper = new SegmentMapper(view.layout().segmentCount());
        List<SlotRange> ranges = new ArrayList<>();
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            PartitionRuntime runtime = view.runtimeMap().get(p);
            String master = runtime.activeNode();
            if (master == null || runtime.health() == PartitionHealth.UNAVAILABLE || endpoint(view, ports, master) == null) {
                continue;
            }
            List<String> replicas = new ArrayList<>();
            for (String owner : view.partitionMap().ownersOf(p)) {
                if (!owner.equals(master) && endpoint(view, ports, owner) != null) {
                    replicas.add(owner);
                }
            }
            int start = mapper.firstSlotOf(view.layout().firstSegmentOf(p));
            int end = mapper.lastSlotOf(view.layout().lastSegmentOf(p));
            SlotRange last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (last != null && last.end() + 1 == start && last.master().equals(master) && last.replicas().equals(replicas)) {
                ranges.set(ranges.size() - 1, new SlotRange(last.start(), end, master, last.replicas()));
            } else {
                ranges.add(new SlotRange(start, end, master, List.copyOf(replicas)));
            }
        }
        return ranges;
    }

    /** RESP address of a node, or {@code null} when its data address or RESP port is unknown. */
    static NodeAddress endpoint(ClusterView view, RespPeerPorts ports, String nodeId) {
        NodeAddress data = view.addresses().get(nodeId);
        if (data == null) {
            return null;
        }
        int port = ports.respPortOf(nodeId, data);
        return port < 1 ? null : new NodeAddress(data.host(), port);
    }

    static RespReply slots(ClusterView view, RespPeerPorts ports) {
        List<RespReply> entries = new ArrayList<>();
        for (SlotRange range : ranges(view, ports)) {
            List<RespReply> entry = new ArrayList<>();
            entry.add(RespReply.integer(range.start()));
            entry.add(RespReply.integer(range.end()));
            entry.add(nodeEntry(view, ports, range.master()));
            for (String replica : range.replicas()) {
                entry.add(nodeEntry(view, ports, replica));
            }
            entries.add(RespReply.array(entry));
        }
        return RespReply.array(entries);
    }

    private static RespReply nodeEntry(ClusterView view, RespPeerPorts ports, String nodeId) {
        NodeAddress address = endpoint(view, ports, nodeId);
        return RespReply.array(List.of(RespReply.bulk(address.host()), RespReply.integer(address.port()),
                RespReply.bulk(redisId(nodeId))));
    }

    /**
     * One {@code CLUSTER NODES} line's role: {@code masterOf == null} for a master (of {@code slots}, possibly
     * none), else the node id of the master this node replicates.
     */
    record NodeRole(String nodeId, String masterOf, List<SlotRange> slots) {
    }

    /** The role of every node with a known RESP address, in node id order (see the class comment). */
    static List<NodeRole> roles(ClusterView view, RespPeerPorts ports) {
        List<SlotRange> ranges = ranges(view, ports);
        List<NodeRole> roles = new ArrayList<>();
        for (String nodeId : new TreeMap<>(view.addresses()).keySet()) {
            if (endpoint(view, ports, nodeId) == null) {
                continue;
            }
            List<SlotRange> served = new ArrayList<>();
            String replicated = null;
            for (SlotRange range : ranges) {
                if (range.master().equals(nodeId)) {
                    SlotRange last = served.isEmpty() ? null : served.get(served.size() - 1);
                    if (last != null && last.end() + 1 == range.start()) {
                        served.set(served.size() - 1, new SlotRange(last.start(), range.end(), nodeId, List.of()));
                    } else {
                        served.add(new SlotRange(range.start(), range.end(), nodeId, List.of()));
                    }
                } else if (replicated == null && range.replicas().contains(nodeId)) {
                    replicated = range.master();
                }
            }
            roles.add(served.isEmpty() && replicated != null ? new NodeRole(nodeId, replicated, List.of())
                    : new NodeRole(nodeId, null, List.copyOf(served)));
        }
        return roles;
    }

    /** The {@code CLUSTER NODES} text: one line per node with a known RESP address, in the role {@link #roles} gives it. */
    static String nodes(ClusterView view, RespPeerPorts ports, String self) {
        StringBuilder text = new StringBuilder();
        for (NodeRole role : roles(view, ports)) {
            NodeAddress address = endpoint(view, ports, role.nodeId());
            String flags = role.masterOf() == null ? "master" : "slave";
            text.append(redisId(role.nodeId())).append(' ')
                    .append(address.host()).append(':').append(address.port()).append('@')
                    .append(view.addresses().get(role.nodeId()).port())
                    .append(' ').append(role.nodeId().equals(self) ? "myself," + flags : flags)
                    .append(' ').append(role.masterOf() == null ? "-" : redisId(role.masterOf()))
                    .append(" 0 0 ").append(view.partitionMap().version()).append(" connected");
            for (SlotRange range : role.slots()) {
                text.append(' ').append(range.start());
                if (range.end() != range.start()) {
                    text.append('-').append(range.end());
                }
            }
            text.append('\n');
        }
        return text.toString();
    }

    /**
     * {@code CLUSTER SHARDS}: one shard per (active owner, replicas) with all of its ranges, the active owner
     * with role master and the others with role replica; a node that owns nothing is a master of an empty shard.
     */
    static RespReply shards(ClusterView view, RespPeerPorts ports) {
        Map<List<String>, List<SlotRange>> shards = new LinkedHashMap<>();
        for (SlotRange range : ranges(view, ports)) {
            List<String> members = new ArrayList<>();
            members.add(range.master());
            members.addAll(range.replicas());
            shards.computeIfAbsent(members, k -> new ArrayList<>()).add(range);
        }
        for (NodeRole role : roles(view, ports)) {
            if (role.masterOf() == null && role.slots().isEmpty()) {
                shards.put(List.of(role.nodeId()), List.of());
            }
        }
        List<RespReply> result = new ArrayList<>();
        for (Map.Entry<List<String>, List<SlotRange>> shard : shards.entrySet()) {
            List<RespReply> slots = new ArrayList<>();
            for (SlotRange range : shard.getValue()) {
                slots.add(RespReply.integer(range.start()));
                slots.add(RespReply.integer(range.end()));
            }
            List<RespReply> nodes = new ArrayList<>();
            boolean first = true;
            for (String nodeId : shard.getKey()) {
                NodeAddress address = endpoint(view, ports, nodeId);
                nodes.add(RespReply.map(List.of(
                        RespReply.bulk("id"), RespReply.bulk(redisId(nodeId)),
                        RespReply.bulk("port"), RespReply.integer(address.port()),
                        RespReply.bulk("ip"), RespReply.bulk(address.host()),
                        RespReply.bulk("endpoint"), RespReply.bulk(address.host()),
                        RespReply.bulk("role"), RespReply.bulk(first ? "master" : "replica"),
                        RespReply.bulk("replication-offset"), RespReply.integer(0),
                        RespReply.bulk("health"), RespReply.bulk("online"))));
                first = false;
            }
            result.add(RespReply.map(List.of(RespReply.bulk("slots"), RespReply.array(slots),
                    RespReply.bulk("nodes"), RespReply.array(nodes))));
        }
        return RespReply.array(result);
    }

    /** {@code CLUSTER INFO}: ok only when every slot has a serving owner. */
    static String info(ClusterView view, RespPeerPorts ports, String self) {
        SegmentMapper mapper = new SegmentMapper(view.layout().segmentCount());
        int assigned = 0;
        int ok = 0;
        long currentEpoch = 0;
        long myEpoch = 0;
        for (int p = 0; p < view.layout().partitionCount(); p++) {
            PartitionRuntime runtime = view.runtimeMap().get(p);
            int slots = mapper.lastSlotOf(view.layout().lastSegmentOf(p)) - mapper.firstSlotOf(view.layout().firstSegmentOf(p)) + 1;
            currentEpoch = Math.max(currentEpoch, runtime.epoch());
            if (self.equals(runtime.activeNode())) {
                myEpoch = Math.max(myEpoch, runtime.epoch());
            }
            if (runtime.activeNode() != null) {
                assigned += slots;
                if (runtime.health().isServing()) {
                    ok += slots;
                }
            }
        }
        int masters = 0;
        for (String nodeId : view.addresses().keySet()) {
            for (SlotRange range : ranges(view, ports)) {
                if (range.master().equals(nodeId)) {
                    masters++;
                    break;
                }
            }
        }
        return "cluster_state:" + (ok == SegmentMapper.SLOT_COUNT ? "ok" : "fail") + "\r\n"
                + "cluster_slots_assigned:" + assigned + "\r\n"
                + "cluster_slots_ok:" + ok + "\r\n"
                + "cluster_slots_pfail:0\r\n"
                + "cluster_slots_fail:" + (SegmentMapper.SLOT_COUNT - ok) + "\r\n"
                + "cluster_known_nodes:" + view.addresses().size() + "\r\n"
                + "cluster_size:" + masters + "\r\n"
                + "cluster_current_epoch:" + currentEpoch + "\r\n"
                + "cluster_my_epoch:" + myEpoch + "\r\n"
                + "cluster_stats_messages_sent:0\r\n"
                + "cluster_stats_messages_received:0\r\n"
                + "total_cluster_links_buffer_limit_exceeded:0\r\n";
    }
}
