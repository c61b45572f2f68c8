package io.zaris.store;

import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.model.SortedSetScores;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@link HashOp}s that touch several keys of one segment: SMOVE, LMPOP, ZMPOP and the sorted-set algebra
 * (ZCOMBINE, ZCOMBINESTORE), with Redis's answers and its order of checks. Each decides and changes under one hold of
 * the segment's lock ({@link Segment#writeKeys}, {@link Segment#writeList}, {@link Segment#readKeys}), so it is atomic
 * like Redis's; what a write changed is shipped as the member, score and element changes replicas already apply,
 * never as whole values. Stateless.
 */
final class SeveralKeyCommands {

    static final String BAD_INTEGER = "value is not an integer or out of range";

    private SeveralKeyCommands() {
    }

    /** Runs one of these ops; the caller has checked the argument count. */
    static HashReply execute(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now) {
        return switch (op) {
            case SMOVE -> answer(segment.writeKeys(epoch, now, writer -> smove(writer, key, args.get(0), args.get(1))));
            case LMPOP -> lmpop(segment, keys(key, args), args, epoch, now);
            case ZMPOP -> zmpop(segment, keys(key, args), args, epoch, now);
            case ZCOMBINE, ZCOMBINESTORE -> combine(segment, key, op, args, epoch, now);
            default -> throw new IllegalArgumentException(op + " is not a several-key op");
        };
    }

    /**
     * SMOVE, in Redis's order: a missing source answers 0 whatever the destination holds; then both keys' types; the
     * same key answers whether the member is there; else the member leaves the source (0 when it was not there) and
     * joins the destination, which keeps its TTL or is created without one.
     */
    private static HashReply smove(Segment.KeyWriter writer, byte[] source, byte[] destination, byte[] member) {
        StoredEntry from = writer.entry(source);
        StoredEntry to = writer.entry(destination);
        if (from == null) {
            return HashReply.counted(0);
        }
        if (!(from instanceof SetEntry set) || (to != null && !(to instanceof SetEntry))) {
            throw new WrongTypeException();
        }
        boolean present = set.contains(new ByteKey(member));
        if (Arrays.equals(source, destination) || !present) {
            return HashReply.counted(present ? 1 : 0);
        }
        writer.collection(source).remove(member);
        writer.collection(destination).add(member);
        return HashReply.counted(1);
    }

    /**
     * LMPOP: the first key holding a list gives up to {@code count} elements from one end; a key of another type met
     * before it is WRONGTYPE, keys after it are not looked at (as in Redis).
     */
    private static HashReply lmpop(Segment segment, List<byte[]> keys, List<byte[]> args, long epoch, long now) {
        String side = new String(args.get(0), StandardCharsets.US_ASCII).toUpperCase(Locale.ROOT);
        Long count = DecimalCounter.parse(args.get(1));
        if (!(side.equals("LEFT") || side.equals("RIGHT")) || count == null || count < 1) {
            return HashReply.error(KvStatus.BAD_REQUEST, "LMPOP takes LEFT or RIGHT and a count of at least 1");
        }
        return answer(segment.writeList(epoch, now, writer -> {
            for (byte[] key : keys) {
                if (writer.list(key) != null) { // a list is never empty: its last element's removal removes the key
                    List<byte[]> items = new ArrayList<>();
                    items.add(key);
                    items.addAll(ListCommands.pop(writer, key, side.equals("LEFT"), count).items());
                    return HashReply.read(0, items);
                }
            }
            return HashReply.counted(0);
        }));
    }

    /** ZMPOP: as LMPOP, for sorted sets, popping the lowest (highest) scores with them. */
    private static HashReply zmpop(Segment segment, List<byte[]> keys, List<byte[]> args, long epoch, long now) {
        byte[] max = args.get(0);
        Long count = DecimalCounter.parse(args.get(1));
        if (max.length != 1 || (max[0] != '0' && max[0] != '1') || count == null || count < 1) {
            return HashReply.error(KvStatus.BAD_REQUEST, "ZMPOP takes 0 or 1 and a count of at least 1");
        }
        boolean highest = max[0] == '1';
        return answer(segment.writeKeys(epoch, now, writer -> {
            for (byte[] key : keys) {
                StoredEntry entry = writer.entry(key);
                if (entry == null) {
                    continue;
                }
                if (!(entry instanceof SortedSetEntry sorted)) {
                    throw new WrongTypeException();
                }
                List<SortedSetEntry.Scored> popped = new ArrayList<>();
                Iterator<SortedSetEntry.Scored> it = sorted.ordered(highest).iterator();
                while (it.hasNext() && popped.size() < count) {
                    popped.add(it.next());
                }
                Segment.HashWriter members = writer.collection(key);
                List<byte[]> items = new ArrayList<>(1 + 2 * popped.size());
                items.add(key);
                for (SortedSetEntry.Scored scored : popped) { // after the walk: removing changes the order walked
                    members.remove(scored.member().bytes());
                    items.add(scored.member().bytes());
                    items.add(SortedSetScores.formatBytes(scored.score()));
                }
                return HashReply.read(0, items);
            }
            return HashReply.counted(0);
        }));
    }

    /**
     * ZCOMBINE and ZCOMBINESTORE: every source's type is checked first (a sorted set, a set or nothing; WRONGTYPE
     * otherwise), in order, as Redis does before it reads its options; TYPES stops there. ZCOMBINESTORE then
     * replaces whatever the destination held by the result (no member: the key is removed), as one batch of changes.
     */
    private static HashReply combine(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now) {
        String kindText = new String(args.get(0), StandardCharsets.US_ASCII);
        boolean typesOnly = kindText.equals("TYPES") && op == HashOp.ZCOMBINE;
        SortedSetAlgebra.Kind kind;
        SortedSetAlgebra.Aggregate aggregate;
        try {
            kind = typesOnly ? SortedSetAlgebra.Kind.UNION : SortedSetAlgebra.Kind.valueOf(kindText);
            aggregate = SortedSetAlgebra.Aggregate.valueOf(new String(args.get(1), StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            return HashReply.error(KvStatus.BAD_REQUEST, "ZCOMBINE takes UNION, INTER, DIFF or TYPES and SUM, MIN or MAX");
        }
        int sources = (args.size() - 2) / 2;
        double[] weights = new double[sources];
        for (int i = 0; i < sources; i++) {
            Double weight = SortedSetScores.parse(args.get(3 + 2 * i));
            if (weight == null) {
                return HashReply.error(KvStatus.BAD_REQUEST, "weight value is not a float");
            }
            weights[i] = weight;
        }
        if (op == HashOp.ZCOMBINE) {
            return segment.readKeys(now, lookup -> {
                List<SortedSetAlgebra.Source> read = read(args, weights, lookup::apply);
                if (typesOnly) {
                    return HashReply.counted(0);
                }
                return HashReply.read(0, flatten(SortedSetAlgebra.combine(kind, aggregate, read)));
            });
        }
        return answer(segment.writeKeys(epoch, now, writer -> {
            List<SortedSetEntry.Scored> result = SortedSetAlgebra.combine(kind, aggregate, read(args, weights, writer::entry));
            writer.remove(key);
            Segment.HashWriter members = writer.collection(key);
            for (SortedSetEntry.Scored scored : result) {
                members.score(scored.member().bytes(), scored.score());
            }
            return HashReply.counted(result.size());
        }));
    }

    /** Under the lock: each source's members and scores; WRONGTYPE at the first source of another type. */
    private static List<SortedSetAlgebra.Source> read(List<byte[]> args, double[] weights,
                                                      java.util.function.Function<byte[], StoredEntry> lookup) {
        List<SortedSetAlgebra.Source> out = new ArrayList<>(weights.length);
        for (int i = 0; i < weights.length; i++) {
            StoredEntry entry = lookup.apply(args.get(2 + 2 * i));
            Map<ByteKey, Double> scores = new HashMap<>();
            if (entry instanceof SortedSetEntry sorted) {
                for (SortedSetEntry.Scored scored : sorted.ordered(false)) {
                    scores.put(scored.member(), scored.score());
                }
            } else if (entry instanceof SetEntry set) {
                set.forEachField((member, none) -> scores.put(new ByteKey(member), 1.0));
            } else if (entry != null) {
                throw new WrongTypeException();
            }
            out.add(new SortedSetAlgebra.Source(scores, weights[i]));
        }
        return out;
    }

    private static List<byte[]> keys(byte[] first, List<byte[]> args) {
        List<byte[]> keys = new ArrayList<>(args.size() - 1);
        keys.add(first);
        keys.addAll(args.subList(2, args.size()));
        return keys;
    }

    private static List<byte[]> flatten(List<SortedSetEntry.Scored> members) {
        List<byte[]> out = new ArrayList<>(members.size() * 2);
        for (SortedSetEntry.Scored scored : members) {
            out.add(scored.member().bytes());
            out.add(SortedSetScores.formatBytes(scored.score()));
        }
        return out;
    }

    private static HashReply answer(HashWriteResult<HashReply> result) {
        if (result.status() != KvStatus.OK) {
            return HashReply.error(result.status(), "the partition was just taken over by another node");
        }
        HashReply reply = result.result();
        return new HashReply(reply.status(), reply.count(), reply.items(), reply.error(), result.version(),
                result.replicated());
    }
}
