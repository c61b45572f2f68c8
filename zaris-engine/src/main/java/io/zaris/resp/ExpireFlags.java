package io.zaris.resp;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The NX / XX / GT / LT options of {@code EXPIRE}, {@code PEXPIRE}, {@code EXPIREAT} and {@code PEXPIREAT}, with
 * Redis's rules: any combination except NX with another option and GT with LT; repeating one is harmless.
 * A key without a TTL counts as an infinite TTL, so GT never applies to it and LT always does (the key's owner
 * judges that, in the same step as the write).
 */
record ExpireFlags(boolean nx, boolean xx, boolean gt, boolean lt) {

    static final ExpireFlags NONE = new ExpireFlags(false, false, false, false);

    /** The parsed options, or the error Redis answers for them. */
    record Parsed(ExpireFlags flags, RespReply error) {
    }

    /** Parses the arguments after the key and the time, checking every option before their combination (as Redis does). */
    static Parsed parse(List<byte[]> options) {
        boolean nx = false;
        boolean xx = false;
        boolean gt = false;
        boolean lt = false;
        for (byte[] option : options) {
            switch (new String(option, StandardCharsets.UTF_8).toUpperCase(Locale.ROOT)) {
                case "NX" -> nx = true;
                case "XX" -> xx = true;
                case "GT" -> gt = true;
                case "LT" -> lt = true;
                default -> {
                    return new Parsed(null, RespReply.error("ERR Unsupported option " + new String(option, StandardCharsets.UTF_8)));
                }
            }
        }
        if (nx && (xx || gt || lt)) {
            return new Parsed(null, RespReply.error("ERR NX and XX, GT or LT options at the same time are not compatible"));
        }
        if (gt && lt) {
            return new Parsed(null, RespReply.error("ERR GT and LT options at the same time are not compatible"));
        }
        return new Parsed(new ExpireFlags(nx, xx, gt, lt), null);
    }

    boolean isEmpty() {
        return !nx && !xx && !gt && !lt;
    }

    /**
     * The conditions as the engine's {@code EXPIRE} op takes them (N: NX, X: XX, G: GT, L: LT), judged there on the
     * key's expiry in the same step as the write.
     */
    String wire() {
        return (nx ? "N" : "") + (xx ? "X" : "") + (gt ? "G" : "") + (lt ? "L" : "");
    }
}
