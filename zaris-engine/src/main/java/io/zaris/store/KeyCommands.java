package io.zaris.store;

import io.zaris.model.DumpPayload;
import io.zaris.model.HashOp;
import io.zaris.model.KeyContent;
import io.zaris.model.KvStatus;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * What the whole-key {@link HashOp}s (APPEND, SET, RENAME, DUMP, RESTORE, EXPIRE) do to one segment, with Redis's answers and errors and
 * in Redis's order of checks. A write decides and changes under one hold of the segment's lock
 * ({@link Segment#writeKeys}), so a RENAME, a RESTORE ... REPLACE, a SET ... NX/XX/KEEPTTL/GET, a conditional
 * EXPIRE or an APPEND is atomic like Redis's; DUMP reads under it
 * ({@link Segment#contentOf}). Stateless.
 */
final class KeyCommands {

    static final String BAD_TTL_INTEGER = "value is not an integer or out of range";
    static final String NEGATIVE_TTL = "Invalid TTL value, must be >= 0";
    static final String BAD_TRAILER = "DUMP payload version or checksum are wrong";
    static final String BAD_FORMAT = "Bad data format";
    /** Redis's answer to an APPEND past its longest string. */
    static final String TOO_LONG = "string exceeds maximum allowed size (proto-max-bulk-len)";
    private static final byte[] EMPTY = new byte[0];

    private KeyCommands() {
    }

    /** @param renameChanges whether a RENAME ships one rename change, or the removals and writes it makes */
    static HashReply execute(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now,
                             boolean renameChanges) {
        return switch (op) {
            case DUMP -> {
                KeyContent content = segment.contentOf(key, now);
                yield HashReply.read(0, content == null ? List.of() : List.of(DumpPayload.encode(content)));
            }
            case RENAME -> answer(segment.writeKeys(epoch, now, writer -> rename(writer, key, args, renameChanges)));
            case RESTORE -> answer(segment.writeKeys(epoch, now, writer -> restore(writer, key, args, now)));
            case SET -> answer(segment.writeKeys(epoch, now, writer -> set(writer, key, args, now)));
            case EXPIRE -> answer(segment.writeKeys(epoch, now, writer -> expire(writer, key, args, now)));
            case APPEND -> answer(segment.writeKeys(epoch, now, writer -> append(writer, key, args)));
            default -> throw new IllegalArgumentException(op + " is not a whole-key op");
        };
    }

    /**
     * RENAME and RENAMENX: the source's value and expiry move to the destination, which loses what it held. With
     * {@code renameChanges} the value moves as it is, in O(1) for a collection, and ships as one rename change;
     * otherwise (a replica of protocol version 3 is linked) as the removal of both keys and the destination's writes.
     */
    private static HashReply rename(Segment.KeyWriter writer, byte[] source, List<byte[]> args, boolean renameChanges) {
        byte[] destination = args.get(0);
        boolean nx = text(args.get(1)).equals("1");
        StoredEntry live = writer.entry(source);
        if (live == null) {
            return HashReply.counted(-1);
        }
        if (Arrays.equals(source, destination)) {
            return HashReply.counted(nx ? 0 : 1); // Redis: nothing to do, OK (RENAMENX: 0)
        }
        if (nx && writer.exists(destination)) {
            return HashReply.counted(0);
        }
        if (renameChanges) {
            writer.rename(source, destination, live.expiresAtMillis());
            return HashReply.counted(1);
        }
        Segment.HeldValue held = writer.held(source);
        writer.remove(destination);
        writer.remove(source);
        writer.install(destination, held.content(), held.expiresAt());
        return HashReply.counted(1);
    }

    /**
     * RESTORE, checking what Redis checks in its order: the key's absence (without REPLACE), the TTL, the payload's
     * trailer, then its body. An expiry already past creates nothing (REPLACE still removes the old value).
     */
    private static HashReply restore(Segment.KeyWriter writer, byte[] key, List<byte[]> args, long now) {
        String flags = text(args.get(0));
        boolean replace = flags.contains("R");
        boolean absolute = flags.contains("A");
        if (!replace && writer.exists(key)) {
            return HashReply.counted(-1);
        }
        Long ttl = DecimalCounter.parse(args.get(1));
        if (ttl == null) {
            return HashReply.error(KvStatus.BAD_REQUEST, BAD_TTL_INTEGER);
        }
        if (ttl < 0) {
            return HashReply.error(KvStatus.BAD_REQUEST, NEGATIVE_TTL);
        }
        KeyContent content;
        try {
            content = DumpPayload.decode(args.get(2));
        } catch (DumpPayload.InvalidPayloadException e) {
            return HashReply.error(KvStatus.BAD_REQUEST, e.trailer() ? BAD_TRAILER : BAD_FORMAT);
        }
        writer.remove(key);
        long expiresAt = ttl == 0 ? 0 : absolute ? ttl : saturatedSum(now, ttl);
        if (expiresAt != 0 && expiresAt <= now) {
            return HashReply.counted(1);
        }
        writer.install(key, content, expiresAt);
        return HashReply.counted(1);
    }

    /**
     * SET with NX, XX, KEEPTTL or GET, on a key of any type, deciding and writing in one step as Redis does: GET
     * first refuses a key of another type, then NX and XX judge the key as it is, and KEEPTTL keeps whatever expiry
     * it had (a hash's too). The new value replaces the key whatever it held.
     */
    private static HashReply set(Segment.KeyWriter writer, byte[] key, List<byte[]> args, long now) {
        String conditions = text(args.get(0));
        Long ttl = DecimalCounter.parse(args.get(1));
        if (ttl == null || ttl < 0) {
            return HashReply.error(KvStatus.BAD_REQUEST, BAD_TTL_INTEGER);
        }
        boolean returnOld = conditions.indexOf('G') >= 0;
        StoredEntry current = writer.entry(key);
        if (returnOld && current != null && current.isHash()) {
            throw new WrongTypeException();
        }
        boolean written = setAllowed(conditions, current != null);
        if (written) {
            long expiresAt = conditions.indexOf('K') >= 0 ? (current == null ? 0 : current.expiresAtMillis())
                    : ttl == 0 ? 0 : saturatedSum(now, ttl);
            byte[] old = returnOld && current != null ? current.value() : null; // before the write replaces it
            writer.putString(key, args.get(2), expiresAt);
            return HashReply.read(1, returnOld ? Collections.singletonList(old) : List.of());
        }
        return HashReply.read(0, returnOld ? Collections.singletonList(current == null ? null : current.value()) : List.of());
    }

    /**
     * APPEND in one step, as Redis does: the suffix joins the string at the key (a missing key becomes the suffix) and
     * the string keeps its expiry to the millisecond, read and written under one hold of the segment's lock. A key of
     * another type is WRONGTYPE; a result longer than the allowed length is refused, nothing written.
     */
    private static HashReply append(Segment.KeyWriter writer, byte[] key, List<byte[]> args) {
        byte[] suffix = args.get(0);
        Long longest = DecimalCounter.parse(args.get(1));
        if (longest == null || longest < 0) {
            return HashReply.error(KvStatus.BAD_REQUEST, "APPEND needs a length limit >= 0");
        }
        StoredEntry current = writer.entry(key);
        if (current != null && current.isHash()) {
            throw new WrongTypeException();
        }
        byte[] base = current == null ? EMPTY : current.value();
        long length = (long) base.length + suffix.length;
        if (length > longest) {
            return HashReply.error(KvStatus.BAD_REQUEST, TOO_LONG);
        }
        byte[] joined = Arrays.copyOf(base, (int) length);
        System.arraycopy(suffix, 0, joined, base.length, suffix.length);
        writer.putString(key, joined, current == null ? 0 : current.expiresAtMillis());
        return HashReply.counted(length);
    }

    /** Whether SET's NX (N) and XX (X) let it write a key that {@code exists} or not. */
    static boolean setAllowed(String conditions, boolean exists) {
        return !(conditions.indexOf('N') >= 0 && exists) && !(conditions.indexOf('X') >= 0 && !exists);
    }

    /**
     * EXPIRE with NX, XX, GT or LT, and PERSIST (P), on a key of any type: the condition judges the key's expiry and
     * the new one is set in the same step, as Redis does. A TTL of 0 or less that the condition lets through deletes
     * the key.
     */
    private static HashReply expire(Segment.KeyWriter writer, byte[] key, List<byte[]> args, long now) {
        String conditions = text(args.get(0));
        Long ttl = DecimalCounter.parse(args.get(1));
        if (ttl == null) {
            return HashReply.error(KvStatus.BAD_REQUEST, BAD_TTL_INTEGER);
        }
        StoredEntry current = writer.entry(key);
        if (current == null) {
            return HashReply.counted(0);
        }
        long remaining = current.expiresAtMillis() == 0 ? 0 : Math.max(1, current.expiresAtMillis() - now);
        if (conditions.equals("P")) {
            if (remaining == 0) {
                return HashReply.counted(0);
            }
            writer.expire(key, current, 0);
            return HashReply.counted(1);
        }
        if (!expiryAllowed(conditions, remaining, ttl)) {
            return HashReply.counted(0);
        }
        if (ttl <= 0) {
            writer.remove(key);
        } else {
            writer.expire(key, current, saturatedSum(now, ttl));
        }
        return HashReply.counted(1);
    }

    /**
     * Whether a key whose remaining TTL is {@code currentTtl} ms (0 = none) gets {@code newTtl} under EXPIRE's
     * conditions (N: NX, X: XX, G: GT, L: LT), every given one agreeing. As in Redis, a key without a TTL counts as
     * one of infinite length: GT never applies to it and LT always does.
     */
    static boolean expiryAllowed(String conditions, long currentTtl, long newTtl) {
        boolean hasTtl = currentTtl != 0;
        if (conditions.indexOf('N') >= 0 && hasTtl || conditions.indexOf('X') >= 0 && !hasTtl) {
            return false;
        }
        if (conditions.indexOf('G') >= 0 && (!hasTtl || newTtl <= currentTtl)) {
            return false;
        }
        return !(conditions.indexOf('L') >= 0 && hasTtl && newTtl >= currentTtl);
    }

    private static HashReply answer(HashWriteResult<HashReply> result) {
        if (result.status() != KvStatus.OK) {
            return HashReply.error(result.status(), "the partition was just taken over by another node");
        }
        HashReply reply = result.result();
        return new HashReply(reply.status(), reply.count(), reply.items(), reply.error(), result.version(),
                result.replicated());
    }

    private static long saturatedSum(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
