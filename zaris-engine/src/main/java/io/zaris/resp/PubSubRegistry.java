package io.zaris.resp;

import io.zaris.model.Glob;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

/**
 * Who listens to what on this node's RESP port: channels ({@code SUBSCRIBE}), patterns ({@code PSUBSCRIBE}) and
 * shard channels ({@code SSUBSCRIBE}), each name mapped to the connections subscribed to it, and per connection
 * ({@link Subscriber}) the names it holds.
 *
 * <p><b>Bounds.</b> A connection holds at most {@code maxPerConnection} subscriptions (channels, patterns and shard
 * channels together) and the node at most {@code maxPerNode}; a subscription past either is refused as a whole
 * command, before anything changes ({@link #reserve}). Memory is therefore bounded by the node limit times the longest
 * name a command may carry.
 *
 * <p><b>Threads.</b> Subscribing and unsubscribing run on the subscriber's event loop; delivery ({@link #deliver}) on
 * the publisher's event loop; {@link #dropShardChannels} on the membership events thread. Each name maps to an
 * immutable array of subscribers, replaced by {@link ConcurrentHashMap#compute} (atomic per name), so delivery reads
 * it without a lock and never waits: it hands each message to the subscriber's bounded push path, which closes a
 * connection that does not read rather than let it grow. A subscriber's own name sets are guarded by the subscriber's
 * monitor, since the membership thread removes shard channels from them too.
 */
final class PubSubRegistry {

    /** Subscriptions one connection may hold (channels, patterns and shard channels together). */
    static final int DEFAULT_MAX_PER_CONNECTION = 10_000;
    /** Subscriptions all connections of a node may hold together. */
    static final int DEFAULT_MAX_PER_NODE = 1_000_000;

    private static final Subscriber[] NONE = new Subscriber[0];

    /** The three kinds of subscription; each has its own name space, as in Redis. */
    enum Kind {
        CHANNEL, PATTERN, SHARD
    }

    /** A channel or pattern name, compared by content. */
    record Name(byte[] bytes) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Name name && Arrays.equals(name.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private final int maxPerConnection;
    private final int maxPerNode;
    private final Map<Name, Subscriber[]> channels = new ConcurrentHashMap<>();
    private final Map<Name, Subscriber[]> patterns = new ConcurrentHashMap<>();
    private final Map<Name, Subscriber[]> shardChannels = new ConcurrentHashMap<>();
    /** Subscriptions held by all connections; reserved before a subscription is added, released after removal. */
    private final AtomicInteger held = new AtomicInteger();

    PubSubRegistry(int maxPerConnection, int maxPerNode) {
        if (maxPerConnection < 1 || maxPerNode < maxPerConnection) {
            throw new IllegalArgumentException("pub/sub limits must be positive and the node's at least a connection's: "
                    + maxPerConnection + " per connection, " + maxPerNode + " per node");
        }
        this.maxPerConnection = maxPerConnection;
        this.maxPerNode = maxPerNode;
    }

    int maxPerConnection() {
        return maxPerConnection;
    }

    int maxPerNode() {
        return maxPerNode;
    }

    /** A connection's subscriptions, pushed through {@code pushes} (its bounded outbound path, any thread). */
    Subscriber subscriber(long id, Consumer<RespReply.Push> pushes) {
        return new Subscriber(id, pushes);
    }

    /**
     * Room for {@code added} more subscriptions of {@code subscriber}, taken from the node's budget; {@code null} when
     * granted, else the error to answer (nothing was taken).
     */
    RespReply reserve(Subscriber subscriber, int added) {
        if (subscriber.count() + added > maxPerConnection) {
            return RespReply.error("ERR too many subscriptions on this connection (at most " + maxPerConnection + ")");
        }
        if (held.addAndGet(added) > maxPerNode) {
            held.addAndGet(-added);
            return RespReply.error("ERR too many subscriptions on this node (at most " + maxPerNode + ")");
        }
        return null;
    }

    /** Gives back {@code count} reserved subscriptions that were not used (negative: takes more, for a race's extra one). */
    void release(int count) {
        held.addAndGet(-count);
    }

    /** Subscriptions held on the node now. */
    int held() {
        return held.get();
    }

    private Map<Name, Subscriber[]> map(Kind kind) {
        return switch (kind) {
            case CHANNEL -> channels;
            case PATTERN -> patterns;
            case SHARD -> shardChannels;
        };
    }

    private void add(Kind kind, Name name, Subscriber subscriber) {
        map(kind).compute(name, (ignored, current) -> {
            Subscriber[] grown = current == null ? new Subscriber[1] : Arrays.copyOf(current, current.length + 1);
            grown[grown.length - 1] = subscriber;
            return grown;
        });
    }

    private void remove(Kind kind, Name name, Subscriber subscriber) {
        map(kind).computeIfPresent(name, (ignored, current) -> {
            List<Subscriber> rest = new ArrayList<>(current.length);
            for (Subscriber s : current) {
                if (s != subscriber) {
                    rest.add(s);
                }
            }
            return rest.isEmpty() ? null : rest.toArray(NONE);
        });
        held.decrementAndGet();
    }

    /**
     * Publisher's thread: hands {@code channel}'s message to every subscriber of the channel ({@code message}) and of
     * a matching pattern ({@code pmessage}), or for {@code sharded} to the shard channel's ({@code smessage}).
     *
     * @return the deliveries made (a connection subscribed by channel and by two patterns counts three times, as in Redis)
     */
    int deliver(byte[] channel, byte[] message, boolean sharded) {
        Name name = new Name(channel);
        RespReply.Bulk channelBulk = new RespReply.Bulk(channel);
        RespReply.Bulk messageBulk = new RespReply.Bulk(message);
        if (sharded) {
            return push(shardChannels.get(name), new RespReply.Push(List.of(SMESSAGE, channelBulk, messageBulk)));
        }
        int delivered = push(channels.get(name), new RespReply.Push(List.of(MESSAGE, channelBulk, messageBulk)));
        for (Map.Entry<Name, Subscriber[]> pattern : patterns.entrySet()) {
            if (Glob.matches(pattern.getKey().bytes(), channel)) {
                delivered += push(pattern.getValue(), new RespReply.Push(List.of(PMESSAGE,
                        new RespReply.Bulk(pattern.getKey().bytes()), channelBulk, messageBulk)));
            }
        }
        return delivered;
    }

    private static int push(Subscriber[] subscribers, RespReply.Push push) {
        if (subscribers == null) {
            return 0;
        }
        for (Subscriber subscriber : subscribers) {
            subscriber.pushes.accept(push);
        }
        return subscribers.length;
    }

    private static final RespReply MESSAGE = RespReply.bulk("message");
    private static final RespReply PMESSAGE = RespReply.bulk("pmessage");
    private static final RespReply SMESSAGE = RespReply.bulk("smessage");

    /** Channels ({@code CHANNEL} or {@code SHARD}) with at least one subscriber, whose name matches {@code pattern} ({@code null}: all). */
    List<byte[]> active(Kind kind, byte[] pattern) {
        List<byte[]> names = new ArrayList<>();
        for (Name name : map(kind).keySet()) {
            if (pattern == null || Glob.matches(pattern, name.bytes())) {
                names.add(name.bytes());
            }
        }
        return names;
    }

    /** Subscribers of one channel or shard channel (patterns are not counted, as in Redis). */
    int subscribers(Kind kind, byte[] channel) {
        Subscriber[] subscribers = map(kind).get(new Name(channel));
        return subscribers == null ? 0 : subscribers.length;
    }

    /** Distinct patterns subscribed on the node. */
    int patterns() {
        return patterns.size();
    }

    /**
     * Membership events thread: drops every shard channel whose slot {@code lost} accepts, pushing each of its
     * subscribers {@code sunsubscribe <channel> <shard channels left>} as Redis 7 does when a slot moves away, so a
     * cluster client subscribes again at the slot's new owner.
     *
     * @return the subscriptions dropped
     */
    int dropShardChannels(IntPredicate lost) {
        int dropped = 0;
        for (Name name : List.copyOf(shardChannels.keySet())) {
            if (!lost.test(io.zaris.placement.SegmentMapper.slot(name.bytes()))) {
                continue;
            }
            Subscriber[] subscribers = shardChannels.remove(name);
            if (subscribers == null) {
                continue;
            }
            for (Subscriber subscriber : subscribers) {
                int left = subscriber.forget(Kind.SHARD, name);
                if (left >= 0) {
                    held.decrementAndGet();
                    dropped++;
                    subscriber.pushes.accept(new RespReply.Push(List.of(SUNSUBSCRIBE, new RespReply.Bulk(name.bytes()),
                            RespReply.integer(left))));
                }
            }
        }
        return dropped;
    }

    private static final RespReply SUNSUBSCRIBE = RespReply.bulk("sunsubscribe");

    /**
     * One connection's subscriptions. Its name sets are guarded by its monitor: its event loop changes them, and the
     * membership thread removes shard channels whose slot moved away.
     */
    final class Subscriber {
        final long id;
        private final Consumer<RespReply.Push> pushes;
        private final Set<Name> channelNames = new LinkedHashSet<>();
        private final Set<Name> patternNames = new LinkedHashSet<>();
        private final Set<Name> shardNames = new LinkedHashSet<>();

        private Subscriber(long id, Consumer<RespReply.Push> pushes) {
            this.id = id;
            this.pushes = pushes;
        }

        private Set<Name> names(Kind kind) {
            return switch (kind) {
                case CHANNEL -> channelNames;
                case PATTERN -> patternNames;
                case SHARD -> shardNames;
            };
        }

        /** All subscriptions of the connection. */
        synchronized int count() {
            return channelNames.size() + patternNames.size() + shardNames.size();
        }

        /** Channels and patterns: the count Redis's (p)subscribe confirmations carry. */
        synchronized int channelsAndPatterns() {
            return channelNames.size() + patternNames.size();
        }

        synchronized int shards() {
            return shardNames.size();
        }

        synchronized boolean holds(Kind kind, Name name) {
            return names(kind).contains(name);
        }

        /** The names of one kind, in subscription order. */
        synchronized List<Name> held(Kind kind) {
            return List.copyOf(names(kind));
        }

        /**
         * Subscribes to {@code name}, counted in a reservation made by {@link #reserve} beforehand.
         *
         * @return false when already subscribed (the caller gives that part of its reservation back)
         */
        boolean subscribe(Kind kind, Name name) {
            synchronized (this) {
                if (!names(kind).add(name)) {
                    return false;
                }
            }
            add(kind, name, this);
            return true;
        }

        /** @return false when not subscribed to {@code name} */
        boolean unsubscribe(Kind kind, Name name) {
            synchronized (this) {
                if (!names(kind).remove(name)) {
                    return false;
                }
            }
            remove(kind, name, this);
            return true;
        }

        /** Removes {@code name} from this connection's set only; the registry's entry is already gone. @return shard channels left, or -1 when it was not held */
        private synchronized int forget(Kind kind, Name name) {
            return names(kind).remove(name) ? shardNames.size() : -1;
        }

        /** The connection closed or was reset: every subscription goes. */
        void unsubscribeAll() {
            for (Kind kind : Kind.values()) {
                for (Name name : held(kind)) {
                    unsubscribe(kind, name);
                }
            }
        }
    }
}
