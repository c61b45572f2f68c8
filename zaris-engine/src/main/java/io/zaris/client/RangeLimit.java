package io.zaris.client;

/**
 * Which part of a score or member range an operation answers, as Redis's {@code LIMIT offset count}: the members after
 * the first {@code offset} of the range, at most {@code count} of them. {@link #ALL} answers the whole range.
 *
 * @param offset members of the range skipped, 0 or more
 * @param count  members answered at most, 0 or more; {@link #NO_COUNT} for every member after the offset
 */
public record RangeLimit(long offset, long count) {

    /** The {@code count} of a limit that answers every member after its offset (Redis's negative count). */
    public static final long NO_COUNT = -1;

    /** The whole range. */
    public static final RangeLimit ALL = new RangeLimit(0, NO_COUNT);

    public RangeLimit {
        if (offset < 0) {
            throw new IllegalArgumentException("a range's offset is 0 or more, not " + offset);
        }
        if (count < 0 && count != NO_COUNT) {
            throw new IllegalArgumentException("a range's count is 0 or more (or RangeLimit.NO_COUNT), not " + count);
        }
    }

    /** At most {@code count} members after the first {@code offset}. */
    public static RangeLimit of(long offset, long count) {
        return new RangeLimit(offset, count);
    }
}
