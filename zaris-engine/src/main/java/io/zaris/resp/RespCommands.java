package io.zaris.resp;

import io.netty.buffer.ByteBuf;
import io.zaris.model.ClusterView;
import io.zaris.model.Glob;
import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionRuntime;
import io.zaris.model.SetAlgebra;
import io.zaris.model.VersionedValue;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.MalformedRequestException;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import io.zaris.security.Credentials;
import io.zaris.security.LoginSession;
import io.zaris.security.Principal;
import io.zaris.model.HashNumbers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntSupplier;

/**
 * Executes one Redis command on this node and produces its reply.
 *
 * <p><b>One write path.</b> Every key command becomes one or more of the engine's own {@link Request}s run
 * through {@link RespBackend#execute}: the node's ownership decision, epoch and majority fences and SYNC/ASYNC
 * acknowledgement apply unchanged. Statuses map to Redis errors: {@code MOVED}/{@code REPLICA_WRITE_REJECTED}
 * → {@code -MOVED slot host:respPort} (the partition's active owner); {@code OWNERSHIP_CHANGING}/{@code MIGRATING}
 * → {@code -TRYAGAIN}; {@code UNAVAILABLE} → {@code -CLUSTERDOWN}; keys of one command in different slots →
 * {@code -CROSSSLOT}; a SYNC write applied locally but not acknowledged by enough replicas (the native
 * port's {@code UNACKNOWLEDGED}: the outcome is indeterminate, the write may have been applied) →
 * {@code -NOREPLICAS}.
 *
 * <p><b>Conditional writes of any type</b>: SET with NX/XX/KEEPTTL/GET, GETSET, PERSIST and EXPIRE with
 * NX/XX/GT/LT are each one engine request (the whole-key ops {@code SET} and {@code EXPIRE}) that the key's active
 * owner judges and writes under one hold of the segment's write lock, whatever type the key holds, as Redis does.
 *
 * <p><b>Compound commands</b> (GETDEL, GETEX with an option) read the key and write it with an
 * IfMatchVersion precondition (expected version 0 = must be absent), retrying on CONFLICT at most
 * {@link #MAX_CAS_ATTEMPTS} times and answering {@code -TRYAGAIN} after that. Each is therefore atomic with respect
 * to every other write of the key. MSETNX is one engine request ({@code MULTI_PUT_IF_ABSENT}): its keys share a
 * slot, hence a segment, and the segment's active owner checks absence and writes under one hold of the segment's
 * write lock, so it is all or nothing like Redis's. APPEND is one engine request too (the whole-key op
 * {@code APPEND}): the owner joins the suffix to the string and keeps its expiry under one hold of the lock.
 *
 * <p>Runs on the connection's event loop. Reads and refused writes complete at once; a write's future
 * completes when its acknowledgement mode is satisfied.
 */
final class RespCommands {

    /** Read-then-conditional-write attempts of a compound command before it answers TRYAGAIN. */
    static final int MAX_CAS_ATTEMPTS = 16;
    static final String VERSION = "7.0.0";

    private static final RespReply SYNTAX = RespReply.error("ERR syntax error");
    private static final RespReply NOT_INTEGER = RespReply.error("ERR value is not an integer or out of range");
    private static final RespReply CROSSSLOT = RespReply.error("CROSSSLOT Keys in request don't hash to the same slot");

    private final RespBackend backend;
    private final RespOptions options;
    private final IntSupplier connectedClients;
    private final long startedMillis;
    private final Runnable onFailedLogin;
    private final BlockedClients blocked = new BlockedClients();
    /** Requests refused while their partition changes hands, run again until it settled ({@link MoveWaitPolicy}). */
    private final MoveWaits moveWaits;
    /** {@code CLIENT TRACKING}; {@code null} where the node has none (then tracking is refused). */
    private final RespTracking tracking;
    /** Pub/sub: this node's subscriptions and their commands. */
    private final RespPubSub pubSub;

    RespCommands(RespBackend backend, RespOptions options, IntSupplier connectedClients, Runnable onFailedLogin) {
        this(backend, options, connectedClients, onFailedLogin, null);
    }

    RespCommands(RespBackend backend, RespOptions options, IntSupplier connectedClients, Runnable onFailedLogin,
                 RespTracking tracking) {
        this.tracking = tracking;
        this.pubSub = new RespPubSub(backend.nodeId(), backend::currentView, options.peerPorts(), backend::publishToPeers,
                new PubSubRegistry(PubSubRegistry.DEFAULT_MAX_PER_CONNECTION, PubSubRegistry.DEFAULT_MAX_PER_NODE));
        this.onFailedLogin = onFailedLogin;
        this.backend = backend;
        this.options = options;
        this.connectedClients = connectedClients;
        this.startedMillis = backend.time().currentTimeMillis();
        this.moveWaits = new MoveWaits(backend.time());
    }

    CompletableFuture<RespReply> execute(List<byte[]> args, RespSession session) {
        CommandTable.Spec spec = CommandTable.lookup(args.get(0));
        if (spec == null) {
            return done(unknownCommand(args));
        }
        String name = spec.name();
        if (!CommandTable.arityOk(spec, args.size())) {
            return done(RespReply.error("ERR wrong number of arguments for '" + name + "' command"));
        }
        RespReply refusal = accessRefusal(name, spec, session);
        if (refusal != null) {
            return done(refusal);
        }
        RespReply subscribedMode = RespPubSub.subscribedContext(name, args, session);
        if (subscribedMode != null) {
            return done(subscribedMode);
        }
        boolean tracked = session.tracking != null;
        if (tracked) {
            tracking.beforeCommand(name, spec, args, session);
        }
        try {
            return dispatch(name, args, session);
        } catch (RuntimeException e) {
            return done(RespReply.error("ERR internal error: " + e));
        } finally {
            if (tracked) {
                tracking.afterCommand();
            }
        }
    }

    private CompletableFuture<RespReply> dispatch(String name, List<byte[]> a, RespSession session) {
        switch (name) {
            case "ping":
                return done(a.size() == 1 ? new RespReply.Simple("PONG")
                        : a.size() == 2 ? new RespReply.Bulk(a.get(1))
                        : RespReply.error("ERR wrong number of arguments for 'ping' command"));
            case "echo":
                return done(new RespReply.Bulk(a.get(1)));
            case "hello":
                return done(hello(a, session));
            case "auth":
                return done(auth(a, session));
            case "select":
                return done(text(a.get(1)).equals("0") ? RespReply.OK : RespReply.error("ERR SELECT is not allowed in cluster mode"));
            case "client":
                return done(client(a, session));
            case "command":
                return done(command(a, session));
            case "info":
                return done(RespReply.bulk(info(a)));
            case "config":
                return done(config(a));
            case "dbsize":
                return done(RespReply.integer(backend.servedKeys()));
            case "quit":
                return done(new RespReply.ThenClose(RespReply.OK));
            case "readonly":
                session.readOnly = true;
                return done(RespReply.OK);
            case "readwrite":
                session.readOnly = false;
                return done(RespReply.OK);
            case "asking":
                return done(RespReply.OK);
            case "cluster":
                return done(cluster(a));
            case "scan":
                return done(scan(a));
            case "keys":
                return done(keys(a.get(1)));
            case "reset":
                return done(reset(session));
            default:
                if (RespPubSub.handles(name)) {
                    return done(pubSub.execute(name, a, session));
                }
                return keyCommand(name, a, session);
        }
    }

    // ------------------------------------------------------------------ authentication

    /** Before a login only AUTH, HELLO (which may carry AUTH) and QUIT run; read-only users run no writes. */
    private static RespReply accessRefusal(String name, CommandTable.Spec spec, RespSession session) {
        Principal principal = session.login.principal();
        if (principal == null) {
            return name.equals("auth") || name.equals("hello") || name.equals("quit") ? null : NOAUTH;
        }
        if (principal.readOnly() && spec.flags().contains("write")) {
            return RespReply.error("NOPERM User " + principal.name() + " has no permissions to run the '" + name + "' command");
        }
        return null;
    }

    private static final RespReply NOAUTH = RespReply.error("NOAUTH Authentication required.");
    private static final RespReply WRONGPASS = RespReply.error("WRONGPASS invalid username-password pair or user is disabled.");

    private RespReply auth(List<byte[]> a, RespSession session) {
        if (a.size() > 3) {
            return SYNTAX;
        }
        String user = a.size() == 3 ? text(a.get(1)) : Credentials.DEFAULT_USER;
        RespReply failure = login(user, a.get(a.size() - 1), session);
        if (failure != null) {
            return failure;
        }
        return RespReply.OK;
    }

    /** Logs the session in; {@code null} on success, else the error reply (closing the connection when due). */
    private RespReply login(String user, byte[] password, RespSession session) {
        LoginSession.Outcome outcome = session.login.login(user, password);
        if (outcome instanceof LoginSession.Accepted) {
            return null;
        }
        if (outcome instanceof LoginSession.NotConfigured) {
            // As Redis without requirepass: the default user has no password, anything else is wrong.
            return user.equals(Credentials.DEFAULT_USER) ? null
                    : RespReply.error("ERR AUTH <password> called without any password configured for the default user."
                    + " Are you sure your configuration is correct?");
        }
        onFailedLogin.run();
        RespReply reply;
        boolean close;
        if (outcome instanceof LoginSession.Throttled throttled) {
            reply = RespReply.error("WRONGPASS too many failed logins from this address; retry in "
                    + throttled.retryAfter().toMillis() + " ms");
            close = throttled.closeConnection();
        } else {
            reply = WRONGPASS;
            close = ((LoginSession.Rejected) outcome).closeConnection();
        }
        return close ? new RespReply.ThenClose(reply) : reply;
    }

    // ------------------------------------------------------------------ key commands

    private CompletableFuture<RespReply> keyCommand(String name, List<byte[]> a, RespSession session) {
        byte[] key = a.get(1);
        RespReply tooLarge = checkSizes(name, a);
        if (tooLarge != null) {
            return done(tooLarge);
        }
        int slot = SegmentMapper.slot(key);
        switch (name) {
            case "get":
                return call(new Request.Get(0, key), slot, session, answer -> answer.status() == KvStatus.OK
                        ? new RespReply.BufferBulk(ResponseCodec.readValueSlice(answer.body())) : RespReply.NULL);
            case "set":
                return set(a, slot);
            case "setnx":
                return call(new Request.Put(0, key, a.get(2), Request.NO_TTL, true, Request.ANY_VERSION), slot,
                        answer -> answer.status() == KvStatus.OK ? RespReply.ONE : RespReply.ZERO);
            case "setex":
            case "psetex": {
                Long amount = parseLong(a.get(2));
                if (amount == null) {
                    return done(NOT_INTEGER);
                }
                long ttl = fromNow(name.equals("setex") ? multiply(amount, 1000) : amount, backend.time().currentTimeMillis());
                if (ttl <= 0) {
                    return done(RespReply.error("ERR invalid expire time in '" + name + "' command"));
                }
                return call(new Request.Put(0, key, a.get(3), ttl, false, Request.ANY_VERSION), slot, answer -> RespReply.OK);
            }
            case "getset":
                return conditionalSet(key, a.get(2), "G", Request.NO_TTL, slot);
            case "getdel":
                return getDel(key, slot);
            case "getex":
                return getEx(a, slot);
            case "mget": {
                List<byte[]> keys = a.subList(1, a.size());
                if (!sameSlot(keys)) {
                    return done(CROSSSLOT);
                }
                return call(new Request.MultiGet(0, List.copyOf(keys)), slot, answer -> {
                    List<RespReply> values = new ArrayList<>();
                    for (VersionedValue value : ResponseCodec.readOptionalValues(answer.body())) {
                        values.add(value == null ? RespReply.NULL : new RespReply.Bulk(value.value()));
                    }
                    return RespReply.array(values);
                });
            }
            case "mset":
            case "msetnx":
                return mset(name, a, slot);
            case "del":
            case "unlink":
                return del(a, slot);
            case "exists":
                return exists(a, slot);
            case "type":
                return call(typeOf(key), slot, answer -> new RespReply.Simple(text(ResponseCodec.readHashAnswer(answer.body())
                        .items().get(0))));
            case "expire":
            case "pexpire":
            case "expireat":
            case "pexpireat":
                return expire(name, a, slot);
            case "ttl":
            case "pttl":
                return call(typeOf(key), slot, answer -> {
                    ResponseCodec.HashAnswer type = ResponseCodec.readHashAnswer(answer.body());
                    if (text(type.items().get(0)).equals("none")) {
                        return RespReply.integer(-2);
                    }
                    long ttl = type.count();
                    return RespReply.integer(ttl == 0 ? -1 : name.equals("ttl") ? (ttl + 500) / 1000 : ttl);
                });
            case "persist":
                return keyExpiry(key, slot, "P", 0);
            case "incr":
                return increment(key, slot, 1);
            case "decr":
                return increment(key, slot, -1);
            case "incrby":
            case "decrby": {
                Long delta = parseLong(a.get(2));
                if (delta == null) {
                    return done(NOT_INTEGER);
                }
                if (name.equals("decrby")) {
                    if (delta == Long.MIN_VALUE) {
                        return done(RespReply.error("ERR decrement would overflow"));
                    }
                    delta = -delta;
                }
                return increment(key, slot, delta);
            }
            case "append": {
                // One step on the key's owner (the engine's APPEND op), the result no longer than a value may be.
                List<byte[]> args = List.of(a.get(2),
                        Integer.toString(backend.limits().maxValueBytes()).getBytes(StandardCharsets.US_ASCII));
                return call(new Request.Hash(0, key, HashOp.APPEND, args), slot,
                        answer -> RespReply.integer(ResponseCodec.readHashAnswer(answer.body()).count()));
            }
            case "hscan":
                return hscan(a, slot);
            case "hset", "hmset", "hsetnx", "hget", "hmget", "hdel", "hgetall", "hkeys", "hvals", "hlen", "hexists",
                 "hstrlen", "hincrby", "hincrbyfloat":
                return hashCommand(name, a, slot, session);
            case "sadd", "srem", "smembers", "sismember", "smismember", "scard", "spop", "srandmember":
                return setCommand(name, a, slot, session);
            case "sscan":
                return sscan(a, slot);
            case "lpush", "rpush", "lpushx", "rpushx", "lpop", "rpop", "lrange", "llen", "lindex", "lset", "lrem", "ltrim",
                 "lmove", "linsert", "lpos": {
                RespListCommands.Call list = RespListCommands.prepare(name, a);
                if (list.refusal() != null) {
                    return done(list.refusal());
                }
                if (list.singleBulk()) {
                    return call(list.request(), slot, session, RespCommands::firstItemBulk);
                }
                return call(list.request(), slot, session, answer -> list.reply().apply(ResponseCodec.readHashAnswer(answer.body())));
            }
            case "blpop", "brpop":
                return blockingPop(name, a, slot, session);
            case "blmove":
                return blockingMove(a, slot, session);
            case "sintercard":
                return sinterCard(a);
            case "sinter", "sunion", "sdiff", "sinterstore", "sunionstore", "sdiffstore":
                return setAlgebra(name, a, slot);
            case "zadd", "zincrby", "zrem", "zscore", "zmscore", "zcard", "zcount", "zlexcount", "zrank", "zrevrank", "zrange",
                 "zrangebyscore", "zrevrangebyscore", "zrevrange", "zrangebylex", "zrevrangebylex", "zremrangebyscore",
                 "zremrangebyrank", "zremrangebylex", "zpopmin", "zpopmax", "zscan":
                return sortedSetCommand(name, a, slot, session);
            case "smove", "hrandfield", "zrandmember", "zunion", "zinter", "zdiff", "zunionstore", "zinterstore", "zdiffstore",
                 "zintercard", "lmpop", "zmpop": {
                RespListCommands.Call several = RespSeveralKeyCommands.prepare(name, a, backend.limits().maxKeyBytes());
                if (several.refusal() != null) {
                    return done(several.refusal());
                }
                return call(several.request(), SegmentMapper.slot(several.request().key()),
                        answer -> several.reply().apply(ResponseCodec.readHashAnswer(answer.body())));
            }
            case "bzpopmin", "bzpopmax", "blmpop", "bzmpop":
                return blockingMultiPop(name, a, session);
            case "rename", "renamenx", "dump", "restore": {
                RespListCommands.Call whole = RespKeyCommands.prepare(name, a);
                if (whole.refusal() != null) {
                    return done(whole.refusal());
                }
                return call(whole.request(), slot, answer -> whole.reply().apply(ResponseCodec.readHashAnswer(answer.body())));
            }
            case "strlen":
                return call(new Request.Get(0, key), slot, answer -> RespReply.integer(
                        answer.status() == KvStatus.OK ? ResponseCodec.readValue(answer.body()).value().length : 0));
            default:
                return done(unknownCommand(a));
        }
    }

    private CompletableFuture<RespReply> set(List<byte[]> a, int slot) {
        byte[] key = a.get(1);
        byte[] value = a.get(2);
        boolean nx = false;
        boolean xx = false;
        boolean get = false;
        boolean keepTtl = false;
        String expiry = null;
        byte[] amountText = null;
        for (int i = 3; i < a.size(); i++) {
            String option = text(a.get(i)).toUpperCase(Locale.ROOT);
            switch (option) {
                case "NX" -> nx = true;
                case "XX" -> xx = true;
                case "GET" -> get = true;
                case "KEEPTTL" -> keepTtl = true;
                case "EX", "PX", "EXAT", "PXAT" -> {
                    // The same unit again is taken, the last one counting, as in Redis; two units are a syntax error.
                    if ((expiry != null && !expiry.equals(option)) || i + 1 >= a.size()) {
                        return done(SYNTAX);
                    }
                    expiry = option;
                    amountText = a.get(++i);
                }
                default -> {
                    return done(SYNTAX);
                }
            }
        }
        if ((nx && xx) || (keepTtl && expiry != null)) {
            return done(SYNTAX);
        }
        // As Redis: every option is read before the expiry's number, so a syntax error wins over a bad number.
        long ttl = Request.NO_TTL;
        if (expiry != null) {
            Long amount = parseLong(amountText);
            if (amount == null) {
                return done(NOT_INTEGER);
            }
            ttl = ttlMillis(expiry, amount);
            if (ttl == Long.MIN_VALUE) {
                return done(RespReply.error("ERR invalid expire time in 'set' command"));
            }
        }
        if (!get && !xx && !keepTtl) {
            return call(new Request.Put(0, key, value, ttl, nx, Request.ANY_VERSION), slot,
                    answer -> answer.status() == KvStatus.OK ? RespReply.OK : RespReply.NULL);
        }
        // One step on the key's owner (the engine's SET op): GET refuses a key of another type, then NX and XX judge
        // the key as it is, of any type, and KEEPTTL keeps whatever expiry it has.
        return conditionalSet(key, value, (nx ? "N" : "") + (xx ? "X" : "") + (keepTtl ? "K" : "") + (get ? "G" : ""),
                ttl, slot);
    }

    /**
     * SET with conditions (the engine's {@code SET} op: N, X, K, G) decided and written under one hold of the key's
     * segment lock on its active owner: with G, the old string (nil when none); else OK, or nil when a condition kept
     * the key.
     */
    private CompletableFuture<RespReply> conditionalSet(byte[] key, byte[] value, String conditions, long ttl, int slot) {
        boolean returnOld = conditions.indexOf('G') >= 0;
        List<byte[]> args = List.of(conditions.getBytes(StandardCharsets.US_ASCII),
                Long.toString(ttl).getBytes(StandardCharsets.US_ASCII), value);
        return call(new Request.Hash(0, key, HashOp.SET, args), slot, answer -> {
            ResponseCodec.HashAnswer reply = ResponseCodec.readHashAnswer(answer.body());
            if (returnOld) {
                byte[] old = reply.items().get(0);
                return old == null ? RespReply.NULL : new RespReply.Bulk(old);
            }
            return reply.count() == 1 ? RespReply.OK : RespReply.NULL;
        });
    }

    /**
     * PERSIST ({@code P}) and EXPIRE with NX/XX/GT/LT on a key of any type: the engine's {@code EXPIRE} op judges the
     * condition on the key's expiry and sets the new one (a TTL of 0 or less deletes the key) in the same step.
     */
    private CompletableFuture<RespReply> keyExpiry(byte[] key, int slot, String conditions, long ttl) {
        List<byte[]> args = List.of(conditions.getBytes(StandardCharsets.US_ASCII),
                Long.toString(ttl).getBytes(StandardCharsets.US_ASCII));
        return call(new Request.Hash(0, key, HashOp.EXPIRE, args), slot,
                answer -> ResponseCodec.readHashAnswer(answer.body()).count() == 1 ? RespReply.ONE : RespReply.ZERO);
    }

    private CompletableFuture<RespReply> getDel(byte[] key, int slot) {
        for (int attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
            Read read = read(key, slot);
            if (read.error() != null) {
                return done(read.error());
            }
            if (read.value() == null) {
                return done(RespReply.NULL);
            }
            VersionedValue current = read.value();
            CompletableFuture<ByteBuf> outcome = backend.execute(new Request.Delete(0, key, current.version()));
            if (retryable(outcome)) {
                continue;
            }
            return translate(outcome, slot, answer -> new RespReply.Bulk(current.value()));
        }
        return done(contention(key));
    }

    private CompletableFuture<RespReply> getEx(List<byte[]> a, int slot) {
        byte[] key = a.get(1);
        if (a.size() == 2) {
            return call(new Request.Get(0, key), slot, answer -> answer.status() == KvStatus.OK
                    ? new RespReply.Bulk(ResponseCodec.readValue(answer.body()).value()) : RespReply.NULL);
        }
        String option = text(a.get(2)).toUpperCase(Locale.ROOT);
        long ttl;
        if (option.equals("PERSIST") && a.size() == 3) {
            ttl = Request.NO_TTL;
        } else if (a.size() == 4 && (option.equals("EX") || option.equals("PX") || option.equals("EXAT") || option.equals("PXAT"))) {
            Long amount = parseLong(a.get(3));
            ttl = amount == null ? Long.MIN_VALUE : ttlMillis(option, amount);
            if (ttl == Long.MIN_VALUE) {
                // Redis reads the number only after finding the key a string: a missing key is nil, another type WRONGTYPE.
                RespReply refusal = amount == null ? NOT_INTEGER : RespReply.error("ERR invalid expire time in 'getex' command");
                return call(new Request.Get(0, key), slot, answer -> answer.status() == KvStatus.OK ? refusal : RespReply.NULL);
            }
        } else {
            return done(SYNTAX);
        }
        long newTtl = ttl;
        return compareAndSet(key, slot, current -> current == null ? null : new Write(current.value(), newTtl),
                (current, written) -> current == null ? RespReply.NULL : new RespReply.Bulk(current.value()));
    }

    private CompletableFuture<RespReply> mset(String name, List<byte[]> a, int slot) {
        if (a.size() % 2 == 0) {
            return done(RespReply.error("ERR wrong number of arguments for '" + name + "' command"));
        }
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (int i = 1; i < a.size(); i += 2) {
            keys.add(a.get(i));
            values.add(a.get(i + 1));
        }
        if (!sameSlot(keys)) {
            return done(CROSSSLOT);
        }
        if (name.equals("msetnx")) {
            return call(new Request.MultiPutIfAbsent(0, keys, values, Request.NO_TTL), slot,
                    answer -> answer.status() == KvStatus.OK ? RespReply.ONE : RespReply.ZERO);
        }
        return call(new Request.MultiPut(0, keys, values, Request.NO_TTL), slot, answer -> RespReply.OK);
    }

    private CompletableFuture<RespReply> del(List<byte[]> a, int slot) {
        List<byte[]> keys = a.subList(1, a.size());
        if (!sameSlot(keys)) {
            return done(CROSSSLOT);
        }
        if (keys.size() == 1) {
            return call(new Request.Delete(0, keys.get(0), Request.ANY_VERSION), slot,
                    answer -> answer.status() == KvStatus.OK ? RespReply.ONE : RespReply.ZERO);
        }
        return call(new Request.MultiDelete(0, List.copyOf(keys)), slot, answer -> RespReply.integer(answer.body().readInt()));
    }

    /** One TYPE read per key (reads answer at once); a key of any type counts, as in Redis. */
    private CompletableFuture<RespReply> exists(List<byte[]> a, int slot) {
        List<byte[]> keys = a.subList(1, a.size());
        if (!sameSlot(keys)) {
            return done(CROSSSLOT);
        }
        long count = 0;
        for (byte[] key : keys) {
            Answer answer = now(typeOf(key));
            if (answer.status() != KvStatus.OK) {
                return done(routingError(answer, slot));
            }
            try {
                if (!text(ResponseCodec.readHashAnswer(answer.body()).items().get(0)).equals("none")) {
                    count++;
                }
            } catch (MalformedRequestException e) {
                return done(RespReply.error("ERR unreadable engine reply: " + e.getMessage()));
            }
        }
        return done(RespReply.integer(count));
    }

    private CompletableFuture<RespReply> expire(String name, List<byte[]> a, int slot) {
        byte[] key = a.get(1);
        ExpireFlags.Parsed parsed = ExpireFlags.parse(a.subList(3, a.size()));
        if (parsed.error() != null) {
            return done(parsed.error());
        }
        ExpireFlags flags = parsed.flags();
        Long amount = parseLong(a.get(2));
        if (amount == null) {
            return done(NOT_INTEGER);
        }
        long ttl;
        long now = backend.time().currentTimeMillis();
        switch (name) {
            case "expire" -> ttl = fromNow(multiply(amount, 1000), now);
            case "pexpire" -> ttl = fromNow(amount, now);
            case "expireat" -> ttl = multiply(amount, 1000) == Long.MIN_VALUE ? Long.MIN_VALUE : multiply(amount, 1000) - now;
            default -> ttl = amount - now;
        }
        if (ttl == Long.MIN_VALUE) {
            return done(RespReply.error("ERR invalid expire time in '" + name + "' command"));
        }
        long newTtl = ttl;
        if (flags.isEmpty()) {
            if (ttl <= 0) {
                return call(new Request.Delete(0, key, Request.ANY_VERSION), slot,
                        answer -> answer.status() == KvStatus.OK ? RespReply.ONE : RespReply.ZERO);
            }
            return call(new Request.Touch(0, key, ttl), slot,
                    answer -> answer.status() == KvStatus.OK ? RespReply.ONE : RespReply.ZERO);
        }
        return keyExpiry(key, slot, flags.wire(), newTtl);
    }

    /** The type of {@code key} as this node has it ({@code none} also when this node does not serve it now). */
    private String typeName(byte[] key) throws MalformedRequestException {
        Answer answer = now(typeOf(key));
        return answer.status() == KvStatus.OK ? text(ResponseCodec.readHashAnswer(answer.body()).items().get(0)) : "none";
    }

    /**
     * The arguments after the key, as an engine request keeps them: the common single argument (HGET's field, HSET's
     * pair) without the copy of a sub-list.
     */
    static List<byte[]> argumentsAfterKey(List<byte[]> a) {
        return switch (a.size()) {
            case 2 -> List.of();
            case 3 -> List.of(a.get(2));
            case 4 -> List.of(a.get(2), a.get(3));
            default -> List.copyOf(a.subList(2, a.size()));
        };
    }

    /**
     * HGET, LINDEX and LPOP without a count: the answer's one item as a bulk string sliced out of the engine's response
     * (as GET's value is, {@link RespReply.BufferBulk}), nil when there is none; no list and no copy of the value.
     */
    private static RespReply firstItemBulk(Answer answer) throws MalformedRequestException {
        ByteBuf item = ResponseCodec.readFirstItemSlice(answer.body());
        return item == null ? RespReply.NULL : new RespReply.BufferBulk(item);
    }

    private static Request.Hash typeOf(byte[] key) {
        return new Request.Hash(0, key, HashOp.TYPE, List.of());
    }

    /**
     * The hash commands: each is one engine request ({@code HASH_READ} or {@code HASH_WRITE}) that the segment's
     * active owner runs under one hold of the segment's write lock, so each is atomic like Redis's.
     */
    private CompletableFuture<RespReply> hashCommand(String name, List<byte[]> a, int slot, RespSession session) {
        byte[] key = a.get(1);
        List<byte[]> rest = argumentsAfterKey(a);
        HashOp op = switch (name) {
            case "hset", "hmset" -> HashOp.HSET;
            case "hsetnx" -> HashOp.HSETNX;
            case "hget", "hmget", "hexists", "hstrlen" -> HashOp.HMGET;
            case "hdel" -> HashOp.HDEL;
            case "hgetall" -> HashOp.HGETALL;
            case "hkeys" -> HashOp.HKEYS;
            case "hvals" -> HashOp.HVALS;
            case "hlen" -> HashOp.HLEN;
            case "hincrby" -> HashOp.HINCRBY;
            default -> HashOp.HINCRBYFLOAT;
        };
        if (!op.takes(rest.size())) {
            return done(RespReply.error("ERR wrong number of arguments for '" + name + "' command"));
        }
        for (int i = 0; i < rest.size(); i++) {
            if (op.isFieldArgument(i) && rest.get(i).length > backend.limits().maxKeyBytes()) {
                return done(RespReply.error("ERR hash field is larger than " + backend.limits().maxKeyBytes() + " bytes"));
            }
        }
        // Redis checks the increment before it looks at the key.
        if (op == HashOp.HINCRBY && parseLong(rest.get(1)) == null) {
            return done(NOT_INTEGER);
        }
        if (op == HashOp.HINCRBYFLOAT && HashNumbers.isInfinity(rest.get(1))) {
            return done(RespReply.error("ERR value is NaN or Infinity"));
        }
        if (op == HashOp.HINCRBYFLOAT && HashNumbers.parseFloat(rest.get(1)) == null) {
            return done(RespReply.error("ERR value is not a valid float"));
        }
        if (name.equals("hget")) {
            return call(new Request.Hash(0, key, op, rest), slot, session, RespCommands::firstItemBulk);
        }
        return call(new Request.Hash(0, key, op, rest), slot, session, answer -> {
            ResponseCodec.HashAnswer reply = ResponseCodec.readHashAnswer(answer.body());
            List<byte[]> items = reply.items();
            return switch (name) {
                case "hmset" -> RespReply.OK;
                case "hget" -> RespReply.bulkOrNull(items.get(0));
                case "hexists" -> items.get(0) == null ? RespReply.ZERO : RespReply.ONE;
                case "hstrlen" -> RespReply.integer(items.get(0) == null ? 0 : items.get(0).length);
                case "hmget", "hkeys", "hvals" -> bulks(items);
                case "hgetall" -> RespReply.map(bulks(items).items());
                case "hincrbyfloat" -> new RespReply.Bulk(items.get(0));
                default -> RespReply.integer(reply.count());
            };
        });
    }

    /**
     * The single-key set commands: each is one engine request that the segment's active owner runs under one hold
     * of the segment's write lock, so each is atomic like Redis's (SPOP's random choice included).
     */
    private CompletableFuture<RespReply> setCommand(String name, List<byte[]> a, int slot, RespSession session) {
        byte[] key = a.get(1);
        List<byte[]> rest = argumentsAfterKey(a);
        if ((name.equals("spop") || name.equals("srandmember")) && rest.size() > 1) {
            return done(SYNTAX);
        }
        HashOp op = switch (name) {
            case "sadd" -> HashOp.SADD;
            case "srem" -> HashOp.SREM;
            case "smembers" -> HashOp.SMEMBERS;
            case "sismember", "smismember" -> HashOp.SMISMEMBER;
            case "scard" -> HashOp.SCARD;
            case "spop" -> HashOp.SPOP;
            default -> HashOp.SRANDMEMBER;
        };
        boolean withCount = !rest.isEmpty() && (op == HashOp.SPOP || op == HashOp.SRANDMEMBER);
        // Redis checks the count before it looks at the key.
        if (withCount) {
            Long count = parseLong(rest.get(0));
            if (op == HashOp.SPOP && (count == null || count < 0)) {
                return done(RespReply.error("ERR value is out of range, must be positive"));
            }
            if (count == null) {
                return done(NOT_INTEGER);
            }
            if (count == Long.MIN_VALUE) {
                return done(RespReply.error("ERR value is out of range, value must between " + -Long.MAX_VALUE + " and "
                        + Long.MAX_VALUE));
            }
        }
        if (op == HashOp.SRANDMEMBER && !withCount) {
            rest = List.of(new byte[] {'1'});
        }
        if (!op.takes(rest.size())) {
            return done(RespReply.error("ERR wrong number of arguments for '" + name + "' command"));
        }
        for (int i = 0; i < rest.size(); i++) {
            if (op.isFieldArgument(i) && rest.get(i).length > backend.limits().maxKeyBytes()) {
                return done(RespReply.error("ERR set member is larger than " + backend.limits().maxKeyBytes() + " bytes"));
            }
        }
        return call(new Request.Hash(0, key, op, rest), slot, session, answer -> {
            ResponseCodec.HashAnswer reply = ResponseCodec.readHashAnswer(answer.body());
            List<byte[]> items = reply.items();
            return switch (name) {
                case "smembers" -> bulkSet(items);
                case "sismember" -> items.get(0) == null ? RespReply.ZERO : RespReply.ONE;
                case "smismember" -> {
                    List<RespReply> flags = new ArrayList<>(items.size());
                    for (byte[] item : items) {
                        flags.add(item == null ? RespReply.ZERO : RespReply.ONE);
                    }
                    yield RespReply.array(flags);
                }
                // Redis answers SPOP's members as a set and SRANDMEMBER's (which may repeat them) as an array.
                case "spop" -> withCount ? bulkSet(items) : items.isEmpty() ? RespReply.NULL : new RespReply.Bulk(items.get(0));
                case "srandmember" -> withCount ? bulks(items)
                        : items.isEmpty() ? RespReply.NULL : new RespReply.Bulk(items.get(0));
                default -> RespReply.integer(reply.count());
            };
        });
    }

    /** The sorted-set commands: planned by {@link RespSortedSetCommands}, each one engine request. */
    private CompletableFuture<RespReply> sortedSetCommand(String name, List<byte[]> a, int slot, RespSession session) {
        RespSortedSetCommands.Plan plan = RespSortedSetCommands.plan(name, a, backend.limits().maxKeyBytes());
        if (plan.immediate() != null) {
            return done(plan.immediate());
        }
        if (plan.fromBody() != null) {
            return call(new Request.Hash(0, a.get(1), plan.op(), plan.args()), slot, session,
                    answer -> plan.fromBody().reply(answer.body()));
        }
        return call(new Request.Hash(0, a.get(1), plan.op(), plan.args()), slot, session,
                answer -> plan.reply().apply(ResponseCodec.readHashAnswer(answer.body())));
    }

    /**
     * SSCAN answers every member (matching MATCH) in one reply with cursor 0, as HSCAN does (COUNT is a hint).
     */
    private CompletableFuture<RespReply> sscan(List<byte[]> a, int slot) {
        if (parseUnsigned(a.get(2)) == null) {
            return done(RespReply.error("ERR invalid cursor"));
        }
        ScanOptions options;
        try {
            options = ScanOptions.parse(a, 3, ScanOptions.Extra.NONE);
        } catch (ScanOptions.Invalid e) {
            return optionsAfterKey(new Request.Hash(0, a.get(1), HashOp.SMEMBERS, List.of()), slot, scanError(e));
        }
        return call(new Request.Hash(0, a.get(1), HashOp.SMEMBERS, List.of()), slot, answer -> {
            List<RespReply> found = new ArrayList<>();
            for (byte[] member : ResponseCodec.readHashAnswer(answer.body()).items()) {
                if (options.matches(member)) {
                    found.add(new RespReply.Bulk(member));
                }
            }
            return RespReply.array(List.of(RespReply.bulk("0"), RespReply.array(found)));
        });
    }

    /**
     * SINTER, SUNION and SDIFF on keys of one slot (CROSSSLOT otherwise, as Redis Cluster answers): one SMEMBERS per
     * key (reads answer at once on the slot's owner), then the algebra here. Their STORE forms replace the
     * destination (of any type) by the result in one write (SSTORE), and answer its size. A key of another type is WRONGTYPE even
     * when an earlier key is missing, as in Redis. Weaker than Redis: the reads are not one atomic step, so a write
     * between two of them may be seen by one and not the other.
     */
    private CompletableFuture<RespReply> setAlgebra(String name, List<byte[]> a, int slot) {
        if (!sameSlot(a.subList(1, a.size()))) {
            return done(CROSSSLOT);
        }
        boolean store = name.endsWith("store");
        List<byte[]> keys = a.subList(store ? 2 : 1, a.size());
        List<List<byte[]>> sets = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            Answer answer = now(new Request.Hash(0, key, HashOp.SMEMBERS, List.of()));
            if (answer.status() != KvStatus.OK) {
                return done(routingError(answer, slot));
            }
            try {
                sets.add(ResponseCodec.readHashAnswer(answer.body()).items());
            } catch (MalformedRequestException e) {
                return done(RespReply.error("ERR unreadable engine reply: " + e.getMessage()));
            }
        }
        List<byte[]> result = SetAlgebra.apply(store ? name.substring(0, name.length() - "store".length()) : name, sets);
        if (!store) {
            return done(bulkSet(result));
        }
        return call(new Request.Hash(0, a.get(1), HashOp.SSTORE, result), slot,
                answer -> RespReply.integer(ResponseCodec.readHashAnswer(answer.body()).count()));
    }

    /**
     * SINTERCARD numkeys key… [LIMIT n]: how many members every given set holds, at most {@code n} when it is not 0.
     * Its argument errors come in Redis's order (numkeys, then too few keys, then LIMIT) before CROSSSLOT and the keys'
     * types. As with SINTER, each key is read with a request of its own on the slot's owner.
     */
    private CompletableFuture<RespReply> sinterCard(List<byte[]> a) {
        Long numKeys = parseLong(a.get(1));
        if (numKeys == null || numKeys <= 0) {
            return done(RespReply.error("ERR numkeys should be greater than 0"));
        }
        if (numKeys > a.size() - 2) {
            return done(RespReply.error("ERR Number of keys can't be greater than number of args"));
        }
        int keysEnd = 2 + numKeys.intValue();
        long limit = 0;
        for (int i = keysEnd; i < a.size(); i++) {
            if (!text(a.get(i)).equalsIgnoreCase("limit") || i + 1 >= a.size()) {
                return done(SYNTAX);
            }
            Long value = parseLong(a.get(++i));
            if (value == null || value < 0) {
                return done(RespReply.error("ERR LIMIT can't be negative"));
            }
            limit = value;
        }
        List<byte[]> keys = a.subList(2, keysEnd);
        if (!sameSlot(keys)) {
            return done(CROSSSLOT);
        }
        int slot = SegmentMapper.slot(keys.get(0));
        List<List<byte[]>> sets = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            Answer answer = now(new Request.Hash(0, key, HashOp.SMEMBERS, List.of()));
            if (answer.status() != KvStatus.OK) {
                return done(routingError(answer, slot));
            }
            try {
                sets.add(ResponseCodec.readHashAnswer(answer.body()).items());
            } catch (MalformedRequestException e) {
                return done(RespReply.error("ERR unreadable engine reply: " + e.getMessage()));
            }
        }
        long size = SetAlgebra.apply("sinter", sets).size();
        return done(RespReply.integer(limit == 0 ? size : Math.min(size, limit)));
    }

    /**
     * HSCAN answers every field (matching MATCH) in one reply with cursor 0, which Redis allows (COUNT is a hint;
     * Redis does the same for a small hash): each field present throughout is returned, once. {@code NOVALUES}
     * leaves the values out, as in Redis 7.4.
     */
    private CompletableFuture<RespReply> hscan(List<byte[]> a, int slot) {
        if (parseUnsigned(a.get(2)) == null) {
            return done(RespReply.error("ERR invalid cursor"));
        }
        ScanOptions options;
        try {
            options = ScanOptions.parse(a, 3, ScanOptions.Extra.NOVALUES);
        } catch (ScanOptions.Invalid e) {
            return optionsAfterKey(new Request.Hash(0, a.get(1), HashOp.HGETALL, List.of()), slot, scanError(e));
        }
        return call(new Request.Hash(0, a.get(1), HashOp.HGETALL, List.of()), slot, answer -> {
            List<byte[]> items = ResponseCodec.readHashAnswer(answer.body()).items();
            List<RespReply> found = new ArrayList<>();
            for (int i = 0; i + 1 < items.size(); i += 2) {
                if (options.matches(items.get(i))) {
                    found.add(new RespReply.Bulk(items.get(i)));
                    if (options.values()) {
                        found.add(new RespReply.Bulk(items.get(i + 1)));
                    }
                }
            }
            return RespReply.array(List.of(RespReply.bulk("0"), RespReply.array(found)));
        });
    }

    /**
     * HSCAN and SSCAN with bad options answer as Redis does, which looks the key up before reading them: WRONGTYPE
     * for another type, an empty scan for a missing key, and {@code refusal} only for a key of the right type.
     */
    private CompletableFuture<RespReply> optionsAfterKey(Request read, int slot, RespReply refusal) {
        return call(read, slot, answer -> ResponseCodec.readHashAnswer(answer.body()).items().isEmpty() ? EMPTY_SCAN : refusal);
    }

    private static final RespReply EMPTY_SCAN = RespReply.array(List.of(RespReply.bulk("0"), RespReply.array(List.of())));

    private static RespReply scanError(ScanOptions.Invalid invalid) {
        return invalid.notInteger() ? NOT_INTEGER : SYNTAX;
    }

    /** A cursor: a decimal number from 0 to 2^64 − 1, as Redis takes it; {@code null} otherwise. */
    private static java.math.BigInteger parseUnsigned(byte[] text) {
        String s = text(text);
        if (s.isEmpty() || s.length() > 20 || !s.chars().allMatch(Character::isDigit)) {
            return null;
        }
        java.math.BigInteger value = new java.math.BigInteger(s);
        return value.bitLength() > 64 ? null : value;
    }

    /** Members of a set, as Redis answers SMEMBERS, SINTER, SUNION, SDIFF and SPOP with a count: a set in RESP3. */
    private static RespReply.SetReply bulkSet(List<byte[]> items) {
        return new RespReply.SetReply(bulks(items).items());
    }

    private static RespReply.Array bulks(List<byte[]> items) {
        List<RespReply> replies = new ArrayList<>(items.size());
        for (byte[] item : items) {
            replies.add(RespReply.bulkOrNull(item));
        }
        return new RespReply.Array(replies);
    }

    private CompletableFuture<RespReply> increment(byte[] key, int slot, long delta) {
        return call(new Request.Increment(0, key, delta), slot, answer -> RespReply.integer(answer.body().readLong()));
    }

    // ------------------------------------------------------------------ read-then-conditional-write

    /** What a compound command writes: a value with a TTL ({@link Request#NO_TTL} = none). */
    private record Write(byte[] value, long ttlMillis) {
    }

    @FunctionalInterface
    private interface Decide {
        /** The write to make given the current value ({@code null} = absent), or {@code null} for none. */
        Write decide(VersionedValue current);
    }

    @FunctionalInterface
    private interface Reply {
        RespReply reply(VersionedValue current, boolean written);
    }

    private record Read(VersionedValue value, RespReply error) {
    }

    /**
     * Reads the key, decides, and writes with the read version as precondition; a CONFLICT (someone wrote in
     * between) starts over, at most {@link #MAX_CAS_ATTEMPTS} times.
     */
    private CompletableFuture<RespReply> compareAndSet(byte[] key, int slot, Decide decide, Reply reply) {
        for (int attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
            Read read = read(key, slot);
            if (read.error() != null) {
                return done(read.error());
            }
            VersionedValue current = read.value();
            Write write = decide.decide(current);
            if (write == null) {
                return done(reply.reply(current, false));
            }
            long expected = current == null ? 0 : current.version();
            Request request = new Request.Put(0, key, write.value(), write.ttlMillis(), false, expected);
            CompletableFuture<ByteBuf> outcome = backend.execute(request);
            if (retryable(outcome)) {
                continue;
            }
            return translate(outcome, slot, answer -> reply.reply(current, true));
        }
        return done(contention(key));
    }

    private static RespReply contention(byte[] key) {
        return RespReply.error("TRYAGAIN key '" + text(key) + "' changed " + MAX_CAS_ATTEMPTS + " times while being updated; retry");
    }

    private Read read(byte[] key, int slot) {
        Answer answer = now(new Request.Get(0, key));
        if (answer.status() == KvStatus.NOT_FOUND) {
            return new Read(null, null);
        }
        if (answer.status() != KvStatus.OK) {
            return new Read(null, routingError(answer, slot));
        }
        try {
            return new Read(ResponseCodec.readValue(answer.body()), null);
        } catch (MalformedRequestException e) {
            return new Read(null, RespReply.error("ERR " + e.getMessage()));
        }
    }

    /** Whether a conditional write already failed its precondition (CONFLICT, or NOT_FOUND of a delete). */
    private static boolean retryable(CompletableFuture<ByteBuf> outcome) {
        if (!outcome.isDone() || outcome.isCompletedExceptionally()) {
            return false;
        }
        ByteBuf payload = outcome.join();
        KvStatus status = KvStatus.fromCode(payload.getUnsignedByte(payload.readerIndex() + 9));
        return status == KvStatus.CONFLICT || status == KvStatus.NOT_FOUND;
    }

    // ------------------------------------------------------------------ blocking list commands

    /**
     * BLPOP and BRPOP on keys of one slot: the first key holding a list gives its head (tail) element, answered as
     * [key, element]; with none, the client blocks in {@link BlockedClients} until one does, the timeout passes (the
     * null array) or its slot's ownership moves away ({@code -MOVED}, which a cluster client follows).
     */
    private CompletableFuture<RespReply> blockingPop(String name, List<byte[]> a, int slot, RespSession session) {
        Long timeout = RespListCommands.timeoutMillis(a.get(a.size() - 1));
        if (timeout == null || timeout < 0) {
            return done(RespReply.error(timeout == null ? "ERR timeout is not a float or out of range" : "ERR timeout is negative"));
        }
        List<byte[]> keys = List.copyOf(a.subList(1, a.size() - 1));
        if (!sameSlot(keys)) {
            return done(CROSSSLOT);
        }
        boolean head = name.equals("blpop");
        return blockUnlessPopped(keys, timeout, () -> popFirst(keys, 0, head, slot), RespReply.NULL_ARRAY, session);
    }

    /** BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout: LMOVE, blocking while the source is empty. */
    private CompletableFuture<RespReply> blockingMove(List<byte[]> a, int slot, RespSession session) {
        if (!RespListCommands.isSide(a.get(3)) || !RespListCommands.isSide(a.get(4))) {
            return done(SYNTAX);
        }
        Long timeout = RespListCommands.timeoutMillis(a.get(5));
        if (timeout == null || timeout < 0) {
            return done(RespReply.error(timeout == null ? "ERR timeout is not a float or out of range" : "ERR timeout is negative"));
        }
        if (SegmentMapper.slot(a.get(1)) != SegmentMapper.slot(a.get(2))) {
            return done(CROSSSLOT);
        }
        Request.Hash move = new Request.Hash(0, a.get(1), HashOp.LMOVE, List.copyOf(a.subList(2, 5)));
        BlockedClients.Attempt attempt = () -> callOnce(move, slot, answer -> {
            byte[] element = ResponseCodec.readHashAnswer(answer.body()).items().get(0);
            return element == null ? null : new RespReply.Bulk(element);
        });
        return blockUnlessPopped(List.of(a.get(1)), timeout, attempt, RespReply.NULL, session);
    }

    /**
     * Tries once at once; blocks only when that found nothing to pop. A pop refused because the slot's ownership is
     * changing ({@code -TRYAGAIN}) counts as nothing yet: the client stays blocked and its next retry, once the move is
     * done, pops or answers {@code -MOVED} to the new owner, which cluster clients follow.
     */
    private CompletableFuture<RespReply> blockUnlessPopped(List<byte[]> keys, long timeoutMillis,
                                                          BlockedClients.Attempt pop, RespReply onTimeout,
                                                          RespSession session) {
        BlockedClients.Attempt attempt = () -> pop.run().thenApply(reply ->
                reply instanceof RespReply.Error error && error.text().startsWith("TRYAGAIN ") ? null : reply);
        return attempt.run().thenCompose(reply -> reply != null ? CompletableFuture.completedFuture(reply)
                : blocked.block(keys, timeoutMillis, attempt, onTimeout, () -> session.closed));
    }

    /**
     * BZPOPMIN, BZPOPMAX, BLMPOP and BZMPOP: one pop over all the keys at once (ZMPOP or LMPOP on the slot's owner),
     * blocking in {@link BlockedClients} while it finds nothing, as BLPOP does; a timeout answers the null array.
     */
    private CompletableFuture<RespReply> blockingMultiPop(String name, List<byte[]> a, RespSession session) {
        RespSeveralKeyCommands.Blocking plan = RespSeveralKeyCommands.prepareBlocking(name, a, backend.limits().maxKeyBytes());
        if (plan.refusal() != null) {
            return done(plan.refusal());
        }
        int slot = SegmentMapper.slot(plan.pop().key());
        BlockedClients.Attempt attempt = () -> call(plan.pop(), slot,
                answer -> plan.reply().apply(ResponseCodec.readHashAnswer(answer.body())));
        return blockUnlessPopped(plan.keys(), plan.timeoutMillis(), attempt, RespReply.NULL_ARRAY, session);
    }

    /** Pops from the first of {@code keys} (from {@code index} on) that holds a list: [key, element], or null for none. */
    private CompletableFuture<RespReply> popFirst(List<byte[]> keys, int index, boolean head, int slot) {
        if (index == keys.size()) {
            return CompletableFuture.completedFuture(null);
        }
        byte[] key = keys.get(index);
        return callOnce(new Request.Hash(0, key, head ? HashOp.LPOP : HashOp.RPOP, List.of()), slot, answer -> {
            List<byte[]> items = ResponseCodec.readHashAnswer(answer.body()).items();
            return items.isEmpty() ? null : RespReply.array(List.of(new RespReply.Bulk(key), new RespReply.Bulk(items.get(0))));
        }).thenCompose(reply -> reply != null ? CompletableFuture.completedFuture(reply) : popFirst(keys, index + 1, head, slot));
    }

    /** A local write inserted an element into the list at {@code key} (any port): its blocked clients retry. */
    void listPushed(byte[] key) {
        blocked.pushed(key);
    }

    /** Stops the blocked clients' timer; their commands are answered with an error. */
    void close() {
        blocked.close();
        moveWaits.close();
    }

    // ------------------------------------------------------------------ engine replies

    /** A decoded native response: status and the body after the header. */
    record Answer(KvStatus status, ByteBuf body) {
        /** Where the status byte sits in a payload: after the response marker and the request id. */
        static final int STATUS_OFFSET = 1 + Long.BYTES;

        static Answer decode(ByteBuf payload) {
            payload.readUnsignedByte();
            payload.readLong();
            KvStatus status = KvStatus.fromCode(payload.readUnsignedByte());
            return new Answer(status == null ? KvStatus.BAD_REQUEST : status, payload);
        }
    }

    @FunctionalInterface
    private interface OnAnswer {
        RespReply apply(Answer answer) throws MalformedRequestException;
    }

    /** Runs one request; a refusal because its partition is changing hands is waited out first ({@link MoveWaits}). */
    private CompletableFuture<RespReply> call(Request request, int slot, OnAnswer onAnswer) {
        return call(request, slot, null, onAnswer);
    }

    /**
     * {@link #call(Request, int, OnAnswer)} from the command {@code session}'s connection runs now: a read answers
     * into the response buffer the connection lends it ({@link LentResponseBuffer}), when it lends one; a wait and its
     * retries use buffers of their own. A write is lent none: a SYNC write's reply waits for its replica and would
     * keep the lent buffer, so every write would cost a buffer of a read's size instead of its own small one.
     */
    private CompletableFuture<RespReply> call(Request request, int slot, RespSession session, OnAnswer onAnswer) {
        ByteBuf lent = session == null || request.op().isWrite() ? null : session.responseBuffer.take();
        CompletableFuture<ByteBuf> first;
        if (lent == null) {
            first = backend.execute(request);
        } else {
            CompletableFuture<Void> answered = backend.executeInto(request, lent);
            if (answered.isDone() && !answered.isCompletedExceptionally() && !waitsOut(lent, slot)) {
                return done(reply(lent, slot, onAnswer)); // a read answered at once: no future of its payload
            }
            first = answered.thenApply(ignored -> lent);
        }
        if (!first.isDone() || first.isCompletedExceptionally() || !waitsOut(first.join(), slot)) {
            return translate(first, slot, onAnswer); // the common case, without a closure per command
        }
        return translate(moveWaits.waitOut(first, () -> backend.execute(request), payload -> waitsOut(payload, slot)),
                slot, onAnswer);
    }

    /**
     * Runs one request and answers its refusal at once: for blocking pops, which already take a refusal while the
     * partition changes hands for "nothing yet" and keep retrying within their own timeout.
     */
    private CompletableFuture<RespReply> callOnce(Request request, int slot, OnAnswer onAnswer) {
        return translate(backend.execute(request), slot, onAnswer);
    }

    /** Whether a native answer is a refusal {@link MoveWaitPolicy} waits out; reads the status without consuming it. */
    private boolean waitsOut(ByteBuf payload, int slot) {
        KvStatus status = KvStatus.fromCode(payload.getUnsignedByte(payload.readerIndex() + Answer.STATUS_OFFSET));
        if (status == null || status.isAnswer()) {
            return false;
        }
        boolean movedToSelf = false;
        if (status == KvStatus.MOVED || status == KvStatus.REPLICA_WRITE_REJECTED) {
            ClusterView view = backend.currentView();
            movedToSelf = view != null && backend.nodeId().equals(activeOfSlot(view, slot));
        }
        return MoveWaitPolicy.waitsOut(status, movedToSelf);
    }

    private CompletableFuture<RespReply> translate(CompletableFuture<ByteBuf> outcome, int slot, OnAnswer onAnswer) {
        if (outcome.isDone() && !outcome.isCompletedExceptionally()) {
            // Reads, ASYNC writes and refusals: answered here, without a dependent future per command.
            return done(reply(outcome.join(), slot, onAnswer));
        }
        return outcome.handle((payload, failure) -> failure != null
                ? RespReply.error("NOREPLICAS write applied on the active owner but not acknowledged by enough replicas: "
                        + rootMessage(failure))
                : reply(payload, slot, onAnswer));
    }

    private RespReply reply(ByteBuf payload, int slot, OnAnswer onAnswer) {
        Answer answer = Answer.decode(payload);
        if (!answer.status().isAnswer()) {
            return routingError(answer, slot);
        }
        try {
            return onAnswer.apply(answer);
        } catch (MalformedRequestException | RuntimeException e) {
            return RespReply.error("ERR unreadable engine reply: " + e.getMessage());
        }
    }

    /** A read answers at once; so does every refused or conditional write that failed its precondition. */
    private Answer now(Request request) {
        CompletableFuture<ByteBuf> outcome = backend.execute(request);
        ByteBuf payload = outcome.isDone() && !outcome.isCompletedExceptionally() ? outcome.join() : null;
        if (payload == null) {
            throw new IllegalStateException(request.op() + " did not complete at once");
        }
        return Answer.decode(payload);
    }

    /** Redis's own reply to a write refused under {@code maxmemory} (clients match on the {@code OOM} prefix). */
    static final RespReply OUT_OF_MEMORY = RespReply.error("OOM command not allowed when used memory > 'maxmemory'.");

    /** Maps a non-answer status to the Redis error a cluster client understands. */
    RespReply routingError(Answer answer, int slot) {
        KvStatus status = answer.status();
        String message = ResponseCodec.readMessage(answer.body());
        switch (status) {
            case MOVED, REPLICA_WRITE_REJECTED -> {
                return moved(slot);
            }
            case OWNERSHIP_CHANGING, MIGRATING -> {
                return RespReply.error("TRYAGAIN " + message);
            }
            case UNAVAILABLE -> {
                return RespReply.error("CLUSTERDOWN " + message);
            }
            case UNACKNOWLEDGED -> {
                return RespReply.error("NOREPLICAS " + message);
            }
            case WRONG_TYPE, BAD_REQUEST, TOO_LARGE -> {
                // Redis's WRONGTYPE error has its own prefix, which clients match on.
                return RespReply.error(message.startsWith("WRONGTYPE ") ? message : "ERR " + message);
            }
            case UNAUTHORIZED -> {
                return RespReply.error("NOAUTH " + message);
            }
            case OUT_OF_MEMORY -> {
                return OUT_OF_MEMORY;
            }
            default -> {
                return RespReply.error("ERR " + status + " " + message);
            }
        }
    }

    private RespReply moved(int slot) {
        ClusterView view = backend.currentView();
        if (view == null) {
            return RespReply.error("CLUSTERDOWN node " + backend.nodeId() + " has no cluster map yet");
        }
        return movedReply(view, backend.nodeId(), options.peerPorts(), slot);
    }

    /** {@code -MOVED slot host:port} to the active owner of the slot's partition, as this view has it. */
    static RespReply movedReply(ClusterView view, String self, RespPeerPorts ports, int slot) {
        PartitionRuntime runtime = runtimeOfSlot(view, slot);
        String active = runtime.activeNode();
        if (active == null || !runtime.health().isServing()) {
            return RespReply.error("CLUSTERDOWN Hash slot " + slot + " has no serving owner");
        }
        if (active.equals(self)) {
            return RespReply.error("TRYAGAIN ownership of slot " + slot + " is changing");
        }
        NodeAddress address = ClusterTopology.endpoint(view, ports, active);
        if (address == null) {
            return RespReply.error("CLUSTERDOWN Hash slot " + slot + " is served by " + active + " whose RESP port is unknown");
        }
        return RespReply.error("MOVED " + slot + " " + address.host() + ":" + address.port());
    }

    private static PartitionRuntime runtimeOfSlot(ClusterView view, int slot) {
        return view.runtimeOfSegment(new SegmentMapper(view.layout().segmentCount()).segmentOfSlot(slot));
    }

    private static String activeOfSlot(ClusterView view, int slot) {
        PartitionRuntime runtime = runtimeOfSlot(view, slot);
        return runtime.health().isServing() ? runtime.activeNode() : null;
    }

    // ------------------------------------------------------------------ server and cluster commands

    private RespReply hello(List<byte[]> a, RespSession session) {
        int protocol = session.protocol;
        int i = 1;
        if (a.size() > 1) {
            Long version = parseLong(a.get(1));
            if (version == null) {
                return RespReply.error("ERR Protocol version is not an integer or out of range");
            }
            if (version != 2 && version != 3) {
                return RespReply.error("NOPROTO unsupported protocol version");
            }
            protocol = version.intValue();
            i = 2;
        }
        String name = session.name;
        for (; i < a.size(); i++) {
            String option = text(a.get(i)).toUpperCase(Locale.ROOT);
            if (option.equals("AUTH") && i + 2 < a.size()) {
                RespReply failure = login(text(a.get(i + 1)), a.get(i + 2), session);
                if (failure != null) {
                    return failure;
                }
                i += 2;
            } else if (option.equals("SETNAME") && i + 1 < a.size()) {
                name = text(a.get(++i));
            } else {
                return RespReply.error("ERR Syntax error in HELLO option '" + text(a.get(i)) + "'");
            }
        }
        if (!session.login.isLoggedIn()) {
            return RespReply.error("NOAUTH HELLO must be called with the client already authenticated, otherwise the "
                    + "HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP "
                    + "protocol version at the same time");
        }
        session.protocol = protocol;
        session.name = name;
        if (protocol < 3 && tracking != null) {
            tracking.protocolChanged(session); // RESP2 cannot carry its pushes: tracking stays only with a REDIRECT
        }
        return RespReply.map(List.of(
                RespReply.bulk("server"), RespReply.bulk("redis"),
                RespReply.bulk("version"), RespReply.bulk(VERSION),
                RespReply.bulk("proto"), RespReply.integer(protocol),
                RespReply.bulk("id"), RespReply.integer(session.id),
                RespReply.bulk("mode"), RespReply.bulk("cluster"),
                RespReply.bulk("role"), RespReply.bulk("master"),
                RespReply.bulk("modules"), RespReply.array(List.of())));
    }

    /**
     * {@code RESET}: the connection as it was after connecting, but logged in: subscriptions and tracking off, RESP2,
     * no name, READWRITE.
     */
    private RespReply reset(RespSession session) {
        RespPubSub.closed(session);
        if (tracking != null) {
            tracking.off(session);
        }
        session.protocol = 2;
        session.name = null;
        session.readOnly = false;
        return new RespReply.Simple("RESET");
    }

    /** A message another node relayed, for this node's subscribers. */
    void deliverRelayed(byte[] channel, byte[] message) {
        pubSub.registry().deliver(channel, message, false);
    }

    /** The listener closes: every shard channel subscriber is pushed {@code sunsubscribe} first. */
    void closing() {
        pubSub.closing();
    }

    /** A node's view changed: shard channels of slots it no longer serves are unsubscribed. */
    void viewInstalled(io.zaris.model.ClusterView previous, io.zaris.model.ClusterView adopted) {
        pubSub.viewInstalled(previous, adopted);
    }

    private RespReply client(List<byte[]> a, RespSession session) {
        String sub = text(a.get(1)).toUpperCase(Locale.ROOT);
        switch (sub) {
            case "SETNAME" -> {
                if (a.size() != 3) {
                    return RespReply.error("ERR wrong number of arguments for 'client|setname' command");
                }
                String name = text(a.get(2));
                for (char c : name.toCharArray()) {
                    if (c <= ' ' || c > '~') {
                        return RespReply.error("ERR Client names cannot contain spaces, newlines or special characters.");
                    }
                }
                session.name = name.isEmpty() ? null : name;
                return RespReply.OK;
            }
            case "GETNAME" -> {
                return session.name == null ? RespReply.NULL : RespReply.bulk(session.name);
            }
            case "ID" -> {
                return RespReply.integer(session.id);
            }
            case "SETINFO" -> {
                if (a.size() != 4) {
                    return RespReply.error("ERR wrong number of arguments for 'client|setinfo' command");
                }
                String attribute = text(a.get(2)).toUpperCase(Locale.ROOT);
                if (attribute.equals("LIB-NAME")) {
                    session.libName = text(a.get(3));
                } else if (attribute.equals("LIB-VER")) {
                    session.libVersion = text(a.get(3));
                } else {
                    return RespReply.error("ERR Unrecognized option '" + text(a.get(2)) + "'");
                }
                return RespReply.OK;
            }
            case "INFO", "LIST" -> {
                String line = "id=" + session.id + " name=" + (session.name == null ? "" : session.name) + " db=0 resp="
                        + session.protocol + " lib-name=" + (session.libName == null ? "" : session.libName)
                        + " lib-ver=" + (session.libVersion == null ? "" : session.libVersion) + "\n";
                return RespReply.bulk(line);
            }
            case "TRACKING", "TRACKINGINFO", "CACHING", "GETREDIR" -> {
                return tracking == null ? RespReply.error("ERR CLIENT " + sub + " is not available on this listener")
                        : tracking.command(sub, a, session);
            }
            case "NO-EVICT", "NO-TOUCH", "REPLY" -> {
                return RespReply.OK;
            }
            default -> {
                return RespReply.error("ERR unknown subcommand '" + text(a.get(1)) + "'. Try CLIENT HELP.");
            }
        }
    }

    private RespReply command(List<byte[]> a, RespSession session) {
        if (a.size() == 1) {
            List<RespReply> all = new ArrayList<>();
            for (CommandTable.Spec spec : CommandTable.COMMANDS.values()) {
                all.add(CommandTable.info(spec));
            }
            return RespReply.array(all);
        }
        String sub = text(a.get(1)).toUpperCase(Locale.ROOT);
        switch (sub) {
            case "COUNT" -> {
                return RespReply.integer(CommandTable.COMMANDS.size());
            }
            case "DOCS" -> {
                return commandDocs(a.subList(2, a.size()));
            }
            case "LIST" -> {
                List<RespReply> names = new ArrayList<>();
                CommandTable.COMMANDS.keySet().forEach(n -> names.add(RespReply.bulk(n)));
                return RespReply.array(names);
            }
            case "INFO" -> {
                List<RespReply> infos = new ArrayList<>();
                for (int i = 2; i < a.size(); i++) {
                    CommandTable.Spec spec = CommandTable.COMMANDS.get(text(a.get(i)).toLowerCase(Locale.ROOT));
                    infos.add(spec == null ? RespReply.NULL : CommandTable.info(spec));
                }
                return RespReply.array(infos);
            }
            default -> {
                return RespReply.error("ERR unknown subcommand '" + text(a.get(1)) + "'. Try COMMAND HELP.");
            }
        }
    }

    /**
     * {@code COMMAND DOCS [name …]}: name → docs of every command, or of each named one this node knows, once
     * (unknown names are left out, as Redis does).
     */
    static RespReply commandDocs(List<byte[]> names) {
        Collection<CommandTable.Spec> specs = CommandTable.COMMANDS.values();
        if (!names.isEmpty()) {
            specs = new LinkedHashSet<>();
            for (byte[] name : names) {
                CommandTable.Spec spec = CommandTable.COMMANDS.get(text(name).toLowerCase(Locale.ROOT));
                if (spec != null) {
                    specs.add(spec);
                }
            }
        }
        List<RespReply> entries = new ArrayList<>();
        for (CommandTable.Spec spec : specs) {
            entries.add(RespReply.bulk(spec.name()));
            entries.add(CommandTable.docs(spec));
        }
        return RespReply.map(entries);
    }

    private RespReply config(List<byte[]> a) {
        String sub = text(a.get(1)).toUpperCase(Locale.ROOT);
        if (sub.equals("GET")) {
            if (a.size() < 3) {
                return RespReply.error("ERR wrong number of arguments for 'config|get' command");
            }
            return RespReply.map(ConfigParameters.matching(a.subList(2, a.size()), backend.memory()));
        }
        return RespReply.error("ERR CONFIG " + sub + " is not supported by Zaris");
    }

    private String info(List<byte[]> a) {
        List<String> sections = new ArrayList<>();
        for (int i = 1; i < a.size(); i++) {
            sections.add(text(a.get(i)).toLowerCase(Locale.ROOT));
        }
        boolean all = sections.isEmpty() || sections.contains("all") || sections.contains("default")
                || sections.contains("everything");
        long now = backend.time().currentTimeMillis();
        Runtime runtime = Runtime.getRuntime();
        StringBuilder text = new StringBuilder();
        if (all || sections.contains("server")) {
            text.append("# Server\r\nredis_version:").append(VERSION).append("\r\nredis_mode:cluster\r\n")
                    .append("zaris_node_id:").append(backend.nodeId()).append("\r\n")
                    .append("run_id:").append(ClusterTopology.redisId(backend.nodeId())).append("\r\n")
                    .append("process_id:").append(ProcessHandle.current().pid()).append("\r\n")
                    .append("arch_bits:64\r\n")
                    .append("uptime_in_seconds:").append((now - startedMillis) / 1000).append("\r\n\r\n");
        }
        if (all || sections.contains("clients")) {
            text.append("# Clients\r\nconnected_clients:").append(connectedClients.getAsInt()).append("\r\n")
                    .append("blocked_clients:").append(blocked.blocked()).append("\r\n")
                    .append("tracking_clients:").append(tracking == null ? 0 : tracking.trackingClients()).append("\r\n\r\n");
        }
        RespBackend.Memory memory = backend.memory();
        if (all || sections.contains("memory")) {
            text.append("# Memory\r\nused_memory:").append(memory.usedBytes()).append("\r\n")
                    .append("maxmemory:").append(memory.maxBytes()).append("\r\n")
                    .append("maxmemory_policy:").append(memory.policy()).append("\r\n")
                    .append("zaris_heap_used:").append(runtime.totalMemory() - runtime.freeMemory()).append("\r\n")
                    .append("zaris_heap_max:").append(runtime.maxMemory()).append("\r\n\r\n");
        }
        if (all || sections.contains("stats")) {
            text.append("# Stats\r\nevicted_keys:").append(memory.evictions()).append("\r\n")
                    .append("expired_keys:").append(memory.expirations()).append("\r\n")
                    .append("tracking_total_keys:").append(tracking == null ? 0 : tracking.trackedKeys()).append("\r\n")
                    .append("zaris_pubsub_relays_dropped:").append(backend.publishRelaysDropped()).append("\r\n\r\n");
        }
        if (all || sections.contains("cluster")) {
            text.append("# Cluster\r\ncluster_enabled:1\r\n\r\n");
        }
        if (all || sections.contains("keyspace")) {
            text.append("# Keyspace\r\n");
            long keys = backend.servedKeys();
            if (keys > 0) {
                // No avg_ttl: Zaris keeps no estimate of it, and a made-up figure would mislead monitoring.
                text.append("db0:keys=").append(keys).append(",expires=").append(backend.servedKeysWithTtl()).append("\r\n");
            }
            text.append("\r\n");
        }
        return text.toString();
    }

    private RespReply cluster(List<byte[]> a) {
        String sub = text(a.get(1)).toUpperCase(Locale.ROOT);
        if (sub.equals("KEYSLOT")) {
            return a.size() == 3 ? RespReply.integer(SegmentMapper.slot(a.get(2)))
                    : RespReply.error("ERR wrong number of arguments for 'cluster|keyslot' command");
        }
        if (sub.equals("MYID")) {
            return RespReply.bulk(ClusterTopology.redisId(backend.nodeId()));
        }
        ClusterView view = backend.currentView();
        if (view == null) {
            return RespReply.error("CLUSTERDOWN node " + backend.nodeId() + " has no cluster map yet");
        }
        return switch (sub) {
            case "SLOTS" -> ClusterTopology.slots(view, options.peerPorts());
            case "SHARDS" -> ClusterTopology.shards(view, options.peerPorts());
            case "NODES" -> RespReply.bulk(ClusterTopology.nodes(view, options.peerPorts(), backend.nodeId()));
            case "INFO" -> RespReply.bulk(ClusterTopology.info(view, options.peerPorts(), backend.nodeId()));
            case "COUNTKEYSINSLOT" -> countKeysInSlot(a, view);
            default -> RespReply.error("ERR unknown subcommand '" + text(a.get(1)) + "'. Try CLUSTER HELP.");
        };
    }

    /**
     * {@code CLUSTER COUNTKEYSINSLOT slot}: the keys of a slot this node actively serves; for any other slot an
     * error naming the node that serves it (this node's replica copy may lag, so it is not counted).
     */
    private RespReply countKeysInSlot(List<byte[]> a, ClusterView view) {
        if (a.size() != 3) {
            return RespReply.error("ERR wrong number of arguments for 'cluster|countkeysinslot' command");
        }
        Long slot = parseLong(a.get(2));
        if (slot == null || slot < 0 || slot >= SegmentMapper.SLOT_COUNT) {
            return RespReply.error("ERR Invalid or out of range slot");
        }
        long keys = backend.keysInSlot(slot.intValue());
        if (keys >= 0) {
            return RespReply.integer(keys);
        }
        SegmentMapper mapper = new SegmentMapper(view.layout().segmentCount());
        String active = view.runtimeOfSegment(mapper.segmentOfSlot(slot.intValue())).activeNode();
        NodeAddress address = active == null ? null : ClusterTopology.endpoint(view, options.peerPorts(), active);
        return RespReply.error("ERR slot " + slot + " is not served by this node"
                + (address == null ? "; it has no serving owner" : "; ask " + address.host() + ":" + address.port()));
    }

    /**
     * SCAN over the segments this node serves: the cursor is the next segment, 0 when done. {@code TYPE} keeps
     * the keys of that type, asking each key's type of this node (a key that changed type or left since the page
     * was read is judged as it is now); an unknown type matches no key (the cursor still advances, so a client's
     * iteration ends as usual).
     */
    private RespReply scan(List<byte[]> a) {
        Long cursor = parseCursor(a.get(1));
        if (cursor == null || cursor < 0) {
            return RespReply.error("ERR invalid cursor");
        }
        ScanOptions options;
        try {
            options = ScanOptions.parse(a, 2, ScanOptions.Extra.TYPE);
        } catch (ScanOptions.Invalid e) {
            return scanError(e);
        }
        if (cursor > Integer.MAX_VALUE) {
            return RespReply.array(List.of(RespReply.bulk("0"), RespReply.array(List.of())));
        }
        Answer answer = now(new Request.Scan(0, cursor.intValue(), (int) Math.min(options.count(), 100_000)));
        if (answer.status() != KvStatus.OK) {
            return routingError(answer, 0);
        }
        try {
            ResponseCodec.ScanPage page = ResponseCodec.readScanPage(answer.body());
            List<RespReply> keys = new ArrayList<>();
            for (byte[] key : page.keys()) {
                if (options.matches(key) && (options.type() == null || options.type().equals(typeName(key)))) {
                    keys.add(new RespReply.Bulk(key));
                }
            }
            return RespReply.array(List.of(RespReply.bulk(page.isLast() ? "0" : Integer.toString(page.nextCursor())),
                    RespReply.array(keys)));
        } catch (MalformedRequestException e) {
            return RespReply.error("ERR " + e.getMessage());
        }
    }

    private RespReply keys(byte[] pattern) {
        List<RespReply> keys = new ArrayList<>();
        int cursor = 0;
        do {
            Answer answer = now(new Request.Scan(0, cursor, 10_000));
            if (answer.status() != KvStatus.OK) {
                return routingError(answer, 0);
            }
            ResponseCodec.ScanPage page;
            try {
                page = ResponseCodec.readScanPage(answer.body());
            } catch (MalformedRequestException e) {
                return RespReply.error("ERR " + e.getMessage());
            }
            for (byte[] key : page.keys()) {
                if (Glob.matches(pattern, key)) {
                    keys.add(new RespReply.Bulk(key));
                }
            }
            cursor = page.nextCursor();
        } while (cursor > 0);
        return RespReply.array(keys);
    }

    // ------------------------------------------------------------------ helpers

    private RespReply checkSizes(String name, List<byte[]> a) {
        CommandTable.Spec spec = CommandTable.COMMANDS.get(name);
        int last = spec.lastKey() < 0 ? a.size() + spec.lastKey() : spec.lastKey(); // -1: the last argument, -2: the one before
        if ((last - spec.firstKey()) / Math.max(1, spec.step()) + 1 > backend.limits().maxBatchKeys()) {
            return RespReply.error("ERR too many keys in one command (at most " + backend.limits().maxBatchKeys() + ")");
        }
        for (int i = 1; i < a.size(); i++) {
            boolean isKey = i >= spec.firstKey() && i <= last && (i - spec.firstKey()) % Math.max(1, spec.step()) == 0;
            if (isKey && a.get(i).length > backend.limits().maxKeyBytes()) {
                return RespReply.error("ERR key is larger than " + backend.limits().maxKeyBytes() + " bytes");
            }
            if (!isKey && a.get(i).length > backend.limits().maxValueBytes()) {
                return RespReply.error("ERR value is larger than " + backend.limits().maxValueBytes() + " bytes");
            }
        }
        return null;
    }

    private static boolean sameSlot(List<byte[]> keys) {
        int slot = SegmentMapper.slot(keys.get(0));
        for (int i = 1; i < keys.size(); i++) {
            if (SegmentMapper.slot(keys.get(i)) != slot) {
                return false;
            }
        }
        return true;
    }

    /** TTL in ms for EX/PX/EXAT/PXAT; {@link Long#MIN_VALUE} when invalid. Absolute times already past become 1 ms. */
    private long ttlMillis(String option, long amount) {
        if (amount <= 0) {
            return Long.MIN_VALUE;
        }
        long now = backend.time().currentTimeMillis();
        return switch (option) {
            case "EX" -> fromNow(multiply(amount, 1000), now);
            case "PX" -> fromNow(amount, now);
            case "EXAT" -> multiply(amount, 1000) == Long.MIN_VALUE ? Long.MIN_VALUE : Math.max(1, multiply(amount, 1000) - now);
            default -> Math.max(1, amount - now);
        };
    }

    /**
     * A relative expiry, or {@code Long.MIN_VALUE} (invalid) when the moment it names, {@code now + ttl}, is past what a
     * signed 64-bit millisecond time holds: Redis refuses such an expiry ("invalid expire time").
     */
    private static long fromNow(long ttl, long now) {
        return ttl > Long.MAX_VALUE - now ? Long.MIN_VALUE : ttl;
    }

    private static long multiply(long value, long factor) {
        try {
            return Math.multiplyExact(value, factor);
        } catch (ArithmeticException e) {
            return Long.MIN_VALUE;
        }
    }

    /**
     * A signed 64-bit integer argument as Redis reads one (its string2ll): an optional '-' and digits without a
     * leading zero, so "+1", "01", "0000" and "-0" are refused as Redis refuses them; {@code null} when not one.
     */
    static Long parseLong(byte[] bytes) {
        int length = bytes.length;
        if (length == 0 || length > 20) {
            return null;
        }
        boolean negative = bytes[0] == '-';
        int start = negative ? 1 : 0;
        if (start == length || (bytes[start] == '0' && (length - start > 1 || negative))) {
            return null;
        }
        long value = 0; // accumulated negatively so Long.MIN_VALUE parses without overflow
        for (int i = start; i < length; i++) {
            int digit = bytes[i] - '0';
            if (digit < 0 || digit > 9 || value < (Long.MIN_VALUE + digit) / 10) {
                return null;
            }
            value = value * 10 - digit;
        }
        if (negative) {
            return value;
        }
        return value == Long.MIN_VALUE ? null : -value;
    }

    /** A SCAN cursor as Redis reads one (strtoul: leading zeros and '+' allowed); {@code null} when not one. */
    private static Long parseCursor(byte[] bytes) {
        if (bytes.length == 0 || bytes.length > 20) {
            return null;
        }
        try {
            return Long.parseLong(new String(bytes, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static RespReply unknownCommand(List<byte[]> args) {
        StringBuilder text = new StringBuilder("ERR unknown command '").append(abbreviate(args.get(0)))
                .append("', with args beginning with: ");
        for (int i = 1; i < args.size() && i < 4; i++) {
            text.append('\'').append(abbreviate(args.get(i))).append("' ");
        }
        return RespReply.error(text.toString());
    }

    private static String abbreviate(byte[] bytes) {
        String text = new String(bytes, 0, Math.min(bytes.length, 128), StandardCharsets.UTF_8);
        return text.replaceAll("[\\p{Cntrl}]", "?");
    }

    private static String rootMessage(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }

    /*
     * Completed futures of the commonest replies, shared by every connection: a completed future never changes
     * (nothing here calls obtrudeValue), and the connection handler only reads them.
     */
    private static final CompletableFuture<RespReply> DONE_OK = CompletableFuture.completedFuture(RespReply.OK);
    private static final CompletableFuture<RespReply> DONE_NULL = CompletableFuture.completedFuture(RespReply.NULL);
    private static final CompletableFuture<RespReply> DONE_ZERO = CompletableFuture.completedFuture(RespReply.ZERO);
    private static final CompletableFuture<RespReply> DONE_ONE = CompletableFuture.completedFuture(RespReply.ONE);

    private static CompletableFuture<RespReply> done(RespReply reply) {
        return reply == RespReply.OK ? DONE_OK : reply == RespReply.NULL ? DONE_NULL
                : reply == RespReply.ZERO ? DONE_ZERO : reply == RespReply.ONE ? DONE_ONE
                : CompletableFuture.completedFuture(reply);
    }
}
