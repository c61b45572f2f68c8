package io.zaris.resp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One reply value of the Redis serialization protocol, independent of the protocol version it is written
 * in: {@link RespWriter} renders maps, sets and nulls as RESP3 types on a connection that said
 * {@code HELLO 3} and as their RESP2 equivalents otherwise. Immutable.
 */
sealed interface RespReply {

    RespReply OK = new Simple("OK");
    RespReply NULL = new Null();
    /** The null array ({@code *-1} in RESP2), which Redis answers e.g. for LPOP with a count on a missing key. */
    RespReply NULL_ARRAY = new NullArray();
    RespReply ZERO = new Int(0);
    RespReply ONE = new Int(1);

    /** {@code +text}: text must not contain CR or LF. */
    record Simple(String text) implements RespReply {
    }

    /** {@code -CODE message}: the first word is the error code clients match on (ERR, MOVED, TRYAGAIN…). */
    record Error(String text) implements RespReply {
        public Error {
            text = text.replace('\r', ' ').replace('\n', ' ');
        }
    }

    record Int(long value) implements RespReply {
    }

    /** A binary-safe string; never null (see {@link Null}). */
    record Bulk(byte[] bytes) implements RespReply {
    }

    /**
     * A bulk string whose bytes are the readable bytes of {@code bytes}: a GET's value, sliced out of the engine's
     * response instead of copied into an array (with 10 KiB values that copy and its garbage were a visible share of
     * a GET's cost). The buffer is a heap buffer nobody releases ({@link RespBackend#execute}'s payload, often the
     * response buffer the connection lent the command, {@link LentResponseBuffer}, which it reuses once the reply is
     * written); the reply is written once, without moving the slice's indices.
     */
    record BufferBulk(ByteBuf bytes) implements RespReply {
    }

    /** No value: RESP2 {@code $-1} (the null bulk string), RESP3 {@code _}. */
    record Null() implements RespReply {
    }

    /** {@code *-1} in RESP2, {@code _} in RESP3. */
    record NullArray() implements RespReply {
    }

    record Array(List<RespReply> items) implements RespReply {
        public Array {
            items = List.copyOf(items);
        }
    }

    /** Items whose order carries no meaning: a RESP3 set ({@code ~}), an array in RESP2. */
    record SetReply(List<RespReply> items) implements RespReply {
        public SetReply {
            items = List.copyOf(items);
        }
    }

    /** Key/value pairs in order: a RESP3 map, a flat array in RESP2. */
    record MapReply(List<RespReply> keysAndValues) implements RespReply {
        public MapReply {
            if (keysAndValues.size() % 2 != 0) {
                throw new IllegalArgumentException("a map needs an even number of items");
            }
            keysAndValues = List.copyOf(keysAndValues);
        }
    }

    /** A sorted-set score as Redis prints it ({@code 1.5}, {@code inf}): a bulk string in RESP2, a double in RESP3. */
    record Score(byte[] text) implements RespReply {
    }

    /**
     * Member, score, member, score …: a flat array in RESP2, an array of [member, score] pairs in RESP3, as Redis
     * answers ZRANGE … WITHSCORES.
     */
    record Pairs(List<RespReply> flat) implements RespReply {
        public Pairs {
            if (flat.size() % 2 != 0) {
                throw new IllegalArgumentException("pairs need an even number of items");
            }
            flat = List.copyOf(flat);
        }
    }

    /**
     * ZRANGE's answer written straight from the engine's response: {@code items} holds member, score, member, score …
     * as the engine wrote them ({@link io.zaris.protocol.ResponseCodec#readPresentItems}, checked), {@code pairs} of
     * them. With {@code withScores} it is written as {@link Pairs} of a {@link Bulk} member and a {@link Score} are,
     * else as an array of the members' bulks. No array per member or score and no reply object per item. The buffer is
     * a heap buffer nobody releases (or a lent one), as {@link BufferBulk}'s; writing it reads by index and moves nothing.
     */
    record ItemPairs(ByteBuf items, int pairs, boolean withScores) implements RespReply {

        static ItemPairs of(ByteBuf body, boolean withScores) throws io.zaris.protocol.MalformedRequestException {
            int n = io.zaris.protocol.ResponseCodec.readItemCount(body);
            return new ItemPairs(io.zaris.protocol.ResponseCodec.readPresentItems(body, n - n % 2), n / 2, withScores);
        }
    }

    /**
     * An out-of-band message (RESP3 {@code >}), sent on a connection outside its command flow: the first item names
     * the kind ({@code invalidate}, later pub/sub's {@code message}). Written as an array on a RESP2 connection.
     */
    record Push(List<RespReply> items) implements RespReply {
        public Push {
            if (items.isEmpty()) {
                throw new IllegalArgumentException("a push needs at least its kind");
            }
            items = List.copyOf(items);
        }
    }

    /**
     * Several top-level replies answering one command, written one after the other: Redis answers
     * {@code SUBSCRIBE a b} with one confirmation per channel. Each is a {@link Push} or a plain reply.
     */
    record Frames(List<RespReply> replies) implements RespReply {
        public Frames {
            if (replies.isEmpty()) {
                throw new IllegalArgumentException("frames need at least one reply");
            }
            replies = List.copyOf(replies);
        }
    }

    /** A reply after which the connection is closed (QUIT). */
    record ThenClose(RespReply reply) implements RespReply {
    }

    static RespReply bulk(String text) {
        return new Bulk(text.getBytes(StandardCharsets.UTF_8));
    }

    static RespReply bulkOrNull(byte[] bytes) {
        return bytes == null ? NULL : new Bulk(bytes);
    }

    static RespReply error(String text) {
        return new Error(text);
    }

    static RespReply integer(long value) {
        return value == 0 ? ZERO : value == 1 ? ONE : new Int(value);
    }

    static RespReply array(List<RespReply> items) {
        return new Array(items);
    }

    static RespReply map(List<RespReply> keysAndValues) {
        return new MapReply(keysAndValues);
    }
}
