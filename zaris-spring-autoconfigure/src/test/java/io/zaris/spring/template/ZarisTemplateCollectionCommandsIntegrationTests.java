package io.zaris.spring.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.zaris.client.CrossSegmentKeysException;
import io.zaris.client.InsertPosition;
import io.zaris.client.LexBound;
import io.zaris.client.ListEnd;
import io.zaris.client.ListPositionOptions;
import io.zaris.client.PoppedMember;
import io.zaris.client.RangeLimit;
import io.zaris.client.ScoreBound;
import io.zaris.client.ScoredMember;
import io.zaris.client.SortedSetAddOptions;
import io.zaris.client.ZarisClient;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.SharedTestCluster;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import io.zaris.transport.ZarisWrongTypeException;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The template's conditional adds, lexicographic and bounded ranges, several-member reads and several-key set, list
 * and hash operations against a real two-node cluster: list and hash values through the serializer, members as text,
 * each operation under its observed name. Each test uses its own hash tag.
 */
@Tag("in-process-cluster")
class ZarisTemplateCollectionCommandsIntegrationTests {

    private final List<String> observed = Collections.synchronizedList(new ArrayList<>());
    private final ZarisClient client = SharedTestCluster.client();
    private final ZarisTemplate template = new ZarisTemplate(client,
            new JdkZarisSerializer(ClassAllowList.of(List.of("io.zaris.spring.template.*")), null),
            new EntrySizeSample(), new RecordingObserver(observed));
    private final String p = "{tplc-" + UUID.randomUUID() + "}:";

    @Test
    void sortedSetsShouldAddUnderConditionsAndAnswerLexAndBoundedRanges() {
        String key = p + "board";
        template.sortedSetAdd(key, Map.of("ada", 30.0, "alan", 20.0));
        assertThat(template.sortedSetAdd(key, Map.of("ada", 40.0, "grace", 50.0),
                SortedSetAddOptions.builder().onlyExisting().countChanged().build())).isEqualTo(1);
        assertThat(template.sortedSetIncrement(key, "alan", 5, SortedSetAddOptions.builder().onlyLower().build())).isEmpty();
        assertThat(template.sortedSetIncrement(key, "alan", -5, SortedSetAddOptions.builder().onlyLower().build()))
                .contains(15.0);
        assertThat(template.sortedSetScores(key, "ada", "grace", "alan")).containsExactly(Map.entry("ada", 40.0),
                Map.entry("alan", 15.0));
        assertThat(template.sortedSetRangeByScore(key, ScoreBound.exclusive(15), ScoreBound.unbounded(), RangeLimit.ALL))
                .containsExactly(new ScoredMember("ada", 40.0));
        assertThat(template.sortedSetReverseRangeByScore(key, ScoreBound.unbounded(), ScoreBound.unbounded(),
                RangeLimit.of(0, 1))).containsExactly(new ScoredMember("ada", 40.0));
        assertThat(template.sortedSetCount(key, ScoreBound.inclusive(15), ScoreBound.exclusive(40))).isEqualTo(1);
        assertThat(template.sortedSetRemoveRangeByRank(key, -1, -1)).isEqualTo(1);
        assertThat(template.sortedSetRemoveRangeByScore(key, ScoreBound.unbounded(), ScoreBound.inclusive(15))).isEqualTo(1);
        assertThat(template.sortedSetSize(key)).isZero();

        String names = p + "names";
        template.sortedSetAdd(names, Map.of("a", 0.0, "b", 0.0, "c", 0.0, "d", 0.0));
        assertThat(template.sortedSetRangeByLex(names, LexBound.exclusive("a"), LexBound.unbounded(), RangeLimit.of(0, 2)))
                .containsExactly("b", "c");
        assertThat(template.sortedSetReverseRangeByLex(names, LexBound.unbounded(), LexBound.inclusive("c"),
                RangeLimit.ALL)).containsExactly("c", "b", "a");
        assertThat(template.sortedSetLexCount(names, LexBound.inclusive("b"), LexBound.inclusive("c"))).isEqualTo(2);
        assertThat(template.sortedSetRemoveRangeByLex(names, LexBound.inclusive("b"), LexBound.unbounded())).isEqualTo(3);
        assertThat(template.async().sortedSetRangeByLex(names, LexBound.unbounded(), LexBound.unbounded(), RangeLimit.ALL)
                .join()).containsExactly("a");
        template.put(p + "plain", "text");
        assertThatExceptionOfType(ZarisWrongTypeException.class)
                .isThrownBy(() -> template.sortedSetLexCount(p + "plain", LexBound.unbounded(), LexBound.unbounded()));
        template.sortedSetAdd(p + "timers", Map.of("t1", 5.0, "t2", 7.0));
        assertThat(template.sortedSetBlockingPopMin(List.of(p + "none", p + "timers"), Duration.ofSeconds(5)))
                .contains(new PoppedMember(p + "timers", new ScoredMember("t1", 5.0)));
        assertThat(template.async().sortedSetBlockingPopMax(List.of(p + "timers"), Duration.ofSeconds(5)).join())
                .contains(new PoppedMember(p + "timers", new ScoredMember("t2", 7.0)));
        assertThat(template.sortedSetBlockingPopMax(List.of(p + "timers"), Duration.ofMillis(200))).isEmpty();
        assertThat(observed).contains("sorted_set_add", "sorted_set_increment", "sorted_set_scores", "sorted_set_range",
                "sorted_set_count", "sorted_set_remove_range", "sorted_set_blocking_pop");
    }

    @Test
    void setsShouldAnswerSeveralMembersMoveAndCountAnIntersection() {
        String a = p + "a";
        String b = p + "b";
        template.setAdd(a, "x", "y", "z");
        template.setAdd(b, "y", "z");
        assertThat(template.setContainsMany(a, "z", "w")).containsExactly(true, false);
        assertThat(template.setIntersectionSize(a, b)).isEqualTo(2);
        assertThat(template.setIntersectionSize(1, a, b)).isEqualTo(1);
        assertThat(template.setMove(a, b, "x")).isTrue();
        assertThat(template.async().setMove(a, b, "x").join()).isFalse();
        assertThat(template.setMembers(b)).containsExactlyInAnyOrder("x", "y", "z");
        assertThatExceptionOfType(CrossSegmentKeysException.class)
                .isThrownBy(() -> template.setMove(a, SegmentKeys.keyOfAnotherSegmentThan(client, a), "y"));
        assertThat(observed).contains("set_contains_many", "set_intersection_size", "set_move");
    }

    @Test
    void listsShouldPushIfPresentInsertFindAndWaitOnSeveralKeys() {
        String jobs = p + "jobs";
        assertThat(template.listPushIfExists(jobs, ListEnd.TAIL, new Profile("ada", 36))).isZero();
        template.listPush(jobs, ListEnd.TAIL, new Profile("ada", 36), new Profile("alan", 41));
        assertThat(template.listPushIfExists(jobs, ListEnd.TAIL, new Profile("ada", 36))).isEqualTo(3);
        assertThat(template.listInsert(jobs, InsertPosition.BEFORE, new Profile("alan", 41), new Profile("grace", 85)))
                .as("the pivot compared serialized").isEqualTo(4);
        assertThat(template.listPosition(jobs, new Profile("ada", 36), ListPositionOptions.builder().rank(-1).build()))
                .hasValue(3);
        assertThat(template.listPositions(jobs, new Profile("ada", 36), 0, ListPositionOptions.DEFAULT)).containsExactly(0L, 3L);
        assertThat(template.listPosition(jobs, new Profile("edsger", 72), ListPositionOptions.DEFAULT)).isEmpty();

        assertThat(template.listBlockingPop(List.of(p + "none", jobs), ListEnd.TAIL, Duration.ofSeconds(5), Profile.class))
                .contains(Map.entry(jobs, new Profile("ada", 36)));
        String running = p + "running";
        assertThat(template.listBlockingMove(jobs, running, ListEnd.HEAD, ListEnd.TAIL, Duration.ofSeconds(5), Profile.class))
                .contains(new Profile("ada", 36));
        assertThat(template.listBlockingMove(p + "none", running, ListEnd.HEAD, ListEnd.TAIL, Duration.ofMillis(200),
                Profile.class)).isEmpty();
        CompletableFuture<Optional<Map.Entry<String, Profile>>> waiting = template.async().listBlockingPop(
                List.of(p + "none", running), ListEnd.HEAD, Duration.ofSeconds(30), Profile.class);
        assertThat(waiting.join()).contains(Map.entry(running, new Profile("ada", 36)));
        assertThat(observed).contains("list_push_if_exists", "list_insert", "list_position", "list_blocking_pop",
                "list_blocking_move");
    }

    @Test
    void hashesShouldSetIfAbsentListValuesMeasureAValueAndIncrementByAFraction() {
        String key = p + "session";
        assertThat(template.hashPutIfAbsent(key, "profile", new Profile("ada", 36))).isTrue();
        assertThat(template.hashPutIfAbsent(key, "profile", new Profile("alan", 41))).isFalse();
        template.hashPut(key, "nickname", "countess");
        assertThat(template.hashValues(key, Object.class)).containsExactly(new Profile("ada", 36), "countess");
        assertThat(template.hashValueLength(key, "profile")).as("the serialized value's bytes")
                .isEqualTo(client.hashGet(key, "profile").join().length);
        assertThat(template.hashValueLength(key, "missing")).isZero();
        assertThat(template.hashIncrementFloat(key, "score", 2.5)).isEqualTo(2.5);
        assertThat(template.async().hashIncrementFloat(key, "score", 0.25).join()).isEqualTo(2.75);
        assertThat(observed).contains("hash_put_if_absent", "hash_values", "hash_value_length", "hash_increment");
    }

    record Profile(String name, int age) implements Serializable {
    }
}
