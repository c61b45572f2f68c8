package io.zaris.store;

import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.model.LexRange;
import io.zaris.model.ScoreRange;
import io.zaris.model.ScoredMembers;
import io.zaris.model.SortedSetScores;
import io.zaris.model.ZaddFlags;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * What each sorted-set {@link HashOp} (codes 64 and after) does to one segment's sorted set, with Redis's answers
 * and errors. Reads run under the segment's lock ({@link Segment#readSortedSet}); writes decide and change under one
 * hold of it ({@link Segment#writeSortedSet}), so a ZADD with its conditions, a ZINCRBY or a ZPOPMIN is atomic like
 * Redis's. A write ships what it did — each member's resulting score, each member it removed — so replicas never
 * re-run a condition, an increment or a range. Arguments are checked before the key is looked at, as Redis does.
 * Stateless.
 */
final class SortedSetCommands {

    static final String BAD_FLOAT = "value is not a valid float";
    static final String BAD_INTEGER = "value is not an integer or out of range";
    static final String NOT_POSITIVE = "value is out of range, must be positive";
    static final String NAN_SCORE = "resulting score is not a number (NaN)";

    /** How a range names its ends: ranks, scores or members. */
    enum By {
        RANK, SCORE, LEX;

        private static final By[] ALL = values();
        private final byte[] word = name().getBytes(StandardCharsets.US_ASCII);

        /** The kind named by exactly these bytes (as {@link #valueOf} would name it), without a string; {@code null}. */
        static By named(byte[] bytes) {
            for (By kind : ALL) {
                if (java.util.Arrays.equals(kind.word, bytes)) {
                    return kind;
                }
            }
            return null;
        }
    }

    private SortedSetCommands() {
    }

    /** Runs a sorted-set op; the caller has checked the argument count. */
    static HashReply execute(Segment segment, byte[] key, HashOp op, List<byte[]> args, long epoch, long now) {
        return switch (op) {
            case ZADD -> zadd(segment, key, args, epoch, now);
            case ZREM -> write(segment, key, epoch, now, (set, writer) -> {
                long removed = 0;
                for (byte[] member : args) {
                    if (writer.remove(member)) {
                        removed++;
                    }
                }
                return HashReply.counted(removed);
            });
            case ZMSCORE -> segment.readSortedSet(key, now, set -> {
                List<byte[]> scores = new ArrayList<>(args.size());
                for (byte[] member : args) {
                    Double score = set == null ? null : set.score(new ByteKey(member));
                    scores.add(score == null ? null : SortedSetScores.formatBytes(score));
                }
                return HashReply.read(0, scores);
            });
            case ZCARD -> segment.readSortedSet(key, now, set -> HashReply.counted(set == null ? 0 : set.size()));
            case ZCOUNT -> {
                ScoreRange range = ScoreRange.parse(args.get(0), args.get(1));
                if (range == null) {
                    yield HashReply.error(KvStatus.BAD_REQUEST, ScoreRange.NOT_A_FLOAT);
                }
                Selection all = new Selection(By.SCORE, false, 0, 0, range, null, 0, -1);
                yield segment.readSortedSet(key, now, set -> HashReply.counted(set == null ? 0 : all.select(set).size()));
            }
            case ZLEXCOUNT -> {
                LexRange range = LexRange.parse(args.get(0), args.get(1));
                if (range == null) {
                    yield HashReply.error(KvStatus.BAD_REQUEST, LexRange.NOT_VALID);
                }
                Selection all = new Selection(By.LEX, false, 0, 0, null, range, 0, -1);
                yield segment.readSortedSet(key, now, set -> HashReply.counted(set == null ? 0 : all.select(set).size()));
            }
            case ZRANK -> {
                Boolean reverse = flag(args.get(1));
                if (reverse == null) {
                    yield HashReply.error(KvStatus.BAD_REQUEST, "ZRANK's direction is 0 or 1");
                }
                ByteKey member = new ByteKey(args.get(0));
                yield segment.readSortedSet(key, now, set -> {
                    Double score = set == null ? null : set.score(member);
                    return score == null ? HashReply.counted(0)
                            : HashReply.read(set.rank(member, score, reverse), List.of(SortedSetScores.formatBytes(score)));
                });
            }
            case ZRANGE -> {
                Object parsed = Selection.parse(args.get(0), args.get(1), args.get(2), args.get(3), args.get(4), args.get(5));
                if (parsed instanceof String error) {
                    yield HashReply.error(KvStatus.BAD_REQUEST, error);
                }
                Selection selection = (Selection) parsed;
                yield segment.readSortedSet(key, now, set -> HashReply.read(0, set == null ? List.of() : selection.membersAndScores(set)));
            }
            case ZREMRANGE -> {
                byte[] forward = {'0'};
                byte[] unlimited = {'-', '1'};
                byte[] zero = {'0'};
                Object parsed = Selection.parse(args.get(0), forward, args.get(1), args.get(2), zero, unlimited);
                if (parsed instanceof String error) {
                    yield HashReply.error(KvStatus.BAD_REQUEST, error);
                }
                Selection selection = (Selection) parsed;
                yield write(segment, key, epoch, now, (set, writer) -> {
                    long removed = 0;
                    for (SortedSetEntry.Scored scored : set == null ? List.<SortedSetEntry.Scored>of() : selection.select(set)) {
                        writer.remove(scored.member().bytes());
                        removed++;
                    }
                    return HashReply.counted(removed);
                });
            }
            case ZPOP -> {
                Boolean max = flag(args.get(0));
                Long count = DecimalCounter.parse(args.get(1));
                if (max == null || count == null) {
                    yield HashReply.error(KvStatus.BAD_REQUEST, BAD_INTEGER);
                }
                if (count < 0) {
                    yield HashReply.error(KvStatus.BAD_REQUEST, NOT_POSITIVE);
                }
                yield write(segment, key, epoch, now, (set, writer) -> {
                    List<SortedSetEntry.Scored> popped = new ArrayList<>();
                    if (set != null) {
                        Iterator<SortedSetEntry.Scored> it = set.ordered(max).iterator();
                        while (it.hasNext() && popped.size() < count) {
                            popped.add(it.next());
                        }
                    }
                    for (SortedSetEntry.Scored scored : popped) { // after the walk: removing changes the order walked
                        writer.remove(scored.member().bytes());
                    }
                    return HashReply.read(0, flatten(popped));
                });
            }
            default -> throw new IllegalArgumentException(op + " is not a sorted-set op");
        };
    }

    /**
     * ZADD (ZINCRBY is ZADD with INCR): every score is read before the key is looked at; then each pair, in order, adds
     * or updates its member as the flags allow. Redis's rules: NX adds only, XX updates only, GT/LT update only to a
     * higher/lower score (a new member is still added), an update to an equal score changes nothing, CH counts
     * updates beside additions; INCR adds the increment to the member's score (0 when absent) and answers the new
     * score, or none when a condition kept it. A score of −0 is stored as 0 (Redis reads it back so), though an INCR
     * answers the sum it computed ({@code + 0.0} turns −0 into 0 and leaves every other double as it is).
     */
    private static HashReply zadd(Segment segment, byte[] key, List<byte[]> args, long epoch, long now) {
        byte[] letters = args.get(0);
        ZaddFlags flags = letters.length == 0 ? ZaddFlags.NONE // a plain ZADD: no string to read them from
                : ZaddFlags.fromLetters(new String(letters, StandardCharsets.US_ASCII));
        if (flags == null) {
            return HashReply.error(KvStatus.BAD_REQUEST, "ZADD flags are letters of NXGLCI");
        }
        String conflict = flags.conflict((args.size() - 1) / 2);
        if (conflict != null) {
            return HashReply.error(KvStatus.BAD_REQUEST, conflict);
        }
        boolean nx = flags.nx();
        boolean xx = flags.xx();
        boolean gt = flags.gt();
        boolean lt = flags.lt();
        boolean ch = flags.ch();
        boolean incr = flags.incr();
        double[] scores = new double[(args.size() - 1) / 2];
        for (int i = 0; i < scores.length; i++) {
            Double score = SortedSetScores.parse(args.get(1 + 2 * i));
            if (score == null) {
                return HashReply.error(KvStatus.BAD_REQUEST, BAD_FLOAT);
            }
            scores[i] = score;
        }
        return write(segment, key, epoch, now, (set, writer) -> {
            long added = 0;
            long changed = 0;
            Double incremented = null;
            for (int i = 0; i < scores.length; i++) {
                byte[] member = args.get(2 + 2 * i);
                ByteKey m = new ByteKey(member); // one key for the lookup and the change
                Double current = writer.scoreOf(m);
                if (current == null) {
                    if (xx) {
                        continue;
                    }
                    writer.changeScore(member, m, scores[i] + 0.0);
                    incremented = scores[i];
                    added++;
                    continue;
                }
                if (nx) {
                    continue;
                }
                double next = incr ? current + scores[i] : scores[i];
                if (Double.isNaN(next)) {
                    return HashReply.error(KvStatus.BAD_REQUEST, NAN_SCORE);
                }
                if ((gt && next <= current) || (lt && next >= current)) {
                    continue;
                }
                incremented = next;
                if (next != current) { // numerically: −0 and 0 are one score, as in Redis
                    writer.changeScore(member, m, next + 0.0);
                    changed++;
                }
            }
            if (incr) {
                List<byte[]> answer = new ArrayList<>(1);
                answer.add(incremented == null ? null : SortedSetScores.formatBytes(incremented));
                return HashReply.read(0, answer);
            }
            return HashReply.counted(added + (ch ? changed : 0));
        });
    }

    private static HashReply write(Segment segment, byte[] key, long epoch, long now, Segment.SortedSetEdit<HashReply> edit) {
        HashWriteResult<HashReply> result = segment.writeSortedSet(key, epoch, now, edit);
        if (result.status() != KvStatus.OK) {
            return HashReply.error(result.status(), "the partition was just taken over by another node");
        }
        HashReply reply = result.result();
        return new HashReply(reply.status(), reply.count(), reply.items(), reply.error(), result.version(),
                result.replicated());
    }

    private static Boolean flag(byte[] text) {
        return text.length == 1 && (text[0] == '0' || text[0] == '1') ? text[0] == '1' : null;
    }

    private static List<byte[]> flatten(List<SortedSetEntry.Scored> members) {
        List<byte[]> out = new ArrayList<>(members.size() * 2);
        for (SortedSetEntry.Scored scored : members) {
            out.add(scored.member().bytes());
            out.add(SortedSetScores.formatBytes(scored.score()));
        }
        return out;
    }

    /**
     * Which members a range names, read from a ZRANGE's arguments before the key is looked at: ranks as Redis
     * clamps them, or a score or member interval (always min then max; REV walks it from max) with Redis's
     * LIMIT (a negative offset selects nothing, a negative count everything after the offset).
     */
    record Selection(By by, boolean reverse, long start, long stop, ScoreRange scores, LexRange lex, long offset, long limit) {

        /** The selection, or the error Redis answers as a String. */
        static Object parse(byte[] by, byte[] reverse, byte[] start, byte[] stop, byte[] offset, byte[] limit) {
            By kind = By.named(by);
            if (kind == null) {
                return "a range is by RANK, SCORE or LEX";
            }
            Boolean rev = flag(reverse);
            Long skip = DecimalCounter.parse(offset);
            Long count = DecimalCounter.parse(limit);
            if (rev == null || skip == null || count == null) {
                return BAD_INTEGER;
            }
            return switch (kind) {
                case RANK -> {
                    Long from = DecimalCounter.parse(start);
                    Long to = DecimalCounter.parse(stop);
                    yield from == null || to == null ? BAD_INTEGER : new Selection(kind, rev, from, to, null, null, 0, -1);
                }
                case SCORE -> {
                    ScoreRange range = ScoreRange.parse(start, stop);
                    yield range == null ? ScoreRange.NOT_A_FLOAT : new Selection(kind, rev, 0, 0, range, null, skip, count);
                }
                case LEX -> {
                    LexRange range = LexRange.parse(start, stop);
                    yield range == null ? LexRange.NOT_VALID : new Selection(kind, rev, 0, 0, null, range, skip, count);
                }
            };
        }

        /** Under the segment's lock: the members selected, in the walk's order. */
        List<SortedSetEntry.Scored> select(SortedSetEntry set) {
            List<SortedSetEntry.Scored> out = new ArrayList<>();
            visit(set, (score, member) -> out.add(new SortedSetEntry.Scored(score, member, 0)));
            return out;
        }

        /**
         * Under the segment's lock: member, score, member, score … of the members selected, in the walk's order, each
         * score as Redis prints it (ZRANGE's answer), read from the order in place without a record per member; the
         * scores stay doubles until the answer is written ({@link ScoredMembers}).
         */
        List<byte[]> membersAndScores(SortedSetEntry set) {
            ScoredMembers out = new ScoredMembers(by == By.RANK ? Math.min(rankCount(set.size()), 1 << 15) : 8);
            visit(set, (score, member) -> out.add(member.bytes(), score));
            return out;
        }

        /** What {@link #visit} is given: each member selected, with its score. */
        @FunctionalInterface
        interface Visitor {
            void selected(double score, ByteKey member);
        }

        /** Under the segment's lock: hands {@code visitor} each member selected, in the walk's order. */
        void visit(SortedSetEntry set, Visitor visitor) {
            if (by == By.RANK) {
                int count = rankCount(set.size());
                if (count == 0) {
                    return;
                }
                ScoreOrder.Walk walk = set.fromRank(firstRank(set.size()), reverse); // not a walk over the ranks before
                for (int i = 0; i < count && walk.hasNext(); i++) {
                    visitor.selected(walk.score(), walk.member());
                    walk.skip();
                }
                return;
            }
            if (offset < 0) {
                return;
            }
            ScoreOrder.Walk walk = by == By.SCORE ? set.from(reverse ? scores.max() : scores.min(), reverse) : set.walk(reverse);
            long skipped = 0;
            long taken = 0;
            boolean entered = false;
            for (; walk.hasNext() && (limit < 0 || taken < limit); walk.skip()) {
                double score = walk.score();
                ByteKey member = walk.member();
                boolean beforeStart = reverse ? !belowMax(score, member) : !aboveMin(score, member);
                if (!entered && beforeStart) {
                    continue; // the walk's near end: an exclusive bound's equal scores, or members below a lex bound
                }
                entered = true;
                if (reverse ? !aboveMin(score, member) : !belowMax(score, member)) {
                    break;
                }
                if (skipped < offset) {
                    skipped++;
                    continue;
                }
                visitor.selected(score, member);
                taken++;
            }
        }

        /** The first rank a RANK selection names in a set of {@code size}, as Redis clamps it. */
        private long firstRank(long size) {
            return Math.max(start < 0 ? size + start : start, 0);
        }

        /** How many members a RANK selection names in a set of {@code size}: 0 when its range is empty. */
        private int rankCount(long size) {
            long first = firstRank(size);
            long last = Math.min(stop < 0 ? size + stop : stop, size - 1);
            return first > last || first >= size ? 0 : (int) (last - first + 1);
        }

        private boolean aboveMin(double score, ByteKey member) {
            return by == By.SCORE ? scores.aboveMin(score) : lex.aboveMin(member.bytes());
        }

        private boolean belowMax(double score, ByteKey member) {
            return by == By.SCORE ? scores.belowMax(score) : lex.belowMax(member.bytes());
        }
    }
}
