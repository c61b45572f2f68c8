package io.zaris.store;

import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What each list {@link HashOp} (codes 32–63) does to one segment's lists, with Redis's answers and errors. Reads
 * run under the segment's lock ({@link Segment#readList}); writes decide and change under one hold of it
 * ({@link Segment#writeList}), so an LMOVE or LREM is atomic like Redis's. Every write turns into absolute-position
 * changes (an insert, a removed run, a set) that a replica at the same revision replays to the same list. Stateless.
 */
final class ListCommands {

    static final String BAD_INTEGER = "value is not an integer or out of range";
    static final String NOT_POSITIVE = "value is out of range, must be positive";
    static final String NO_SUCH_KEY = "no such key";
    static final String OUT_OF_RANGE = "index out of range";
    static final String SYNTAX = "syntax error";

    private ListCommands() {
    }

    /** Runs a list op; the caller has checked the argument count. */
    static HashReply execute(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now) {
        return op.isWrite() ? write(segment, key, op, args, epoch, now) : read(segment, key, op, args, now);
    }

    // ------------------------------------------------------------------ reads

    private static HashReply read(Segment segment, byte[] key, HashOp op, List<byte[]> args, long now) {
        return switch (op) {
            case LLEN -> segment.readList(key, now, list -> HashReply.counted(list == null ? 0 : list.size()));
            case LRANGE -> {
                Long start = DecimalCounter.parse(args.get(0));
                Long stop = DecimalCounter.parse(args.get(1));
                if (start == null || stop == null) {
                    yield HashReply.error(KvStatus.BAD_REQUEST, BAD_INTEGER);
                }
                yield segment.readList(key, now, list -> {
                    int[] range = list == null ? null : range(start, stop, list.size());
                    return HashReply.read(0, range == null ? List.of() : list.range(range[0], range[1]));
                });
            }
            case LINDEX -> segment.readList(key, now, list -> { // Redis looks at the key before the index
                if (list == null) {
                    return HashReply.read(0, Collections.singletonList(null));
                }
                Long index = DecimalCounter.parse(args.get(0));
                if (index == null) {
                    return HashReply.error(KvStatus.BAD_REQUEST, BAD_INTEGER);
                }
                int at = index(index, list.size());
                return HashReply.read(0, Collections.singletonList(at < 0 ? null : list.get(at)));
            });
            case LPOS -> position(segment, key, args, now);
            default -> throw new IllegalArgumentException(op + " is not a list read");
        };
    }

    /**
     * LPOS: the indexes of {@code element}, scanning from the head (rank &gt; 0) or the tail (rank &lt; 0), skipping
     * |rank| − 1 matches, at most {@code count} of them (0: all; −1: the first only), comparing at most {@code maxlen}
     * elements (0: all). The RESP layer has checked the options as Redis does.
     */
    private static HashReply position(Segment segment, byte[] key, List<byte[]> args, long now) {
        byte[] element = args.get(0);
        Long rank = DecimalCounter.parse(args.get(1));
        Long count = DecimalCounter.parse(args.get(2));
        Long maxlen = DecimalCounter.parse(args.get(3));
        if (rank == null || rank == 0 || rank == Long.MIN_VALUE || count == null || count < -1 || maxlen == null
                || maxlen < 0) {
            return HashReply.error(KvStatus.BAD_REQUEST, "LPOS takes a non-zero rank, a count of -1 or more and a"
                    + " maxlen of 0 or more");
        }
        return segment.readList(key, now, list -> {
            List<byte[]> found = new ArrayList<>();
            if (list == null) {
                return HashReply.read(0, found);
            }
            long wanted = count == -1 ? 1 : count == 0 ? Long.MAX_VALUE : count;
            long skip = Math.abs(rank) - 1;
            int size = list.size();
            long compared = 0;
            for (int step = 0; step < size && found.size() < wanted && (maxlen == 0 || compared < maxlen); step++) {
                int at = rank > 0 ? step : size - 1 - step;
                compared++;
                if (java.util.Arrays.equals(list.get(at), element)) {
                    if (skip > 0) {
                        skip--;
                    } else {
                        found.add(Integer.toString(at).getBytes(StandardCharsets.US_ASCII));
                    }
                }
            }
            return HashReply.read(0, found);
        });
    }

    // ------------------------------------------------------------------ writes

    private static HashReply write(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now) {
        // Redis checks numbers and keywords before it looks at the key.
        HashReply refused = checkArguments(op, args);
        if (refused != null) {
            return refused;
        }
        HashWriteResult<HashReply> result = segment.writeList(epoch, now, writer -> switch (op) {
            case LPUSH, RPUSH, LPUSHX, RPUSHX -> push(writer, key, op, args);
            case LPOP, RPOP -> pop(writer, key, op == HashOp.LPOP, args.isEmpty() ? null : DecimalCounter.parse(args.get(0)));
            case LSET -> set(writer, key, args.get(0), args.get(1));
            case LREM -> removeMatching(writer, key, DecimalCounter.parse(args.get(0)), args.get(1));
            case LTRIM -> trim(writer, key, DecimalCounter.parse(args.get(0)), DecimalCounter.parse(args.get(1)));
            case LMOVE -> move(writer, key, args.get(0), isLeft(args.get(1)), isLeft(args.get(2)));
            case LINSERT -> insert(writer, key, isBefore(args.get(0)), args.get(1), args.get(2));
            default -> throw new IllegalArgumentException(op + " is not a list write");
        });
        if (result.status() != KvStatus.OK) {
            return HashReply.error(result.status(), "the partition was just taken over by another node");
        }
        HashReply reply = result.result();
        return new HashReply(reply.status(), reply.count(), reply.items(), reply.error(), result.version(),
                result.replicated());
    }

    /** The error for arguments Redis refuses before it looks at the key, or {@code null}. */
    private static HashReply checkArguments(HashOp op, List<byte[]> args) {
        switch (op) {
            case LPOP, RPOP -> {
                if (!args.isEmpty()) {
                    Long count = DecimalCounter.parse(args.get(0));
                    if (count == null || count < 0) {
                        return HashReply.error(KvStatus.BAD_REQUEST, NOT_POSITIVE);
                    }
                }
            }
            case LREM -> {
                if (DecimalCounter.parse(args.get(0)) == null) {
                    return HashReply.error(KvStatus.BAD_REQUEST, BAD_INTEGER);
                }
            }
            case LTRIM -> {
                if (DecimalCounter.parse(args.get(0)) == null || DecimalCounter.parse(args.get(1)) == null) {
                    return HashReply.error(KvStatus.BAD_REQUEST, BAD_INTEGER);
                }
            }
            case LMOVE -> {
                if (side(args.get(1)) == null || side(args.get(2)) == null) {
                    return HashReply.error(KvStatus.BAD_REQUEST, SYNTAX);
                }
            }
            case LINSERT -> {
                String where = new String(args.get(0), StandardCharsets.US_ASCII);
                if (!where.equalsIgnoreCase("BEFORE") && !where.equalsIgnoreCase("AFTER")) {
                    return HashReply.error(KvStatus.BAD_REQUEST, SYNTAX);
                }
            }
            default -> {
                return null;
            }
        }
        return null;
    }

    private static HashReply push(Segment.ListWriter writer, byte[] key, HashOp op, List<byte[]> elements) {
        ListEntry list = writer.list(key);
        if (list == null && (op == HashOp.LPUSHX || op == HashOp.RPUSHX)) {
            return HashReply.counted(0);
        }
        boolean head = op == HashOp.LPUSH || op == HashOp.LPUSHX;
        int size = list == null ? 0 : list.size();
        for (byte[] element : elements) {
            writer.insert(key, head ? 0 : size, element);
            size++;
        }
        return HashReply.counted(size);
    }

    /** Without a count: one element or none. With one: up to count elements; the count says whether a list was there. */
    static HashReply pop(Segment.ListWriter writer, byte[] key, boolean head, Long count) {
        ListEntry list = writer.list(key);
        if (list == null) {
            return HashReply.counted(0);
        }
        int size = list.size();
        int n = (int) Math.min(count == null ? 1 : count, size);
        int from = head ? 0 : size - n;
        List<byte[]> popped = list.range(from, from + n - 1);
        if (!head) {
            Collections.reverse(popped); // RPOP answers from the tail inwards
        }
        if (n > 0) {
            writer.remove(key, from, n);
        }
        return HashReply.read(1, popped);
    }

    /** LSET: Redis looks at the key before the index. */
    private static HashReply set(Segment.ListWriter writer, byte[] key, byte[] indexText, byte[] element) {
        ListEntry list = writer.list(key);
        if (list == null) {
            return HashReply.error(KvStatus.BAD_REQUEST, NO_SUCH_KEY);
        }
        Long index = DecimalCounter.parse(indexText);
        if (index == null) {
            return HashReply.error(KvStatus.BAD_REQUEST, BAD_INTEGER);
        }
        int at = index(index, list.size());
        if (at < 0) {
            return HashReply.error(KvStatus.BAD_REQUEST, OUT_OF_RANGE);
        }
        writer.set(key, at, element);
        return HashReply.counted(0);
    }

    /**
     * LREM: removes up to |count| occurrences (all for 0) from the head (count ≥ 0) or the tail; each run of adjacent
     * matches leaves as one change.
     */
    private static HashReply removeMatching(Segment.ListWriter writer, byte[] key, long count, byte[] element) {
        ListEntry list = writer.list(key);
        if (list == null) {
            return HashReply.counted(0);
        }
        long limit = count == 0 ? Long.MAX_VALUE : count == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(count);
        boolean fromHead = count >= 0;
        List<int[]> runs = new ArrayList<>(); // [first index, length] in the list as it is now
        long removed = 0;
        int size = list.size();
        for (int step = 0; step < size && removed < limit; step++) {
            int at = fromHead ? step : size - 1 - step;
            if (!java.util.Arrays.equals(list.get(at), element)) {
                continue;
            }
            removed++;
            int[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && fromHead && last[0] + last[1] == at) {
                last[1]++;
            } else if (last != null && !fromHead && last[0] - 1 == at) {
                last[0]--;
                last[1]++;
            } else {
                runs.add(new int[] {at, 1});
            }
        }
        // Remove the runs from the tail end first, so each earlier run keeps its index.
        runs.sort((a, b) -> Integer.compare(b[0], a[0]));
        for (int[] run : runs) {
            writer.remove(key, run[0], run[1]);
        }
        return HashReply.counted(removed);
    }

    /** LTRIM: keeps start..stop; the tail beyond it and the head before it leave as one change each. */
    private static HashReply trim(Segment.ListWriter writer, byte[] key, long start, long stop) {
        ListEntry list = writer.list(key);
        if (list == null) {
            return HashReply.counted(0);
        }
        int size = list.size();
        int[] keep = range(start, stop, size);
        if (keep == null) {
            writer.remove(key, 0, size); // the emptied list goes
            return HashReply.counted(0);
        }
        if (keep[1] < size - 1) {
            writer.remove(key, keep[1] + 1, size - 1 - keep[1]);
        }
        if (keep[0] > 0) {
            writer.remove(key, 0, keep[0]);
        }
        return HashReply.counted(0);
    }

    /** LMOVE: pops from one end of the source and pushes at one end of the destination (the same key allowed). */
    private static HashReply move(Segment.ListWriter writer, byte[] source, byte[] destination, boolean fromLeft,
                                  boolean toLeft) {
        ListEntry from = writer.list(source);
        if (from == null) {
            return HashReply.read(0, Collections.singletonList(null));
        }
        int size = from.size();
        int at = fromLeft ? 0 : size - 1;
        byte[] element = from.get(at);
        if (java.util.Arrays.equals(source, destination)) { // a rotation: push first, so the list (and its TTL) stays
            if (fromLeft != toLeft) {
                writer.insert(source, toLeft ? 0 : size, element);
                writer.remove(source, fromLeft ? 0 : size, 1);
            }
            return HashReply.read(0, Collections.singletonList(element));
        }
        ListEntry to = writer.list(destination); // a destination of another type fails before anything moves
        writer.remove(source, at, 1);
        writer.insert(destination, toLeft || to == null ? 0 : to.size(), element);
        return HashReply.read(0, Collections.singletonList(element));
    }

    private static HashReply insert(Segment.ListWriter writer, byte[] key, boolean before, byte[] pivot, byte[] element) {
        ListEntry list = writer.list(key);
        if (list == null) {
            return HashReply.counted(0);
        }
        for (int i = 0; i < list.size(); i++) {
            if (java.util.Arrays.equals(list.get(i), pivot)) {
                writer.insert(key, before ? i : i + 1, element);
                return HashReply.counted(list.size());
            }
        }
        return HashReply.counted(-1);
    }

    // ------------------------------------------------------------------ Redis's index rules

    /** LRANGE's and LTRIM's rule: the inclusive range start..stop (negative from the end), {@code null} when empty. */
    static int[] range(long start, long stop, int size) {
        long from = start < 0 ? Math.max(0, size + start) : start;
        long to = stop < 0 ? size + stop : Math.min(stop, size - 1L);
        if (from > to || from >= size) {
            return null;
        }
        return new int[] {(int) from, (int) to};
    }

    /** LINDEX's and LSET's rule: the position of {@code index} (negative from the end), −1 when outside. */
    static int index(long index, int size) {
        long at = index < 0 ? size + index : index;
        return at < 0 || at >= size ? -1 : (int) at;
    }

    private static Boolean side(byte[] word) {
        String text = new String(word, StandardCharsets.US_ASCII);
        return text.equalsIgnoreCase("LEFT") ? Boolean.TRUE : text.equalsIgnoreCase("RIGHT") ? Boolean.FALSE : null;
    }

    private static boolean isLeft(byte[] word) {
        return Boolean.TRUE.equals(side(word));
    }

    private static boolean isBefore(byte[] word) {
        return new String(word, StandardCharsets.US_ASCII).equalsIgnoreCase("BEFORE");
    }
}
