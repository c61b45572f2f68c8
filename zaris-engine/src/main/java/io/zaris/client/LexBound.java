package io.zaris.client;

import java.nio.charset.StandardCharsets;

/**
 * One end of a member interval of a sorted set, as ZRANGEBYLEX, ZLEXCOUNT and ZREMRANGEBYLEX take it: a member that is
 * itself inside ({@link #inclusive}, Redis's {@code [}), outside ({@link #exclusive}, Redis's {@code (}), or no bound
 * on that side ({@link #unbounded}, Redis's {@code -} as a lower end and {@code +} as an upper one). Members compare as
 * their UTF-8 bytes, unsigned, as Redis's memcmp; such ranges are meant for a sorted set whose members all share one
 * score. Immutable.
 */
public final class LexBound {

    private static final LexBound UNBOUNDED = new LexBound(null, false);

    private final String member;
    private final boolean exclusive;

    private LexBound(String member, boolean exclusive) {
        this.member = member;
        this.exclusive = exclusive;
    }

    /** The interval includes {@code member}. */
    public static LexBound inclusive(String member) {
        return new LexBound(requireMember(member), false);
    }

    /** The interval ends just short of {@code member}. */
    public static LexBound exclusive(String member) {
        return new LexBound(requireMember(member), true);
    }

    /** No bound on this side. */
    public static LexBound unbounded() {
        return UNBOUNDED;
    }

    private static String requireMember(String member) {
        if (member == null) {
            throw new IllegalArgumentException("a member bound must not be null; use LexBound.unbounded()");
        }
        return member;
    }

    /** This bound as Redis writes it, as the lower ({@code lower}) or the upper end of an interval. */
    byte[] encode(boolean lower) {
        if (member == null) {
            return new byte[] {(byte) (lower ? '-' : '+')};
        }
        byte[] name = member.getBytes(StandardCharsets.UTF_8);
        byte[] text = new byte[name.length + 1];
        text[0] = (byte) (exclusive ? '(' : '[');
        System.arraycopy(name, 0, text, 1, name.length);
        return text;
    }

    @Override
    public String toString() {
        return member == null ? "unbounded" : (exclusive ? "(" : "[") + member;
    }
}
