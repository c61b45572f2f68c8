package io.zaris.resp;

import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.SegmentMapper;
import io.zaris.resp.PubSubRegistry.Kind;
import io.zaris.resp.PubSubRegistry.Name;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pub/sub on the RESP port, with Redis's replies: {@code SUBSCRIBE PSUBSCRIBE UNSUBSCRIBE PUNSUBSCRIBE PUBLISH},
 * the sharded {@code SSUBSCRIBE SUNSUBSCRIBE SPUBLISH}, {@code PUBSUB CHANNELS|NUMSUB|NUMPAT|SHARDCHANNELS|SHARDNUMSUB}.
 *
 * <p><b>Delivery.</b> A message goes to the connections of this node subscribed to its channel (or a matching pattern),
 * through each connection's bounded push path ({@link RespConnectionHandler#push}), and is relayed to every other
 * node, which delivers it to its own subscribers: at most once, never waiting for a subscriber or a node; a node that
 * is down misses it. A subscriber that does not read its messages is disconnected, as Redis's
 * {@code client-output-buffer-limit pubsub} does. {@code PUBLISH} answers the deliveries made on this node, as a
 * Redis Cluster node does.
 *
 * <p><b>Sharded channels</b> are routed by the channel's slot like a key: {@code SSUBSCRIBE} and {@code SPUBLISH} run
 * on the slot's active owner only ({@code -MOVED} elsewhere, {@code -CROSSSLOT} for channels of different slots).
 * When this node stops serving a slot ({@link #viewInstalled}), its shard channels' subscribers are pushed
 * {@code sunsubscribe}, as Redis 7 does, and a cluster client subscribes again at the new owner.
 *
 * <p><b>RESP2 subscribed mode.</b> A RESP2 connection holding a subscription runs only the (un)subscribe commands,
 * {@code PING} (answered {@code [pong, arg]}), {@code QUIT} and {@code RESET}; a RESP3 connection runs anything, its
 * messages arriving as pushes.
 *
 * <p><b>Threads.</b> Commands run on the connection's event loop, which owns its session; {@link #viewInstalled} on
 * the membership events thread. Shared state is the {@link PubSubRegistry}, whose class comment says why it is safe.
 */
final class RespPubSub {

    private static final Logger log = LoggerFactory.getLogger(RespPubSub.class);
    private static final RespReply CROSSSLOT = RespReply.error("CROSSSLOT Keys in request don't hash to the same slot");
    private static final Set<String> ALLOWED_SUBSCRIBED = Set.of("subscribe", "psubscribe", "ssubscribe", "unsubscribe",
            "punsubscribe", "sunsubscribe", "ping", "quit", "reset");
    /** Commands Redis names with their subcommand ({@code pubsub|numsub}) in errors. */
    private static final Set<String> CONTAINERS = Set.of("pubsub", "client", "config", "command", "cluster");

    private final String nodeId;
    private final Supplier<ClusterView> view;
    private final RespPeerPorts peerPorts;
    private final PubSubRegistry registry;
    /** Hands a PUBLISH made here to the other nodes (at most once, never blocking). */
    private final java.util.function.BiConsumer<byte[], byte[]> peers;

    RespPubSub(String nodeId, Supplier<ClusterView> view, RespPeerPorts peerPorts,
               java.util.function.BiConsumer<byte[], byte[]> peers, PubSubRegistry registry) {
        this.peers = peers;
        this.nodeId = nodeId;
        this.view = view;
        this.peerPorts = peerPorts;
        this.registry = registry;
    }

    /** Is {@code name} a command this class runs? */
    static boolean handles(String name) {
        return switch (name) {
            case "subscribe", "psubscribe", "unsubscribe", "punsubscribe", "publish", "pubsub",
                 "ssubscribe", "sunsubscribe", "spublish" -> true;
            default -> false;
        };
    }

    /**
     * RESP2 subscribed mode: {@code null} when {@code name} runs as usual, else its reply here (PING's
     * {@code [pong, arg]}, or the refusal of any other command but the (un)subscribe ones, QUIT and RESET).
     */
    static RespReply subscribedContext(String name, List<byte[]> a, RespSession session) {
        if (session.protocol >= 3 || session.subscriber == null || session.subscriber.count() == 0) {
            return null;
        }
        if (name.equals("ping")) {
            if (a.size() > 2) {
                return RespReply.error("ERR wrong number of arguments for 'ping' command");
            }
            return RespReply.array(List.of(RespReply.bulk("pong"), a.size() == 2 ? new RespReply.Bulk(a.get(1))
                    : RespReply.bulk("")));
        }
        if (ALLOWED_SUBSCRIBED.contains(name)) {
            return null;
        }
        String fullName = CONTAINERS.contains(name) && a.size() > 1
                ? name + "|" + RespCommands.text(a.get(1)).toLowerCase(Locale.ROOT) : name;
        return RespReply.error("ERR Can't execute '" + fullName + "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT"
                + " / RESET are allowed in this context");
    }

    RespReply execute(String name, List<byte[]> a, RespSession session) {
        return switch (name) {
            case "subscribe" -> subscribe(Kind.CHANNEL, a, session);
            case "psubscribe" -> subscribe(Kind.PATTERN, a, session);
            case "ssubscribe" -> ssubscribe(a, session);
            case "unsubscribe" -> unsubscribe(Kind.CHANNEL, a, session);
            case "punsubscribe" -> unsubscribe(Kind.PATTERN, a, session);
            case "sunsubscribe" -> unsubscribe(Kind.SHARD, a, session);
            case "publish" -> publish(a.get(1), a.get(2));
            case "spublish" -> spublish(a);
            case "pubsub" -> pubsub(a);
            default -> throw new IllegalArgumentException("not a pub/sub command: " + name);
        };
    }

    /** The connection closed or was reset: its subscriptions go. Its event loop. */
    static void closed(RespSession session) {
        if (session.subscriber != null) {
            session.subscriber.unsubscribeAll();
        }
    }

    private PubSubRegistry.Subscriber subscriberOf(RespSession session) {
        if (session.subscriber == null) {
            session.subscriber = registry.subscriber(session.id, session.pushes);
        }
        return session.subscriber;
    }

    private RespReply subscribe(Kind kind, List<byte[]> a, RespSession session) {
        PubSubRegistry.Subscriber subscriber = subscriberOf(session);
        List<Name> names = distinctNames(a);
        int added = 0;
        for (Name name : names) {
            if (!subscriber.holds(kind, name)) {
                added++;
            }
        }
        RespReply refusal = registry.reserve(subscriber, added);
        if (refusal != null) {
            return refusal;
        }
        List<RespReply> confirmations = new ArrayList<>(a.size() - 1);
        RespReply verb = RespReply.bulk(kind == Kind.PATTERN ? "psubscribe" : kind == Kind.SHARD ? "ssubscribe" : "subscribe");
        int used = 0;
        for (int i = 1; i < a.size(); i++) {
            Name name = new Name(a.get(i));
            // A name held before, or repeated on this line, is confirmed again with the same count, as Redis does.
            if (!subscriber.holds(kind, name) && subscriber.subscribe(kind, name)) {
                used++;
            }
            confirmations.add(confirmation(verb, name.bytes(), kind == Kind.SHARD ? subscriber.shards()
                    : subscriber.channelsAndPatterns()));
        }
        // Normally used == added; a shard channel dropped by a view change meanwhile can make it one more.
        registry.release(added - used);
        return new RespReply.Frames(confirmations);
    }

    private static List<Name> distinctNames(List<byte[]> a) {
        Set<Name> names = new LinkedHashSet<>();
        for (int i = 1; i < a.size(); i++) {
            names.add(new Name(a.get(i)));
        }
        return List.copyOf(names);
    }

    private RespReply ssubscribe(List<byte[]> a, RespSession session) {
        int slot = SegmentMapper.slot(a.get(1));
        for (int i = 2; i < a.size(); i++) {
            if (SegmentMapper.slot(a.get(i)) != slot) {
                return CROSSSLOT;
            }
        }
        RespReply notOwner = ownerRefusal(slot);
        if (notOwner != null) {
            return notOwner;
        }
        RespReply confirmations = subscribe(Kind.SHARD, a, session);
        // Checked again after subscribing: a view that took the slot away after the first check was installed either
        // before this second look (refused here, and undone) or after the channels were in the registry (dropped,
        // with its sunsubscribe push, by viewInstalled). Either way no subscription stays on a node that lost the slot.
        RespReply lostMeanwhile = ownerRefusal(slot);
        if (lostMeanwhile != null) {
            for (Name name : distinctNames(a)) {
                session.subscriber.unsubscribe(Kind.SHARD, name);
            }
            return lostMeanwhile;
        }
        return confirmations;
    }

    /** Delivered here, relayed to the other nodes; answers this node's deliveries, as a Redis Cluster node does. */
    private RespReply publish(byte[] channel, byte[] message) {
        int delivered = registry.deliver(channel, message, false);
        peers.accept(channel, message);
        return RespReply.integer(delivered);
    }

    private RespReply spublish(List<byte[]> a) {
        RespReply notOwner = ownerRefusal(SegmentMapper.slot(a.get(1)));
        return notOwner != null ? notOwner : RespReply.integer(registry.deliver(a.get(1), a.get(2), true));
    }

    /** {@code null} when this node actively serves {@code slot}, else the redirect or error a key command would get. */
    private RespReply ownerRefusal(int slot) {
        ClusterView current = view.get();
        if (current == null) {
            return RespReply.error("CLUSTERDOWN node " + nodeId + " has no cluster map yet");
        }
        PartitionRuntime runtime = current.runtimeOfSegment(new SegmentMapper(current.layout().segmentCount()).segmentOfSlot(slot));
        if (nodeId.equals(runtime.activeNode()) && runtime.health().isServing()) {
            return null;
        }
        return RespCommands.movedReply(current, nodeId, peerPorts, slot);
    }

    private RespReply unsubscribe(Kind kind, List<byte[]> a, RespSession session) {
        PubSubRegistry.Subscriber subscriber = subscriberOf(session);
        RespReply verb = RespReply.bulk(kind == Kind.PATTERN ? "punsubscribe" : kind == Kind.SHARD ? "sunsubscribe" : "unsubscribe");
        List<byte[]> names = new ArrayList<>();
        if (a.size() == 1) {
            subscriber.held(kind).forEach(name -> names.add(name.bytes()));
        } else {
            names.addAll(a.subList(1, a.size()));
        }
        if (kind == Kind.SHARD && a.size() > 1) {
            int slot = SegmentMapper.slot(names.get(0));
            for (byte[] name : names) {
                if (SegmentMapper.slot(name) != slot) {
                    return CROSSSLOT;
                }
            }
        }
        if (names.isEmpty()) {
            return new RespReply.Frames(List.of(new RespReply.Push(List.of(verb, RespReply.NULL,
                    RespReply.integer(kind == Kind.SHARD ? subscriber.shards() : subscriber.channelsAndPatterns())))));
        }
        List<RespReply> confirmations = new ArrayList<>(names.size());
        for (byte[] name : names) {
            subscriber.unsubscribe(kind, new Name(name));
            confirmations.add(confirmation(verb, name, kind == Kind.SHARD ? subscriber.shards()
                    : subscriber.channelsAndPatterns()));
        }
        return new RespReply.Frames(confirmations);
    }

    private static RespReply confirmation(RespReply verb, byte[] name, int count) {
        return new RespReply.Push(List.of(verb, new RespReply.Bulk(name), RespReply.integer(count)));
    }

    private RespReply pubsub(List<byte[]> a) {
        String sub = RespCommands.text(a.get(1)).toUpperCase(Locale.ROOT);
        switch (sub) {
            case "CHANNELS", "SHARDCHANNELS" -> {
                if (a.size() > 3) {
                    // Redis's words here: these subcommands take a variable count, so its handler, not the table, refuses.
                    return RespReply.error("ERR unknown subcommand or wrong number of arguments for '"
                            + RespCommands.text(a.get(1)) + "'. Try PUBSUB HELP.");
                }
                List<RespReply> names = new ArrayList<>();
                registry.active(sub.equals("CHANNELS") ? Kind.CHANNEL : Kind.SHARD, a.size() == 3 ? a.get(2) : null)
                        .forEach(name -> names.add(new RespReply.Bulk(name)));
                return RespReply.array(names);
            }
            case "NUMSUB", "SHARDNUMSUB" -> {
                List<RespReply> counts = new ArrayList<>();
                Kind kind = sub.equals("NUMSUB") ? Kind.CHANNEL : Kind.SHARD;
                for (byte[] channel : a.subList(2, a.size())) {
                    counts.add(new RespReply.Bulk(channel));
                    counts.add(RespReply.integer(registry.subscribers(kind, channel)));
                }
                return sub.equals("SHARDNUMSUB") ? RespReply.map(counts) : RespReply.array(counts);
            }
            case "NUMPAT" -> {
                return a.size() == 2 ? RespReply.integer(registry.patterns())
                        : RespReply.error("ERR wrong number of arguments for 'pubsub|numpat' command");
            }
            default -> {
                return RespReply.error("ERR unknown subcommand '" + RespCommands.text(a.get(1)) + "'. Try PUBSUB HELP.");
            }
        }
    }

    /**
     * Membership events thread, once {@code adopted} is the view requests are routed by: the shard channels of
     * partitions this node served under {@code previous} and does not under {@code adopted} are dropped, and their
     * subscribers pushed {@code sunsubscribe}.
     */
    void viewInstalled(ClusterView previous, ClusterView adopted) {
        BitSet lost = RespTracking.lostSegments(nodeId, previous, adopted);
        if (lost.isEmpty()) {
            return;
        }
        SegmentMapper segments = new SegmentMapper(adopted.layout().segmentCount());
        int dropped = registry.dropShardChannels(slot -> lost.get(segments.segmentOfSlot(slot)));
        if (dropped > 0) {
            log.info("node {}: {} segment(s) served elsewhere now; unsubscribed {} shard channel subscription(s)",
                    nodeId, lost.cardinality(), dropped);
        }
    }

    /**
     * The node stops serving every slot (its listener closes): each shard channel subscriber is pushed
     * {@code sunsubscribe}, queued before the close, so a cluster client subscribes again at the slots' new owners
     * instead of waiting to notice the closed connection.
     */
    void closing() {
        registry.dropShardChannels(slot -> true);
    }

    PubSubRegistry registry() {
        return registry;
    }
}
