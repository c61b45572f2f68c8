package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The sorted set's block order against a {@link TreeSet} of the same members (the order it replaced, ordered by
 * {@link SortedSetEntry.Scored#compareTo}): seeded runs of adds, moves and removes across block splits and merges,
 * each followed by a comparison of walks, ranks and score and rank starts.
 */
@Tag("unit")
class ScoreOrderTests {

    @Test
    void emptyOrderWalksNothingAndRemovesNothing() {
        ScoreOrder order = new ScoreOrder();
        assertThat(order.size()).isZero();
        assertThat(order.remove(1, key("a"))).isFalse();
        assertThat(order.iterator(false).hasNext()).isFalse();
        assertThat(order.iterator(true).hasNext()).isFalse();
        assertThat(order.fromScore(0, false).hasNext()).isFalse();
        assertThat(order.fromRank(0, true).hasNext()).isFalse();
        assertThatThrownBy(() -> order.iterator(false).next()).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void equalScoresOrderByUnsignedBytesAndMinusZeroIsZero() {
        ScoreOrder order = new ScoreOrder();
        order.add(0.0, key("b"));
        order.add(-0.0, key("a"));
        order.add(0.0, new ByteKey(new byte[] {(byte) 0xc3, (byte) 0xa9})); // é: after ASCII, unsigned
        order.add(-1, key("z"));
        assertThat(walk(order.iterator(false))).containsExactly("z", "a", "b", "é");
        assertThat(walk(order.fromScore(0.0, false))).containsExactly("a", "b", "é");
        assertThat(walk(order.fromScore(-0.0, true))).containsExactly("é", "b", "a", "z");
        assertThat(order.rank(0.0, key("b"), false)).isEqualTo(2);
        assertThat(order.rank(0.0, key("b"), true)).isEqualTo(1);
        assertThat(order.remove(-0.0, key("b"))).as("found at the score it was added at, −0 being 0").isTrue();
        assertThat(order.remove(1.0, key("a"))).as("not at another score").isFalse();
    }

    @Test
    void seededRunsAgreeWithTheTreeOrder() {
        for (long seed = 1; seed <= 6; seed++) {
            agreeWithTreeOrder(seed, seed % 2 == 0 ? 20 : 5000, 6000);
        }
    }

    @Test
    void aSetThatGrowsThenShrinksToNothingAgreesAllTheWay() {
        Random random = new Random(42);
        ScoreOrder order = new ScoreOrder();
        TreeSet<SortedSetEntry.Scored> model = new TreeSet<>();
        List<ByteKey> members = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            ByteKey member = key("m" + i);
            double score = random.nextInt(50);
            order.add(score, member);
            model.add(new SortedSetEntry.Scored(score, member, 0));
            members.add(member);
        }
        check(order, model, random);
        while (!model.isEmpty()) {
            // from both ends and the middle, so blocks empty and merge everywhere
            SortedSetEntry.Scored gone = switch (model.size() % 3) {
                case 0 -> model.first();
                case 1 -> model.last();
                default -> new ArrayList<>(model).get(model.size() / 2);
            };
            assertThat(order.remove(gone.score(), gone.member())).isTrue();
            model.remove(gone);
            if (model.size() % 97 == 0) {
                check(order, model, random);
            }
        }
        assertThat(order.size()).isZero();
        assertThat(order.iterator(false).hasNext()).isFalse();
    }

    @Test
    void membersAddedInAscendingOrderThenMovedAgree() {
        Random random = new Random(7);
        ScoreOrder order = new ScoreOrder();
        TreeSet<SortedSetEntry.Scored> model = new TreeSet<>();
        for (int i = 0; i < 1000; i++) { // appends past the last member: new blocks, not halves
            ByteKey member = key("t" + i);
            order.add(i, member);
            model.add(new SortedSetEntry.Scored(i, member, 0));
        }
        check(order, model, random);
        for (int i = 0; i < 1000; i += 3) { // then members move into the full blocks, which split
            ByteKey member = key("t" + i);
            assertThat(order.remove(i, member)).isTrue();
            model.remove(new SortedSetEntry.Scored(i, member, 0));
            double score = random.nextInt(1000) + 0.5;
            order.add(score, member);
            model.add(new SortedSetEntry.Scored(score, member, 0));
        }
        check(order, model, random);
    }

    private static void agreeWithTreeOrder(long seed, int scoreRange, int steps) {
        Random random = new Random(seed);
        ScoreOrder order = new ScoreOrder();
        TreeSet<SortedSetEntry.Scored> model = new TreeSet<>();
        Map<ByteKey, Double> scores = new HashMap<>();
        for (int step = 0; step < steps; step++) {
            ByteKey member = key("element:" + random.nextInt(2000));
            double score = random.nextInt(10) == 0 ? -0.0 : random.nextInt(scoreRange) - scoreRange / 2.0;
            Double current = scores.get(member);
            if (current != null && random.nextInt(4) == 0) {
                assertThat(order.remove(current, member)).isTrue();
                model.remove(new SortedSetEntry.Scored(current, member, 0));
                scores.remove(member);
            } else {
                if (current != null) { // a move, as a ZADD of an existing member makes
                    assertThat(order.remove(current, member)).isTrue();
                    model.remove(new SortedSetEntry.Scored(current, member, 0));
                }
                order.add(score, member);
                model.add(new SortedSetEntry.Scored(score, member, 0));
                scores.put(member, score);
            }
            assertThat(order.size()).isEqualTo(model.size());
            if (step % 500 == 499) {
                check(order, model, random);
            }
        }
        check(order, model, random);
    }

    /** Every walk, rank and start of {@code order} as the tree reads it. */
    private static void check(ScoreOrder order, TreeSet<SortedSetEntry.Scored> model, Random random) {
        List<SortedSetEntry.Scored> ascending = new ArrayList<>(model);
        List<SortedSetEntry.Scored> descending = new ArrayList<>(model.descendingSet());
        assertThat(all(order.iterator(false))).isEqualTo(ascending);
        assertThat(all(order.iterator(true))).isEqualTo(descending);
        assertThat(readInPlace(order.iterator(false))).as("read in place").isEqualTo(ascending);
        assertThat(readInPlace(order.iterator(true))).as("read in place").isEqualTo(descending);
        for (int probe = 0; probe < 20 && !ascending.isEmpty(); probe++) {
            int rank = random.nextInt(ascending.size());
            SortedSetEntry.Scored at = ascending.get(rank);
            assertThat(order.rank(at.score(), at.member(), false)).isEqualTo(rank);
            assertThat(order.rank(at.score(), at.member(), true)).isEqualTo(ascending.size() - 1 - rank);
            assertThat(first(order.fromRank(rank, false), 3)).isEqualTo(ascending.subList(rank, Math.min(rank + 3, ascending.size())));
            assertThat(first(order.fromRank(rank, true), 3))
                    .isEqualTo(descending.subList(rank, Math.min(rank + 3, descending.size())));
            double score = at.score() + (random.nextBoolean() ? 0 : 0.5);
            assertThat(first(order.fromScore(score, false), 3)).isEqualTo(
                    first(model.tailSet(new SortedSetEntry.Scored(score, null, -1), false).iterator(), 3));
            assertThat(first(order.fromScore(score, true), 3)).isEqualTo(
                    first(model.headSet(new SortedSetEntry.Scored(score, null, 1), false).descendingIterator(), 3));
        }
        assertThat(order.fromRank(ascending.size(), false).hasNext()).isFalse();
        assertThat(order.fromRank(-1, false).hasNext()).isFalse();
    }

    /** A walk read through {@link ScoreOrder.Walk#score}, {@link ScoreOrder.Walk#member} and {@link ScoreOrder.Walk#skip}. */
    private static List<SortedSetEntry.Scored> readInPlace(ScoreOrder.Walk walk) {
        List<SortedSetEntry.Scored> out = new ArrayList<>();
        for (; walk.hasNext(); walk.skip()) {
            out.add(new SortedSetEntry.Scored(walk.score(), walk.member(), 0));
        }
        return out;
    }

    private static List<SortedSetEntry.Scored> all(Iterator<SortedSetEntry.Scored> it) {
        return first(it, Integer.MAX_VALUE);
    }

    private static List<SortedSetEntry.Scored> first(Iterator<SortedSetEntry.Scored> it, int count) {
        List<SortedSetEntry.Scored> out = new ArrayList<>();
        while (it.hasNext() && out.size() < count) {
            out.add(it.next());
        }
        return out;
    }

    private static List<String> walk(Iterator<SortedSetEntry.Scored> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(scored -> out.add(new String(scored.member().bytes(), StandardCharsets.UTF_8)));
        return out;
    }

    private static ByteKey key(String text) {
        return new ByteKey(text.getBytes(StandardCharsets.UTF_8));
    }
}
