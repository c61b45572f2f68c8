package io.zaris.protocol;

import io.zaris.model.HashOp;

/**
 * Which versions of the wire protocol this build speaks, and how two ends of a connection agree on one.
 *
 * <p><b>Negotiation.</b> The connecting side offers the highest version it speaks in HELLO; the node answers with
 * {@link #negotiate the lower} of that offer and its own highest, or refuses an offer older than
 * {@link #OLDEST_SUPPORTED}. Both ends then use only the frames of the answered version for the life of the
 * connection: the sender checks {@link #knows} before choosing a frame, and the receiver refuses a frame the
 * connection's version does not have. So a node of version N+1 talks to a node of N in N's frames, and connections
 * reach N+1 by themselves once both ends are upgraded (every restarted node opens new connections).
 *
 * <p><b>Versions.</b>
 * <table>
 *   <caption>What each protocol version added</caption>
 *   <tr><th>version</th><th>frames added</th></tr>
 *   <tr><td>1</td><td>every frame of {@link OpCode} except the ones below; live replication one segment per
 *       {@code REPLICATE} frame</td></tr>
 *   <tr><td>2</td><td>{@code REPLICATE_BATCH}: live changes of several segments in one frame;
 *       {@code SEGMENT_DIGESTS}: a digest of each segment of a partition, to compare copies</td></tr>
 *   <tr><td>3</td><td>{@code ADVANCE_EPOCH}: an active that keeps its partition under a new epoch carries its
 *       replicas' copies over instead of snapshotting them again</td></tr>
 *   <tr><td>4</td><td>{@code HASH_READ}, {@code HASH_WRITE}: hash operations; changes of replication, snapshots and
 *       pulls gain the kinds field value, field removed and expiry (a hash is shipped field by field), and the
 *       member, list, score and rename kinds of the other collections (a rename moves a whole value in one change);
 *       {@code TRACK_SEGMENT}: a near cache or key watch tracks one segment and resumes it from a revision;
 *       {@code PUBLISH}: a node relays a RESP message to another node's subscribers; {@code HAND_OVER_FENCE}: the
 *       leader fences a planned hand-over's old active before publishing it (a build of this version without it
 *       refuses it as a bad request, and the leader publishes anyway)</td></tr>
 * </table>
 *
 * <p><b>Speaking an older version.</b> For upgrade tests a process can be told to speak an older version with the
 * system property {@value #SPEAK_VERSION_PROPERTY}; it then offers and accepts nothing newer, exactly like a node of
 * that release. It is not a server option: operators never need it.
 */
public final class ProtocolVersions {

    /** The newest version this build speaks. */
    public static final int CURRENT = 4;
    /** The oldest version this build still speaks: a build talks to its own release and the one before. */
    public static final int OLDEST_SUPPORTED = CURRENT - 1;
    /** System property that makes this process speak an older version (upgrade tests only). */
    public static final String SPEAK_VERSION_PROPERTY = "zaris.protocol.speak-version";

    private ProtocolVersions() {
    }

    /**
     * The highest version this process speaks: {@link #CURRENT}, or what {@value #SPEAK_VERSION_PROPERTY} says.
     *
     * @throws IllegalArgumentException when the property is set to anything but a supported version
     */
    public static int spoken() {
        String value = System.getProperty(SPEAK_VERSION_PROPERTY);
        if (value == null) {
            return CURRENT;
        }
        int version;
        try {
            version = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(SPEAK_VERSION_PROPERTY + " must be a protocol version from "
                    + OLDEST_SUPPORTED + " to " + CURRENT + ", was '" + value + "'");
        }
        requireSupported(version, SPEAK_VERSION_PROPERTY);
        return version;
    }

    /**
     * The version a connection uses when the other side offered {@code offered} and this side speaks up to
     * {@code spoken}: the lower of the two.
     *
     * @throws IllegalArgumentException when {@code offered} is older than {@link #OLDEST_SUPPORTED}
     */
    public static int negotiate(int offered, int spoken) {
        if (offered < OLDEST_SUPPORTED) {
            throw new IllegalArgumentException("protocol version " + offered + " is not supported; this node speaks "
                    + OLDEST_SUPPORTED + " to " + spoken);
        }
        return Math.min(offered, spoken);
    }

    /**
     * Checks a node's answer to an offer: it must be a version this side speaks and no newer than it offered.
     *
     * @throws IllegalArgumentException when the answer breaks that rule
     */
    public static int checkAnswer(int answered, int offered) {
        if (answered < OLDEST_SUPPORTED || answered > offered) {
            throw new IllegalArgumentException("node answered protocol version " + answered + " to an offer of "
                    + offered + "; expected " + OLDEST_SUPPORTED + " to " + offered);
        }
        return answered;
    }

    /** The protocol version that introduced {@code op}. */
    public static int introducedIn(OpCode op) {
        if (op == OpCode.HASH_READ || op == OpCode.HASH_WRITE || op == OpCode.TRACK_SEGMENT || op == OpCode.PUBLISH
                || op == OpCode.HAND_OVER_FENCE) {
            return 4;
        }
        if (op == OpCode.ADVANCE_EPOCH) {
            return 3;
        }
        return op == OpCode.REPLICATE_BATCH || op == OpCode.SEGMENT_DIGESTS ? 2 : 1;
    }

    /** Whether a connection that negotiated {@code version} may carry {@code op}. */
    public static boolean knows(int version, OpCode op) {
        return introducedIn(op) <= version;
    }

    /**
     * The protocol version that introduced collection op {@code op} inside the {@code HASH_READ} and {@code HASH_WRITE}
     * frames. Every op so far came within version 4, which no release has shipped yet, so all answer 4. The switch lists
     * every op on purpose: a new op does not compile until its version is decided here, and an op added after a release
     * of version N belongs to N + 1 (bump {@link #CURRENT}), so that a client never sends it to a node of that release,
     * which would not know its code.
     */
    public static int introducedIn(HashOp op) {
        return switch (op) {
            case TYPE, HSET, HSETNX, HMGET, HDEL, HGETALL, HKEYS, HVALS, HLEN, HINCRBY, HINCRBYFLOAT,
                 SADD, SREM, SMEMBERS, SMISMEMBER, SCARD, SPOP, SRANDMEMBER, SSTORE, SMOVE, HRANDFIELD,
                 SET, RENAME, DUMP, RESTORE, EXPIRE, APPEND,
                 LPUSH, RPUSH, LPUSHX, RPUSHX, LPOP, RPOP, LRANGE, LLEN, LINDEX, LSET, LREM, LTRIM, LMOVE, LINSERT, LPOS,
                 LMPOP,
                 ZADD, ZREM, ZMSCORE, ZCARD, ZCOUNT, ZRANK, ZRANGE, ZREMRANGE, ZPOP, ZLEXCOUNT, ZRANDMEMBER, ZMPOP,
                 ZCOMBINE, ZCOMBINESTORE -> 4;
        };
    }

    /**
     * Whether a connection that negotiated {@code version} may carry {@code request}: its frame, and for a collection
     * request its op too. Senders check it before sending; what fails it is refused with the name {@link #lacking}
     * gives.
     */
    public static boolean knows(int version, Request request) {
        return knows(version, request.op())
                && (!(request instanceof Request.Hash hash) || introducedIn(hash.hashOp()) <= version);
    }

    /** What a connection of {@code version} lacks to carry {@code request}: its frame's name, or its collection op's. */
    public static String lacking(int version, Request request) {
        if (!knows(version, request.op())) {
            return request.op().name();
        }
        return request instanceof Request.Hash hash ? "hash op " + hash.hashOp().name() : request.op().name();
    }

    private static void requireSupported(int version, String what) {
        if (version < OLDEST_SUPPORTED || version > CURRENT) {
            throw new IllegalArgumentException(what + " must be a protocol version from " + OLDEST_SUPPORTED + " to "
                    + CURRENT + ", was " + version);
        }
    }
}
