package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fields' table: the compact layout's order, the switch to the hashed layout, growth in steps (a write moves at most
 * {@link FieldTable#MOVE_STEP} fields and makes a few pages of slots), lookups, removals and walks while a move is
 * under way, and seeded random runs against {@link HashMap} (and, while compact, {@link LinkedHashMap}'s order) with
 * and without values.
 */
@Tag("unit")
class FieldTableTests {

    @Test
    void compactFieldsListInTheOrderFirstSetAndARemovalKeepsTheOthersOrder() {
        FieldTable table = new FieldTable(true);
        for (String name : List.of("a", "b", "c", "d")) {
            assertThat(put(table, name, "v" + name)).isNull();
        }
        assertThat(text(put(table, "a", "new"))).as("the previous value").isEqualTo("va");
        assertThat(text(remove(table, "b"))).isEqualTo("vb");
        assertThat(remove(table, "b")).isNull();
        assertThat(put(table, "b", "again")).isNull();

        assertThat(walk(table)).containsExactly("a=new", "c=vc", "d=vd", "b=again");
        assertThat(text(get(table, "c"))).isEqualTo("vc");
        assertThat(get(table, "nope")).isNull();
        assertThat(table.size()).isEqualTo(4);
        assertThat(table.compact()).isTrue();
    }

    @Test
    void aTableWithoutValuesAnswersNoValueForWhatItHolds() {
        FieldTable table = new FieldTable(false);
        assertThat(put(table, "m", null)).isNull();
        assertThat(put(table, "m", null)).as("present already").isSameAs(FieldTable.NO_VALUE);
        assertThat(get(table, "m")).isSameAs(FieldTable.NO_VALUE);
        assertThat(get(table, "other")).isNull();
        assertThat(remove(table, "m")).isSameAs(FieldTable.NO_VALUE);
        assertThat(table.size()).isZero();
    }

    @Test
    void theFieldPastTheCompactLimitSwitchesToSlotsMovingOnlyTheCompactFields() {
        FieldTable table = new FieldTable(true);
        for (int i = 0; i < FieldTable.COMPACT_LIMIT; i++) {
            put(table, "f" + i, "v" + i);
        }
        assertThat(table.compact()).isTrue();
        assertThat(table.moved()).isZero();

        put(table, "one more", "v");

        assertThat(table.compact()).isFalse();
        assertThat(table.moved()).isEqualTo(FieldTable.COMPACT_LIMIT).isLessThanOrEqualTo(FieldTable.MOVE_STEP);
        assertThat(table.moving()).as("half full: no growth yet").isFalse();
        for (int i = 0; i < FieldTable.COMPACT_LIMIT; i++) {
            assertThat(text(get(table, "f" + i))).isEqualTo("v" + i);
        }
        assertThat(walk(table)).hasSize(FieldTable.COMPACT_LIMIT + 1);
    }

    @Test
    void growingToAHundredThousandFieldsMovesAtMostTheStepPerWriteAndEveryMoveTakesManyWrites() {
        FieldTable table = new FieldTable(true);
        int growths = 0;
        int longestMove = 0;
        int writesIntoThisMove = 0;
        int mostPagesMade = 0;
        for (int i = 0; i < 100_000; i++) {
            boolean wasMoving = table.moving();
            long movedBefore = table.moved();
            int pagesBefore = table.pages();
            put(table, "field:" + i, "v");
            assertThat(table.moved() - movedBefore).as("fields moved by write %d", i).isLessThanOrEqualTo(FieldTable.MOVE_STEP);
            mostPagesMade = Math.max(mostPagesMade, table.pages() - pagesBefore);
            if (!wasMoving && table.moving()) {
                growths++;
                assertThat(table.moved()).as("the write that starts a growth moves nothing of it").isEqualTo(movedBefore);
                writesIntoThisMove = 0;
            } else if (table.moving()) {
                writesIntoThisMove++;
            }
            longestMove = Math.max(longestMove, writesIntoThisMove);
        }
        // 256 slots (the switch from compact) doubling to 262,144: ten growths, the last moving 131,072 old slots.
        assertThat(growths).isEqualTo(10);
        // A write makes the pages its moved run lands in (neighbouring old slots land in neighbouring new ones) and
        // the page of its own field: a few pages of 4,096 slots, never all the 64 pages of the largest growth at once.
        assertThat(mostPagesMade).isBetween(1, 4);
        assertThat(longestMove).isGreaterThanOrEqualTo(131_072 / FieldTable.MOVE_STEP - 1);
        assertThat(table.size()).isEqualTo(100_000);
        for (int i = 0; i < 100_000; i += 97) {
            assertThat(get(table, "field:" + i)).isNotNull();
        }
    }

    @Test
    void duringAMoveEveryFieldIsFoundAfterEveryWriteAndAWalkListsEachOnce() {
        FieldTable table = new FieldTable(true);
        Map<String, String> model = new HashMap<>();
        int i = 0;
        while (!table.moving() || table.size() < 1000) { // a move of a table past 1,000 fields: 2048 old slots
            String name = "field:" + i++;
            put(table, name, name);
            model.put(name, name);
        }
        int writes = 0;
        while (table.moving()) {
            String name = "field:" + i++;
            put(table, name, name);
            model.put(name, name);
            writes++;
            assertAgrees(table, model);
        }
        assertThat(writes).as("a move of 2048 old slots, %d per write", FieldTable.MOVE_STEP)
                .isEqualTo(2048 / FieldTable.MOVE_STEP);
        assertAgrees(table, model);
    }

    @Test
    void removalsDuringAMoveOfUnmovedMovedAndNewFieldsAreGoneAndCanComeBack() {
        FieldTable table = new FieldTable(false);
        Set<String> model = new HashSet<>();
        int i = 0;
        while (!table.moving() || table.size() < 1000) { // a move of 2048 old slots: 16 writes
            String name = "m" + i++;
            put(table, name, null);
            model.add(name);
        }
        List<String> before = new ArrayList<>(model);
        String added = "added during the move";
        put(table, added, null); // the first write of the move: moves the first old slots
        model.add(added);
        List<String> walked = walk(table);
        // The walk lists the unmoved old slots (all but the first 128) first, then the new ones: a name a third into it
        // sits far past the slots the next few writes move, the last name but the added one was moved.
        String unmoved = walked.get(walked.size() / 3).replace("=", "");
        String moved = walked.stream().map(name -> name.replace("=", "")).filter(name -> !name.equals(added))
                .reduce((first, second) -> second).orElseThrow();
        for (String name : List.of(unmoved, moved, added)) {
            assertThat(remove(table, name)).as(name).isSameAs(FieldTable.NO_VALUE);
            assertThat(remove(table, name)).as(name + " again").isNull();
            assertThat(get(table, name)).as(name).isNull();
            model.remove(name);
            assertAgrees(table, model);
        }
        assertThat(table.moving()).as("still under way").isTrue();
        put(table, unmoved, null);
        model.add(unmoved);
        assertAgrees(table, model);
        while (table.moving()) {
            String name = before.get(i++ % before.size());
            remove(table, name);
            model.remove(name);
        }
        assertAgrees(table, model);
    }

    @Test
    void namesOfOneHashFillOneProbeRunAndStillRemoveAndGrowRight() {
        // "Aa" and "BB" hash alike, so every string of ten such pairs has one hash: 1024 names probing one run.
        List<String> colliding = new ArrayList<>();
        for (int bits = 0; bits < 1024; bits++) {
            StringBuilder name = new StringBuilder();
            for (int b = 0; b < 10; b++) {
                name.append((bits >> b & 1) == 0 ? "Aa" : "BB");
            }
            colliding.add(name.toString());
        }
        assertThat(FieldTable.hashOf(bytes(colliding.get(0)))).isEqualTo(FieldTable.hashOf(bytes(colliding.get(1023))));
        FieldTable table = new FieldTable(true);
        Map<String, String> model = new HashMap<>();
        Random random = new Random(7);
        for (int step = 0; step < 6000; step++) {
            String name = colliding.get(random.nextInt(colliding.size()));
            if (random.nextInt(3) == 0) {
                assertThat(text(remove(table, name))).isEqualTo(model.remove(name));
            } else {
                assertThat(text(put(table, name, "s" + step))).isEqualTo(model.put(name, "s" + step));
            }
        }
        assertAgrees(table, model);
    }

    @Test
    void seededRandomRunsAgreeWithAHashMapAndWhileCompactWithItsInsertionOrder() {
        for (long seed = 1; seed <= 8; seed++) {
            boolean withValues = seed % 2 == 1;
            int names = seed <= 4 ? 200 : 20_000; // around the compact limit, and through many growths
            agreeWithMaps(seed, withValues, names, 30_000);
        }
    }

    private static void agreeWithMaps(long seed, boolean withValues, int names, int steps) {
        Random random = new Random(seed);
        FieldTable table = new FieldTable(withValues);
        Map<String, String> model = new LinkedHashMap<>();
        for (int step = 0; step < steps; step++) {
            String name = "n" + random.nextInt(names);
            int action = random.nextInt(10);
            String value = withValues ? "v" + step : "";
            String answer;
            String expected;
            if (action < 3) {
                answer = text(remove(table, name));
                expected = model.remove(name);
            } else if (action < 5) {
                answer = text(get(table, name));
                expected = model.get(name);
            } else {
                expected = model.get(name);
                if (expected == null) {
                    model.put(name, value);
                } else {
                    model.replace(name, value); // keeps its place, as the compact layout does
                }
                answer = text(put(table, name, withValues ? value : null));
            }
            if (!Objects.equals(answer, expected) || table.size() != model.size()) { // one assertion per step is slow
                assertThat(answer).as("seed %d step %d answer", seed, step).isEqualTo(expected);
                assertThat(table.size()).as("seed %d step %d size", seed, step).isEqualTo(model.size());
            }
            if (step % 5000 == 4999 || (table.moving() && step % 7 == 0)) {
                assertAgrees(table, model);
            }
            if (table.compact() && step % 101 == 0) {
                List<String> ordered = new ArrayList<>();
                model.forEach((n, v) -> ordered.add(n + "=" + v));
                assertThat(walk(table)).as("seed %d step %d: in the order first set", seed, step).isEqualTo(ordered);
            }
        }
        assertAgrees(table, model);
    }

    private static void assertAgrees(FieldTable table, Set<String> model) {
        Map<String, String> asMap = new HashMap<>();
        model.forEach(name -> asMap.put(name, ""));
        assertAgrees(table, asMap);
    }

    /** Size, every lookup and a walk listing each field exactly once with its value. */
    private static void assertAgrees(FieldTable table, Map<String, String> model) {
        assertThat(table.size()).isEqualTo(model.size());
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, String> field : model.entrySet()) {
            String found = text(get(table, field.getKey()));
            if (!field.getValue().equals(found)) {
                wrong.add(field.getKey() + " read " + found);
            }
        }
        assertThat(wrong).as("fields read otherwise than set").isEmpty();
        List<String> walked = walk(table);
        Set<String> expected = new HashSet<>();
        model.forEach((name, value) -> expected.add(name + "=" + value));
        assertThat(walked).as("walked as many as held").hasSize(model.size());
        assertThat(new HashSet<>(walked)).as("each once, with its value").isEqualTo(expected);
    }

    private static List<String> walk(FieldTable table) {
        List<String> out = new ArrayList<>();
        table.forEach((name, value) -> out.add(text(name) + "=" + text(value)));
        return out;
    }

    private static byte[] put(FieldTable table, String name, String value) {
        byte[] bytes = bytes(name);
        return table.put(bytes, FieldTable.hashOf(bytes), value == null ? null : bytes(value));
    }

    private static byte[] get(FieldTable table, String name) {
        byte[] bytes = bytes(name);
        return table.get(bytes, FieldTable.hashOf(bytes));
    }

    private static byte[] remove(FieldTable table, String name) {
        byte[] bytes = bytes(name);
        return table.remove(bytes, FieldTable.hashOf(bytes));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
