package io.zaris.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The operations on a hash, a set or a sorted set (and {@link #TYPE}, which asks any key its type) that the {@code HASH_READ} and
 * {@code HASH_WRITE} frames carry; the set operations (SADD and after) came with the hashes in protocol version 4. Arguments are raw bytes; numbers among them are decimal text, as Redis takes
 * them. The wire code of each constant is part of the protocol and must never change.
 *
 * <table>
 *   <caption>Arguments and answers</caption>
 *   <tr><th>op</th><th>arguments</th><th>answer (count · items)</th></tr>
 *   <tr><td>TYPE</td><td>none</td><td>TTL left in ms (0 = none) · [type: none, string, hash, set or list]</td></tr>
 *   <tr><td>HSET</td><td>(field, value)+</td><td>fields added · none</td></tr>
 *   <tr><td>HSETNX</td><td>field, value</td><td>1 when set, 0 when the field existed · none</td></tr>
 *   <tr><td>HMGET</td><td>field+</td><td>0 · each field's value or absent</td></tr>
 *   <tr><td>HDEL</td><td>field+</td><td>fields removed · none</td></tr>
 *   <tr><td>HGETALL</td><td>none</td><td>0 · field, value, field, value …</td></tr>
 *   <tr><td>HKEYS</td><td>none</td><td>0 · fields</td></tr>
 *   <tr><td>HVALS</td><td>none</td><td>0 · values</td></tr>
 *   <tr><td>HLEN</td><td>none</td><td>number of fields · none</td></tr>
 *   <tr><td>HINCRBY</td><td>field, delta</td><td>the new value · none</td></tr>
 *   <tr><td>HINCRBYFLOAT</td><td>field, delta</td><td>0 · [the new value as text]</td></tr>
 *   <tr><td>SADD</td><td>member+</td><td>members added · none</td></tr>
 *   <tr><td>SREM</td><td>member+</td><td>members removed · none</td></tr>
 *   <tr><td>SMEMBERS</td><td>none</td><td>0 · members</td></tr>
 *   <tr><td>SMISMEMBER</td><td>member+</td><td>0 · each member itself when present, else absent</td></tr>
 *   <tr><td>SCARD</td><td>none</td><td>number of members · none</td></tr>
 *   <tr><td>SPOP</td><td>[count ≥ 0]</td><td>0 · the members removed, chosen at random</td></tr>
 *   <tr><td>SSTORE</td><td>member*</td><td>members stored · none (whatever the key held, of any type, is
 *       replaced by a set of the members; none leaves the key absent: the STORE forms of SINTER, SUNION, SDIFF)</td></tr>
 *   <tr><td>RENAME</td><td>destination (of the same slot), NX (1 or 0)</td><td>1 when renamed (or the key is its own
 *       destination), 0 when NX found the destination, −1 without the source · none (the value, of any type, moves with
 *       its expiry)</td></tr>
 *   <tr><td>SET</td><td>conditions (any of N: NX, X: XX, K: KEEPTTL, G: GET), ttl (ms, 0 = none), value</td><td>1
 *       when written, 0 when a condition kept the key · with G, [the string the key held, or absent]; the key, of any
 *       type, becomes a string (K keeps its expiry); with G a key of another type is WRONGTYPE and nothing is written</td></tr>
 *   <tr><td>APPEND</td><td>suffix, the longest string allowed (bytes)</td><td>the string's length after · none (a
 *       missing key becomes the suffix; an existing string keeps its expiry; a key of another type is WRONGTYPE and a
 *       result longer than allowed an error, nothing written)</td></tr>
 *   <tr><td>EXPIRE</td><td>conditions (any of N: NX, X: XX, G: GT, L: LT; or P alone: PERSIST), ttl (ms; ≤ 0
 *       deletes the key)</td><td>1 when the key's expiry changed (or it was deleted), 0 when it is absent or a condition
 *       kept it · none; on a key of any type, the condition judged on its expiry in the same step</td></tr>
 *   <tr><td>DUMP</td><td>none</td><td>0 · [the value as a {@link DumpPayload}], none when absent</td></tr>
 *   <tr><td>RESTORE</td><td>flags (any of R: REPLACE, A: ABSTTL), ttl (ms, 0 = none), payload</td><td>1 when done
 *       (an expiry already past creates nothing), −1 when the key exists without R · none</td></tr>
 *   <tr><td>LPUSH, RPUSH</td><td>element+</td><td>the list's length after · none</td></tr>
 *   <tr><td>LPUSHX, RPUSHX</td><td>element+</td><td>the length after, 0 (nothing pushed) when the key is absent · none</td></tr>
 *   <tr><td>LPOP, RPOP</td><td>[count ≥ 0]</td><td>1 when the key held a list, else 0 · the elements removed</td></tr>
 *   <tr><td>LRANGE</td><td>start, stop</td><td>0 · the elements from start to stop (negative: from the end)</td></tr>
 *   <tr><td>LLEN</td><td>none</td><td>the list's length · none</td></tr>
 *   <tr><td>LINDEX</td><td>index</td><td>0 · [the element or absent]</td></tr>
 *   <tr><td>LSET</td><td>index, element</td><td>0 · none (no such key, index out of range: errors)</td></tr>
 *   <tr><td>LREM</td><td>count, element</td><td>elements removed · none</td></tr>
 *   <tr><td>LTRIM</td><td>start, stop</td><td>0 · none</td></tr>
 *   <tr><td>LMOVE</td><td>destination (of the same slot), LEFT|RIGHT, LEFT|RIGHT</td><td>0 · [the element moved or
 *       absent]</td></tr>
 *   <tr><td>LINSERT</td><td>BEFORE|AFTER, pivot, element</td><td>the length after, −1 without the pivot, 0 without
 *       the key · none</td></tr>
 *   <tr><td>LPOS</td><td>element, rank (≠ 0), count (0 = all, −1 = the first only), maxlen (0 = all)</td><td>0 · the
 *       matching indexes as decimal text</td></tr>
 *   <tr><td>SRANDMEMBER</td><td>count</td><td>0 · up to count distinct members at random; for a negative count,
 *       −count members that may repeat</td></tr>
 *   <tr><td>ZADD</td><td>flags, (score, member)+</td><td>members added (and changed, with C) · with I, [the member's
 *       new score, or absent when a condition kept it]; flags: any of N (NX), X (XX), G (GT), L (LT), C (CH), I (INCR)</td></tr>
 *   <tr><td>ZREM</td><td>member+</td><td>members removed · none</td></tr>
 *   <tr><td>ZMSCORE</td><td>member+</td><td>0 · each member's score, or absent</td></tr>
 *   <tr><td>ZCARD</td><td>none</td><td>number of members · none</td></tr>
 *   <tr><td>ZCOUNT</td><td>min, max (score bounds)</td><td>members within · none</td></tr>
 *   <tr><td>ZRANK</td><td>member, reverse (0 or 1)</td><td>the member's rank · [its score], none when absent</td></tr>
 *   <tr><td>ZRANGE</td><td>by (RANK, SCORE or LEX), reverse (0 or 1), start, stop, offset, limit (−1: all)</td>
 *       <td>0 · member, score, member, score … in the range's order</td></tr>
 *   <tr><td>ZREMRANGE</td><td>by (RANK, SCORE or LEX), start, stop</td><td>members removed · none</td></tr>
 *   <tr><td>ZLEXCOUNT</td><td>min, max (member bounds)</td><td>members within · none</td></tr>
 *   <tr><td>ZPOP</td><td>max (0 or 1), count ≥ 0</td><td>0 · member, score … removed from the lowest (highest) end</td></tr>
 *   <tr><td>SMOVE</td><td>destination (of the same slot), member</td><td>1 when the member was in the source (and is now in
 *       the destination), else 0 · none</td></tr>
 *   <tr><td>HRANDFIELD</td><td>count, withvalues (0 or 1)</td><td>0 · fields (each followed by its value with 1) at
 *       random, Redis's count rule as SRANDMEMBER's</td></tr>
 *   <tr><td>LMPOP</td><td>LEFT|RIGHT, count ≥ 1, more keys*</td><td>0 · [the first key (of the op's key, then the
 *       others) holding a list, the elements popped from it], none when no key holds one</td></tr>
 *   <tr><td>ZRANDMEMBER</td><td>count</td><td>0 · member, score … at random, Redis's count rule as SRANDMEMBER's</td></tr>
 *   <tr><td>ZMPOP</td><td>max (0 or 1), count ≥ 1, more keys*</td><td>0 · [the first key holding a sorted set, then
 *       member, score … popped from it], none when no key holds one</td></tr>
 *   <tr><td>ZCOMBINE</td><td>kind (UNION, INTER, DIFF or TYPES), aggregate (SUM, MIN or MAX), (source key,
 *       weight)+</td><td>0 · member, score … of the result in score order (TYPES: none, after checking every source is a
 *       sorted set, a set or absent); the op's own key only routes</td></tr>
 *   <tr><td>ZCOMBINESTORE</td><td>as ZCOMBINE (not TYPES)</td><td>members stored at the op's key, which loses what it
 *       held (of any type) and any TTL · none</td></tr>
 * </table>
 *
 * <p>Sorted-set scores travel as text, as Redis prints them ({@link SortedSetScores#format}); a score range as Redis
 * writes one ({@link ScoreRange}, {@link LexRange}).
 */
public enum HashOp {
    TYPE(0, false, 0, 0),
    HSET(1, true, 2, Integer.MAX_VALUE),
    HSETNX(2, true, 2, 2),
    HMGET(3, false, 1, Integer.MAX_VALUE),
    HDEL(4, true, 1, Integer.MAX_VALUE),
    HGETALL(5, false, 0, 0),
    HKEYS(6, false, 0, 0),
    HVALS(7, false, 0, 0),
    HLEN(8, false, 0, 0),
    HINCRBY(9, true, 2, 2),
    HINCRBYFLOAT(10, true, 2, 2),
    SADD(11, true, 1, Integer.MAX_VALUE),
    SREM(12, true, 1, Integer.MAX_VALUE),
    SMEMBERS(13, false, 0, 0),
    SMISMEMBER(14, false, 1, Integer.MAX_VALUE),
    SCARD(15, false, 0, 0),
    SPOP(16, true, 0, 1),
    SRANDMEMBER(17, false, 1, 1),
    SSTORE(18, true, 0, Integer.MAX_VALUE),
    SMOVE(19, true, 2, 2),
    HRANDFIELD(20, false, 2, 2),
    APPEND(26, true, 2, 2),
    SET(27, true, 3, 3),
    RENAME(28, true, 2, 2),
    DUMP(29, false, 0, 0),
    RESTORE(30, true, 3, 3),
    EXPIRE(31, true, 2, 2),
    LPUSH(32, true, 1, Integer.MAX_VALUE),
    RPUSH(33, true, 1, Integer.MAX_VALUE),
    LPUSHX(34, true, 1, Integer.MAX_VALUE),
    RPUSHX(35, true, 1, Integer.MAX_VALUE),
    LPOP(36, true, 0, 1),
    RPOP(37, true, 0, 1),
    LRANGE(38, false, 2, 2),
    LLEN(39, false, 0, 0),
    LINDEX(40, false, 1, 1),
    LSET(41, true, 2, 2),
    LREM(42, true, 2, 2),
    LTRIM(43, true, 2, 2),
    LMOVE(44, true, 3, 3),
    LINSERT(45, true, 3, 3),
    LPOS(46, false, 4, 4),
    LMPOP(47, true, 2, Integer.MAX_VALUE),
    ZADD(64, true, 3, Integer.MAX_VALUE),
    ZREM(65, true, 1, Integer.MAX_VALUE),
    ZMSCORE(66, false, 1, Integer.MAX_VALUE),
    ZCARD(67, false, 0, 0),
    ZCOUNT(68, false, 2, 2),
    ZRANK(69, false, 2, 2),
    ZRANGE(70, false, 6, 6),
    ZREMRANGE(71, true, 3, 3),
    ZPOP(72, true, 2, 2),
    ZLEXCOUNT(73, false, 2, 2),
    ZRANDMEMBER(74, false, 1, 1),
    ZMPOP(75, true, 2, Integer.MAX_VALUE),
    ZCOMBINE(76, false, 4, Integer.MAX_VALUE),
    ZCOMBINESTORE(77, true, 4, Integer.MAX_VALUE);

    /**
     * Wire code → op. Codes are reserved by family so types can be added side by side without renumbering:
     * 0–25 the type probe, hashes and sets; 26–31 whole keys of any type (and APPEND, a string's); 32–63 lists;
     * 64–127 sorted sets.
     */
    private static final HashOp[] BY_CODE = new HashOp[128];

    static {
        for (HashOp op : values()) {
            if (BY_CODE[op.code] != null) {
                throw new IllegalStateException("two ops share wire code " + op.code);
            }
            BY_CODE[op.code] = op;
        }
    }

    private final int code;
    private final boolean write;
    private final int minArgs;
    private final int maxArgs;

    HashOp(int code, boolean write, int minArgs, int maxArgs) {
        this.code = code;
        this.write = write;
        this.minArgs = minArgs;
        this.maxArgs = maxArgs;
    }

    public int code() {
        return code;
    }

    /** Whether the operation may change the hash (so only the active owner serves it). */
    public boolean isWrite() {
        return write;
    }

    /** Whether {@code count} arguments fit the operation (HSET takes pairs). */
    public boolean takes(int count) {
        return count >= minArgs && count <= maxArgs && (this != HSET || count % 2 == 0) && (this != ZADD || count % 2 == 1)
                && (!combinesSortedSets() || count % 2 == 0);
    }

    /**
     * Whether argument {@code index} names a field, which is bounded like a key (a field travels beside its key in a
     * replicated change), rather than a value or a number.
     */
    public boolean isFieldArgument(int index) {
        return switch (this) {
            case HSET -> index % 2 == 0;
            case HSETNX, HINCRBY, HINCRBYFLOAT -> index == 0;
            case HMGET, HDEL, SADD, SREM, SMISMEMBER, SSTORE, ZREM, ZMSCORE -> true;
            case ZADD -> index > 0 && index % 2 == 0;
            case ZRANK -> index == 0;
            case LMOVE, RENAME -> index == 0; // the destination key
            case SMOVE -> true; // the destination key and the member
            case LMPOP, ZMPOP -> index >= 2; // the keys after the first
            case ZCOMBINE, ZCOMBINESTORE -> index >= 2 && index % 2 == 0; // the source keys
            default -> false;
        };
    }

    /**
     * The keys besides the op's own that it reads or writes, all of which must share the op's segment: LMOVE's,
     * RENAME's and SMOVE's destination, LMPOP's and ZMPOP's further keys, ZCOMBINE's and ZCOMBINESTORE's sources; none
     * for the other ops. {@code args} has been checked by {@link #takes}.
     */
    public List<byte[]> otherKeys(List<byte[]> args) {
        return switch (this) {
            case LMOVE, RENAME, SMOVE -> List.of(args.get(0));
            case LMPOP, ZMPOP -> args.subList(2, args.size());
            case ZCOMBINE, ZCOMBINESTORE -> {
                List<byte[]> sources = new ArrayList<>(args.size() / 2);
                for (int i = 2; i < args.size(); i += 2) {
                    sources.add(args.get(i));
                }
                yield sources;
            }
            default -> List.of();
        };
    }

    /** Whether a successful call may add data (so it is admitted by the memory guard first). */
    public boolean addsData() {
        return this == HSET || this == HSETNX || this == HINCRBY || this == HINCRBYFLOAT || this == SADD || this == SSTORE
                || this == LPUSH || this == RPUSH || this == LPUSHX || this == RPUSHX || this == LSET || this == LINSERT
                || this == ZADD || this == RESTORE || this == SMOVE || this == ZCOMBINESTORE || this == SET || this == APPEND;
    }

    /**
     * Whether the operation reads or writes several keys of one segment (SMOVE, LMPOP, ZMPOP, ZCOMBINE,
     * ZCOMBINESTORE) or picks at random (HRANDFIELD, ZRANDMEMBER): these came after their families and are served
     * apart from them.
     */
    public boolean onSeveralKeysOrRandom() {
        return this == SMOVE || this == HRANDFIELD || this == LMPOP || this == ZRANDMEMBER || this == ZMPOP
                || combinesSortedSets();
    }

    /** ZCOMBINE and ZCOMBINESTORE: kind, aggregate, then (source key, weight) pairs. */
    public boolean combinesSortedSets() {
        return this == ZCOMBINE || this == ZCOMBINESTORE;
    }

    /**
     * Whether the operation takes a whole key (codes 26–31): APPEND, SET, RENAME, DUMP, RESTORE, EXPIRE, each on a key
     * of any type (APPEND meets a collection with WRONGTYPE).
     */
    public boolean onWholeKey() {
        return code >= 26 && code <= 31;
    }

    /** Whether the operation works on a set (and meets a hash or string with WRONGTYPE). */
    public boolean onSet() {
        return code >= SADD.code && code <= SSTORE.code;
    }

    /** Whether the operation works on a list (codes 32–63; it meets any other type with WRONGTYPE). */
    public boolean onList() {
        return code >= 32 && code <= 63;
    }

    /** Whether the operation works on a sorted set (and meets any other type with WRONGTYPE). */
    public boolean onSortedSet() {
        return code >= 64 && code < 128;
    }

    /** Decodes a wire code; {@code null} for codes this version does not know. */
    public static HashOp fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
