package io.zaris.store;

import io.zaris.model.DumpPayload;
import io.zaris.model.HashOp;
import io.zaris.model.KeyContent;
import io.zaris.model.KvStatus;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * What the whole-key {@link HashOp}s (RENAME, DUMP, RESTORE) do to one segment, with Redis's answers and errors and
 * in Redis's order of checks. A write decides and changes under one hold of the segment's lock
 * ({@link Segment#writeKeys}), so a RENAME or a RESTORE ... REPLACE is atomic like Redis's; DUMP reads under it
 * ({@link Segment#contentOf}). Stateless.
 */
final class KeyCommands {

    static final String BAD_TTL_INTEGER = "value is not an integer or out of range";
    static final String NEGATIVE_TTL = "Invalid TTL value, must be >= 0";
    static final String BAD_TRAILER = "DUMP payload version or checksum are wrong";
    static final String BAD_FORMAT = "Bad data format";

    private KeyCommands() {
    }

    static HashReply execute(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now) {
        return switch (op) {
            case DUMP -> {
                KeyContent content = segment.contentOf(key, now);
                yield HashReply.read(0, content == null ? List.of() : List.of(DumpPayload.encode(content)));
            }
            case RENAME -> answer(segment.writeKeys(epoch, now, writer -> rename(writer, key, args)));
            case RESTORE -> answer(segment.writeKeys(epoch, now, writer -> restore(writer, key, args, now)));
            default -> throw new IllegalArgumentException(op + " is not a whole-key op");
        };
    }

    /** RENAME and RENAMENX: the source's value and expiry move to the destination, which loses what it held. */
    private static HashReply rename(Segment.KeyWriter writer, byte[] source, List<byte[]> args) {
        byte[] destination = args.get(0);
        boolean nx = text(args.get(1)).equals("1");
        Segment.HeldValue held = writer.held(source);
        if (held == null) {
            return HashReply.counted(-1);
        }
        if (Arrays.equals(source, destination)) {
            return HashReply.counted(nx ? 0 : 1); // Redis: nothing to do, OK (RENAMENX: 0)
        }
        if (nx && writer.exists(destination)) {
            return HashReply.counted(0);
        }
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
