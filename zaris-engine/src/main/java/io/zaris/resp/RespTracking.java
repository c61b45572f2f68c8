package io.zaris.resp;

import io.zaris.model.Change;
import io.zaris.model.ClusterView;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.store.ChangeSink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Server-assisted client-side caching on the RESP port ({@code CLIENT TRACKING}), as Redis does it: a tracking
 * connection is pushed {@code invalidate [key]} (RESP3) when a key it may have cached changes, so Lettuce's and
 * Jedis's client-side caches work unchanged against a node.
 *
 * <p><b>Why on the node.</b> A RESP connection reads a key only from the key's active owner (MOVED otherwise), and
 * every change of a key happens on that owner, through its store's {@link ChangeSink} ({@link #before}): writes,
 * deletes, expiry and eviction alike. So the owner alone knows both who read a key and when it changes.
 *
 * <p><b>Modes.</b> Default: the keys of the read-only commands a connection sends are remembered in a bounded
 * {@link TrackingTable} (only keys of segments this node actively serves: a MOVED read caches nothing), and the first
 * change of one pushes its invalidation once. OPTIN/OPTOUT: only after {@code CLIENT CACHING yes} / unless after
 * {@code CLIENT CACHING no}. BCAST: nothing is remembered; every change of a key under one of the connection's
 * prefixes (every key without a prefix) is pushed. NOLOOP: a change made by the connection's own command is not pushed
 * to it (best-effort: a write that completes on another thread is still pushed, which costs the client a miss, never a
 * stale value).
 *
 * <p><b>REDIRECT.</b> {@code REDIRECT <id>} sends the connection's invalidations to another open connection of this
 * node ({@link RespConnections}), as Redis does: as {@code invalidate} pushes when that connection speaks RESP3, as a
 * pub/sub {@code message} on {@code __redis__:invalidate} whose payload is the key array (null: flush everything)
 * when it speaks RESP2 and holds any subscription, else not at all. Which form is decided on the receiving
 * connection's event loop when the push is written ({@link #asWritten}), since its protocol and subscriptions are that
 * loop's state. This is how RESP2 tracks; RESP2 without REDIRECT is refused (Redis accepts it and never sends
 * anything). A redirect connection that has closed is found out when an invalidation is due, as in Redis: the tracking
 * connection is marked {@code broken_redirect} and, over RESP3, pushed {@code tracking-redir-broken <id>}, once per
 * invalidation that could not be delivered.
 *
 * <p><b>No lost invalidation.</b> A read remembers its keys on the connection's event loop before it runs. A write
 * makes its change visible and then, under the segment's write lock, reads the table: a read that saw the old value
 * ran before the change, so its key was remembered before the table was read. The push is queued on the reader's
 * event loop behind the replies of commands that already ran ({@link RespConnectionHandler#push}), so a reply
 * carrying the old value always reaches the client before the invalidation of it.
 *
 * <p><b>Ownership moving away.</b> When this node installs a view in which it no longer actively serves a partition
 * ({@link #viewInstalled}; after the view is the one reads are routed by, so no read there succeeds any more), every
 * remembered key of that partition's segments is forgotten and pushed to its readers: the narrowest invalidation
 * that leaves nobody serving a value whose later changes happen on another node. BCAST connections remember no keys,
 * so they are pushed a null invalidation (flush everything), once per view that takes a partition away.
 *
 * <p><b>Threads.</b> Command handling ({@link #command}, {@link #beforeCommand}) runs on the connection's event loop,
 * which owns the session and its {@link Client}'s command-time fields. The change hook runs on writers' threads under
 * the segment's write lock and reads only the table, the registry of tracking connections (a concurrent map) and the
 * BCAST snapshot (an immutable array replaced under {@code this}); it costs a volatile read and no allocation when
 * nobody tracks. {@link #viewInstalled} runs on the membership events thread. A {@link Client}'s redirect id and
 * broken mark are volatile: its event loop sets them, any delivering thread reads (and marks broken).
 */
public final class RespTracking {

    private static final Logger log = LoggerFactory.getLogger(RespTracking.class);
    private static final Client[] NO_CLIENTS = new Client[0];
    private static final RespReply INVALIDATE = RespReply.bulk("invalidate");
    private static final RespReply MESSAGE = RespReply.bulk("message");
    private static final RespReply INVALIDATE_CHANNEL = RespReply.bulk("__redis__:invalidate");
    private static final RespReply REDIR_BROKEN = RespReply.bulk("tracking-redir-broken");
    /**
     * Marks a redirected invalidation, whose form the receiving connection's event loop decides ({@link #asWritten}).
     * Compared by identity; its bytes are {@code invalidate}, so it renders as the RESP3 push if ever written as is.
     */
    private static final RespReply.Bulk REDIRECTED = new RespReply.Bulk("invalidate".getBytes(StandardCharsets.US_ASCII));
    /** Marks a broken-redirect notice, written to RESP3 connections only ({@link #asWritten}). Compared by identity. */
    private static final RespReply.Bulk REDIR_BROKEN_RESP3_ONLY =
            new RespReply.Bulk("tracking-redir-broken".getBytes(StandardCharsets.US_ASCII));
    static final RespReply NO_SUCH_REDIRECT = RespReply.error("ERR The client ID you want redirect to does not exist");
    static final RespReply RESP2_REFUSED = RespReply.error("ERR CLIENT TRACKING over RESP2 needs REDIRECT to a connection "
            + "subscribed to __redis__:invalidate, or RESP3 (HELLO 3)");
    /** The tracking connection whose command runs on this thread now, when it asked for NOLOOP. */
    private static final ThreadLocal<Client> NOLOOP_WRITER = new ThreadLocal<>();

    private final String nodeId;
    private final int segmentCount;
    private final SegmentMapper segments;
    private final Supplier<ClusterView> view;
    private final TrackingTable table;
    /** This node's open connections, which REDIRECT names. */
    private final RespConnections connections = new RespConnections();
    /** Connections with tracking on, by connection id: where the table's ids are delivered. */
    private final Map<Long, Client> clients = new ConcurrentHashMap<>();
    /** BCAST connections; an immutable snapshot replaced under {@code this}, read lock-free by the change hook. */
    private volatile Client[] broadcasters = NO_CLIENTS;
    /** Set by {@link #closing}: the listener stops, so reads are invalidated as they are answered. */
    private volatile boolean closing;

    RespTracking(String nodeId, int segmentCount, Supplier<ClusterView> view, int maxKeys) {
        this.nodeId = nodeId;
        this.segmentCount = segmentCount;
        this.segments = new SegmentMapper(segmentCount);
        this.view = view;
        this.table = new TrackingTable(maxKeys);
    }

    /** Tracking for a node's RESP port; {@code view} is the node's current view ({@code null} before its first). */
    public static RespTracking create(String nodeId, int segmentCount, Supplier<ClusterView> view) {
        return new RespTracking(nodeId, segmentCount, view, TrackingTable.DEFAULT_MAX_KEYS);
    }

    /** The store's sink: pushes the changes to the connections tracking them, then hands them to {@code next}. */
    public ChangeSink before(ChangeSink next) {
        return next.after((segment, changes) -> {
            try {
                changed(segment, changes);
            } catch (RuntimeException e) {
                // The change is applied: failing here would fail a write that happened. A connection that could not
                // be pushed to is closing (its event loop refused the task), and its client starts over.
                log.warn("node {}: pushing invalidations of segment {} failed: {}", nodeId, segment, e.toString());
            }
        });
    }

    /** Writer's thread, under the segment's write lock. */
    void changed(int segment, List<Change> changes) {
        Client[] bcast = broadcasters;
        if (table.isEmpty() && bcast.length == 0) {
            return;
        }
        Client writer = NOLOOP_WRITER.get();
        byte[] previous = null;
        for (Change change : changes) {
            if (change.kind() == Change.Kind.RENAME) { // changes two keys: the destination too
                invalidate(segment, change.field(), writer, bcast);
            }
            byte[] key = change.key();
            if (previous != null && Arrays.equals(previous, key)) {
                continue; // a hash or set write ships one change per field: one invalidation is enough
            }
            previous = key;
            invalidate(segment, key, writer, bcast);
        }
    }

    /** Writer's thread, under the segment's write lock: {@code key} changed; its readers but the writer hear of it. */
    private void invalidate(int segment, byte[] key, Client writer, Client[] bcast) {
        for (long id : table.changed(segment, key)) {
            Client client = clients.get(id);
            if (client != null && client != writer && !client.mode.bcast()) {
                client.invalidate(List.of(key));
            }
        }
        for (Client client : bcast) {
            if (client != writer && client.mode.matches(key)) {
                client.invalidate(List.of(key));
            }
        }
    }

    /**
     * Membership events thread, once {@code adopted} is the view reads are routed by: the keys of the partitions this
     * node served under {@code previous} and does not under {@code adopted} are pushed to their readers.
     */
    public void viewInstalled(ClusterView previous, ClusterView adopted) {
        BitSet lost = lostSegments(nodeId, previous, adopted);
        if (lost.isEmpty()) {
            return;
        }
        int keys = 0;
        for (TrackingTable.Invalidation invalidation : table.dropSegments(lost)) {
            Client client = clients.get(invalidation.clientId());
            if (client != null) {
                client.invalidate(invalidation.keys());
                keys += invalidation.keys().size();
            }
        }
        Client[] bcast = broadcasters;
        for (Client client : bcast) {
            client.invalidateAll();
        }
        if (keys > 0 || bcast.length > 0) {
            log.info("node {}: {} segment(s) served elsewhere now; pushed {} tracked key(s) and {} flush(es) to RESP clients",
                    nodeId, lost.cardinality(), keys, bcast.length);
        }
    }

    /**
     * The listener is about to close its connections (the node stops): every tracked key is pushed to its readers, and
     * every BCAST connection a flush, queued before the close so they leave first. A client that does not notice a
     * closed connection (Jedis checks for pushes only when it uses an entry) would otherwise go on answering values
     * whose later changes happen on the new owner. From now on a read is invalidated as it is answered.
     */
    void closing() {
        closing = true;
        BitSet all = new BitSet(segmentCount);
        all.set(0, segmentCount);
        for (TrackingTable.Invalidation invalidation : table.dropSegments(all)) {
            Client client = clients.get(invalidation.clientId());
            if (client != null) {
                client.invalidate(invalidation.keys());
            }
        }
        for (Client client : broadcasters) {
            client.invalidateAll();
        }
    }

    /** The segments of partitions {@code nodeId} actively served under {@code previous} and does not under {@code adopted}. */
    static BitSet lostSegments(String nodeId, ClusterView previous, ClusterView adopted) {
        BitSet lost = new BitSet();
        if (previous == null || adopted == null) {
            return lost;
        }
        PartitionLayout layout = adopted.layout();
        for (int p = 0; p < layout.partitionCount(); p++) {
            PartitionRuntime before = previous.runtimeMap().get(p);
            PartitionRuntime after = adopted.runtimeMap().get(p);
            if (before != null && nodeId.equals(before.activeNode()) && (after == null || !nodeId.equals(after.activeNode()))) {
                lost.set(layout.firstSegmentOf(p), layout.lastSegmentOf(p) + 1);
            }
        }
        return lost;
    }

    // ------------------------------------------------------------------ connections (their event loops)

    /** Event loop of a connection that opened: REDIRECT may name it from now on. */
    void opened(RespSession session) {
        connections.opened(session);
    }

    /** Event loop of a connection that closed: its tracking is off and REDIRECT finds it no more. */
    void closed(RespSession session) {
        off(session);
        connections.closed(session);
    }

    /**
     * Event loop, after HELLO switched the connection's protocol: over RESP2 a connection keeps tracking only with a
     * REDIRECT, because its own connection cannot carry pushes.
     */
    void protocolChanged(RespSession session) {
        Client client = session.tracking;
        if (session.protocol < 3 && client != null && client.redirect == 0) {
            off(session);
        }
    }

    /**
     * Event loop of the connection a push is about to be written to: the form Redis gives it there now, or
     * {@code null} when Redis would send nothing. A redirected invalidation is an {@code invalidate} push over RESP3,
     * a {@code message} on {@code __redis__:invalidate} over RESP2 while the connection holds any subscription (Redis
     * asks for its pub/sub mode, not for that channel), else nothing; a broken-redirect notice goes to RESP3 only.
     * Every other push is written as it is.
     */
    static RespReply.Push asWritten(RespReply.Push push, RespSession session) {
        RespReply kind = push.items().get(0);
        if (kind == REDIRECTED) {
            if (session.protocol >= 3) {
                return push; // renders as invalidate <payload>
            }
            return session.subscriber != null && session.subscriber.count() > 0
                    ? new RespReply.Push(List.of(MESSAGE, INVALIDATE_CHANNEL, push.items().get(1))) : null;
        }
        if (kind == REDIR_BROKEN_RESP3_ONLY) {
            return session.protocol >= 3 ? new RespReply.Push(List.of(REDIR_BROKEN, push.items().get(1))) : null;
        }
        return push;
    }

    // ------------------------------------------------------------------ commands (the connection's event loop)

    /**
     * Event loop: before a command runs, remembers the keys it reads (default, OPTIN, OPTOUT modes) and marks the
     * thread as the NOLOOP writer. {@link #afterCommand} undoes the mark.
     */
    void beforeCommand(String name, CommandTable.Spec spec, List<byte[]> args, RespSession session) {
        Client client = session.tracking;
        if (client == null) {
            return;
        }
        Mode mode = client.mode;
        boolean caching = mode.optIn() ? client.cachingChoice : !mode.optOut() || !client.cachingChoice;
        if (!name.equals("client")) {
            client.cachingChoice = false; // CLIENT CACHING applies to the next command only
        }
        if (mode.noLoop()) {
            NOLOOP_WRITER.set(client);
        }
        if (mode.bcast() || !caching || spec.firstKey() <= 0 || !spec.flags().contains("readonly")) {
            return;
        }
        ClusterView current = view.get();
        int last = spec.lastKey() < 0 ? args.size() + spec.lastKey() : Math.min(spec.lastKey(), args.size() - 1);
        for (int i = spec.firstKey(); i <= last; i += Math.max(1, spec.step())) {
            byte[] key = args.get(i);
            if (closing) {
                client.invalidate(List.of(key)); // queued behind this read's reply: nobody will tell of later changes
                continue;
            }
            int segment = segments.segmentOf(key);
            if (current == null || !nodeId.equals(current.runtimeOfSegment(segment).activeNode())) {
                continue; // answered MOVED: nothing to cache
            }
            for (TrackingTable.Invalidation evicted : table.remember(segment, key, client.id)) {
                Client reader = clients.get(evicted.clientId());
                if (reader != null) {
                    reader.invalidate(evicted.keys());
                }
            }
        }
    }

    /** Event loop, after the command of {@link #beforeCommand} returned (even if it turned tracking off). */
    void afterCommand() {
        NOLOOP_WRITER.remove();
    }

    /** {@code CLIENT TRACKING|TRACKINGINFO|CACHING|GETREDIR ...} ({@code a.get(1)} is the subcommand). */
    RespReply command(String subcommand, List<byte[]> a, RespSession session) {
        return switch (subcommand) {
            case "TRACKING" -> tracking(a, session);
            case "TRACKINGINFO" -> a.size() == 2 ? trackingInfo(session.tracking)
                    : RespReply.error("ERR wrong number of arguments for 'client|trackinginfo' command");
            case "CACHING" -> caching(a, session.tracking);
            case "GETREDIR" -> a.size() == 2 ? RespReply.integer(session.tracking == null ? -1 : session.tracking.redirect)
                    : RespReply.error("ERR wrong number of arguments for 'client|getredir' command");
            default -> throw new IllegalArgumentException("not a tracking subcommand: " + subcommand);
        };
    }

    private RespReply tracking(List<byte[]> a, RespSession session) {
        if (a.size() < 3) {
            return RespReply.error("ERR wrong number of arguments for 'client|tracking' command");
        }
        Mode.Parsed parsed = Mode.parse(a.subList(2, a.size()), connections::isOpen);
        if (parsed.error() != null) {
            return parsed.error();
        }
        Client current = session.tracking;
        if (!parsed.on()) {
            if (current != null) {
                off(session);
            }
            return RespReply.OK;
        }
        if (session.protocol < 3 && parsed.redirect() == 0) {
            return RESP2_REFUSED;
        }
        Mode mode = parsed.mode();
        if (current != null) {
            RespReply refusal = Mode.switchRefusal(current.mode, mode);
            if (refusal != null) {
                return refusal;
            }
            // As Redis: the flags are the new call's, the prefixes add up.
            mode = new Mode(mode.bcast(), mode.optIn(), mode.optOut(), mode.noLoop(), List.of()).withPrefixes(
                    current.mode.prefixes()).withPrefixes(mode.prefixes());
        }
        on(session, mode, parsed.redirect());
        return RespReply.OK;
    }

    private void on(RespSession session, Mode mode, long redirect) {
        Client client = session.tracking;
        if (client == null) {
            client = new Client(session.id, session.pushes, connections);
            session.tracking = client;
            clients.put(client.id, client);
        }
        // As Redis: each ON names its redirect anew (none without REDIRECT) and clears the broken mark.
        client.redirect = redirect;
        client.brokenRedirect = false;
        client.mode = mode;
        client.cachingChoice = false;
        if (mode.bcast()) {
            synchronized (this) {
                Client[] now = broadcasters;
                if (!Arrays.asList(now).contains(client)) {
                    Client[] grown = Arrays.copyOf(now, now.length + 1);
                    grown[now.length] = client;
                    broadcasters = grown;
                }
            }
        }
    }

    /** Event loop: tracking off, by command, by switching to RESP2, or because the connection closed. */
    void off(RespSession session) {
        Client client = session.tracking;
        if (client == null) {
            return;
        }
        session.tracking = null;
        clients.remove(client.id, client);
        if (client.mode.bcast()) {
            synchronized (this) {
                broadcasters = Arrays.stream(broadcasters).filter(c -> c != client).toArray(Client[]::new);
            }
        }
    }

    private static RespReply trackingInfo(Client client) {
        List<RespReply> flags = new ArrayList<>();
        List<RespReply> prefixes = new ArrayList<>();
        if (client == null) {
            flags.add(RespReply.bulk("off"));
        } else {
            Mode mode = client.mode;
            flags.add(RespReply.bulk("on"));
            if (mode.bcast()) {
                flags.add(RespReply.bulk("bcast"));
            }
            if (mode.optIn()) {
                flags.add(RespReply.bulk("optin"));
                if (client.cachingChoice) {
                    flags.add(RespReply.bulk("caching-yes"));
                }
            }
            if (mode.optOut()) {
                flags.add(RespReply.bulk("optout"));
                if (client.cachingChoice) {
                    flags.add(RespReply.bulk("caching-no"));
                }
            }
            if (mode.noLoop()) {
                flags.add(RespReply.bulk("noloop"));
            }
            if (client.brokenRedirect) {
                flags.add(RespReply.bulk("broken_redirect"));
            }
            mode.prefixes().forEach(prefix -> prefixes.add(new RespReply.Bulk(prefix)));
        }
        return RespReply.map(List.of(
                RespReply.bulk("flags"), new RespReply.SetReply(flags), // a set, as Redis answers it in RESP3
                RespReply.bulk("redirect"), RespReply.integer(client == null ? -1 : client.redirect),
                RespReply.bulk("prefixes"), RespReply.array(prefixes)));
    }

    private static RespReply caching(List<byte[]> a, Client client) {
        if (a.size() != 3) {
            return RespReply.error("ERR wrong number of arguments for 'client|caching' command");
        }
        if (client == null || !(client.mode.optIn() || client.mode.optOut())) {
            return RespReply.error("ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN "
                    + "or OPTOUT mode enabled");
        }
        String choice = RespCommands.text(a.get(2)).toLowerCase(java.util.Locale.ROOT);
        if (choice.equals("yes")) {
            if (!client.mode.optIn()) {
                return RespReply.error("ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
            }
        } else if (choice.equals("no")) {
            if (!client.mode.optOut()) {
                return RespReply.error("ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
            }
        } else {
            return RespReply.error("ERR syntax error");
        }
        client.cachingChoice = true;
        return RespReply.OK;
    }

    /** Keys remembered now (for tests and INFO). */
    int trackedKeys() {
        return table.size();
    }

    /** Connections with tracking on now. */
    int trackingClients() {
        return clients.size();
    }

    /** Open connections REDIRECT may name now. */
    int openConnections() {
        return connections.size();
    }

    // ------------------------------------------------------------------ per connection

    /**
     * One tracking connection. {@code mode} and {@code redirect} are replaced by the connection's event loop and read
     * by delivering threads (volatile; a mode is immutable); {@code brokenRedirect} is set by a delivering thread that
     * found the redirect connection gone and cleared by the event loop's next ON; {@code cachingChoice} is the event
     * loop's alone. Pushes go through {@code pushes}, the connection's bounded outbound path, or the redirect
     * connection's, from any thread.
     */
    static final class Client {
        final long id;
        private final Consumer<RespReply.Push> pushes;
        private final RespConnections connections;
        volatile Mode mode = Mode.DEFAULT;
        /** The connection invalidations go to instead ({@code CLIENT TRACKING on REDIRECT <id>}), 0 for this one. */
        volatile long redirect;
        /** An invalidation found the redirect connection closed (TRACKINGINFO's {@code broken_redirect}). */
        volatile boolean brokenRedirect;
        /** OPTIN: {@code CLIENT CACHING yes} came just before; OPTOUT: {@code CLIENT CACHING no} did. */
        boolean cachingChoice;

        Client(long id, Consumer<RespReply.Push> pushes, RespConnections connections) {
            this.id = id;
            this.pushes = pushes;
            this.connections = connections;
        }

        void invalidate(List<byte[]> keys) {
            List<RespReply> items = new ArrayList<>(keys.size());
            keys.forEach(key -> items.add(new RespReply.Bulk(key)));
            deliver(RespReply.array(items));
        }

        /** A null invalidation: the client drops everything it cached. */
        void invalidateAll() {
            deliver(RespReply.NULL);
        }

        /** Any thread: {@code payload} (the keys, or null for everything) to this connection or its redirect. */
        private void deliver(RespReply payload) {
            long to = redirect;
            if (to == 0) {
                pushes.accept(new RespReply.Push(List.of(INVALIDATE, payload)));
                return;
            }
            Consumer<RespReply.Push> target = connections.pushesOf(to);
            if (target == null) {
                brokenRedirect = true;
                pushes.accept(new RespReply.Push(List.of(REDIR_BROKEN_RESP3_ONLY, RespReply.integer(to))));
                return;
            }
            target.accept(new RespReply.Push(List.of(REDIRECTED, payload)));
        }
    }

    /** What a connection asked for with {@code CLIENT TRACKING on ...}. Immutable. */
    record Mode(boolean bcast, boolean optIn, boolean optOut, boolean noLoop, List<byte[]> prefixes) {

        static final Mode DEFAULT = new Mode(false, false, false, false, List.of());

        Mode {
            prefixes = List.copyOf(prefixes);
        }

        /** BCAST: does a change of {@code key} concern this connection? */
        boolean matches(byte[] key) {
            if (prefixes.isEmpty()) {
                return true;
            }
            for (byte[] prefix : prefixes) {
                if (startsWith(key, prefix)) {
                    return true;
                }
            }
            return false;
        }

        Mode withPrefixes(List<byte[]> added) {
            List<byte[]> all = new ArrayList<>(prefixes);
            for (byte[] prefix : added) {
                if (all.stream().noneMatch(p -> Arrays.equals(p, prefix))) {
                    all.add(prefix);
                }
            }
            return new Mode(bcast, optIn, optOut, noLoop, all);
        }

        /**
         * The outcome of parsing {@code on|off [options]}: a mode and the connection to redirect to (0: none), or the
         * error to answer.
         */
        record Parsed(boolean on, Mode mode, long redirect, RespReply error) {
            Parsed(boolean on, Mode mode, RespReply error) {
                this(on, mode, 0, error);
            }
        }

        /**
         * Parses {@code on|off [options]} in Redis's order: every option first (a REDIRECT must name a connection
         * {@code open} knows, even with OFF), then ON or OFF, then the options' combination.
         */
        static Parsed parse(List<byte[]> args, LongPredicate open) {
            String onOff = RespCommands.text(args.get(0)).toLowerCase(java.util.Locale.ROOT);
            long redirect = 0;
            boolean bcast = false;
            boolean optIn = false;
            boolean optOut = false;
            boolean noLoop = false;
            List<byte[]> prefixes = new ArrayList<>();
            for (int i = 1; i < args.size(); i++) {
                String option = RespCommands.text(args.get(i)).toUpperCase(java.util.Locale.ROOT);
                boolean hasValue = i + 1 < args.size();
                switch (option) {
                    case "BCAST" -> bcast = true;
                    case "OPTIN" -> optIn = true;
                    case "OPTOUT" -> optOut = true;
                    case "NOLOOP" -> noLoop = true;
                    case "REDIRECT" -> {
                        if (!hasValue) {
                            return new Parsed(false, null, RespReply.error("ERR syntax error"));
                        }
                        if (redirect != 0) {
                            return new Parsed(false, null,
                                    RespReply.error("ERR A client can only redirect to a single other client"));
                        }
                        Long id = RespCommands.parseLong(args.get(++i));
                        if (id == null) {
                            return new Parsed(false, null, RespReply.error("ERR value is not an integer or out of range"));
                        }
                        if (id == 0 || !open.test(id)) {
                            return new Parsed(false, null, NO_SUCH_REDIRECT);
                        }
                        redirect = id;
                    }
                    case "PREFIX" -> {
                        if (!hasValue) {
                            return new Parsed(false, null, RespReply.error("ERR syntax error"));
                        }
                        prefixes.add(args.get(++i));
                    }
                    default -> {
                        return new Parsed(false, null, RespReply.error("ERR syntax error"));
                    }
                }
            }
            if (onOff.equals("off")) {
                return new Parsed(false, null, null);
            }
            if (!onOff.equals("on")) {
                return new Parsed(false, null, RespReply.error("ERR syntax error"));
            }
            if (optIn && optOut) {
                return new Parsed(true, null, RespReply.error("ERR You can't use both OPTIN and OPTOUT"));
            }
            if (bcast && (optIn || optOut)) {
                return new Parsed(true, null, RespReply.error("ERR OPTIN and OPTOUT are not compatible with BCAST"));
            }
            if (!prefixes.isEmpty() && !bcast) {
                return new Parsed(true, null, RespReply.error("ERR PREFIX option requires BCAST mode to be enabled"));
            }
            RespReply overlap = overlap(prefixes);
            if (overlap != null) {
                return new Parsed(true, null, overlap);
            }
            return new Parsed(true, new Mode(bcast, optIn, optOut, noLoop, prefixes), redirect, null);
        }

        /** Why a connection already tracking in {@code current} may not turn on {@code next}, or {@code null}. */
        static RespReply switchRefusal(Mode current, Mode next) {
            if (current.bcast() != next.bcast()) {
                return RespReply.error("ERR You can't switch BCAST mode on/off before disabling tracking for this client, "
                        + "and then re-enabling it with a different mode.");
            }
            if (current.optIn() != next.optIn() || current.optOut() != next.optOut()) {
                return RespReply.error("ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, "
                        + "and then re-enabling it with a different mode.");
            }
            List<byte[]> all = new ArrayList<>(current.prefixes());
            for (byte[] prefix : next.prefixes()) {
                if (all.stream().noneMatch(p -> Arrays.equals(p, prefix))) {
                    all.add(prefix);
                }
            }
            return overlap(all);
        }

        /** Redis refuses prefixes of one connection where one starts another (a change would be pushed twice). */
        private static RespReply overlap(List<byte[]> prefixes) {
            for (int i = 0; i < prefixes.size(); i++) {
                for (int j = 0; j < prefixes.size(); j++) {
                    if (i != j && startsWith(prefixes.get(j), prefixes.get(i))) {
                        return RespReply.error("ERR Prefix '" + RespCommands.text(prefixes.get(i)) + "' overlaps with "
                                + "an existing prefix '" + RespCommands.text(prefixes.get(j)) + "'. Prefixes for a "
                                + "single client must not overlap.");
                    }
                }
            }
            return null;
        }

        private static boolean startsWith(byte[] key, byte[] prefix) {
            return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
        }
    }
}
