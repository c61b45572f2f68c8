package io.zaris.spring.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.zaris.client.CrossSegmentKeysException;
import io.zaris.client.KeyType;
import io.zaris.client.LexBound;
import io.zaris.client.ListEnd;
import io.zaris.client.RangeLimit;
import io.zaris.client.ScoreAggregate;
import io.zaris.client.ScoreBound;
import io.zaris.client.ScoredMember;
import io.zaris.client.SortedSetCombineOptions;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisNoSuchKeyException;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.SharedTestCluster;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import io.zaris.transport.ZarisWrongTypeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The template's sorted-set algebra (union, intersection and difference with weights and aggregates, their store
 * forms, the intersection's size, range stores) and its key operations of any type (type, exists, rename) against a
 * real two-node cluster: list values through the serializer, members as text, each operation under its observed name.
 * Each test uses its own hash tag.
 */
@Tag("in-process-cluster")
class ZarisTemplateSortedSetAlgebraAndKeysIntegrationTests {

    private final List<String> observed = Collections.synchronizedList(new ArrayList<>());
    private final ZarisClient client = SharedTestCluster.client();
    private final ZarisTemplate template = new ZarisTemplate(client,
            new JdkZarisSerializer(ClassAllowList.of(List.of("io.zaris.spring.template.*")), null),
            new EntrySizeSample(), new RecordingObserver(observed));
    private final String p = "{tpla-" + UUID.randomUUID() + "}:";

    @Test
    void sortedSetsShouldCombineStoreAndCountAcrossKeysOfOneTag() {
        String a = p + "a";
        String b = p + "b";
        template.sortedSetAdd(a, Map.of("x", 1.0, "y", 2.0));
        template.sortedSetAdd(b, Map.of("y", 5.0, "z", 7.0));
        assertThat(template.sortedSetUnion(a, b)).as("equal scores by member").containsExactly(new ScoredMember("x", 1.0),
                new ScoredMember("y", 7.0), new ScoredMember("z", 7.0));
        SortedSetCombineOptions weighted = SortedSetCombineOptions.builder().weights(10, 1).aggregate(ScoreAggregate.MIN)
                .build();
        assertThat(template.sortedSetUnion(weighted, a, b)).containsExactly(new ScoredMember("y", 5.0),
                new ScoredMember("z", 7.0), new ScoredMember("x", 10.0));
        assertThat(template.sortedSetIntersection(a, b)).containsExactly(new ScoredMember("y", 7.0));
        assertThat(template.sortedSetIntersection(weighted, a, b)).containsExactly(new ScoredMember("y", 5.0));
        assertThat(template.sortedSetDifference(a, b)).containsExactly(new ScoredMember("x", 1.0));
        assertThat(template.sortedSetIntersectionSize(a, b)).isEqualTo(1);
        assertThat(template.sortedSetIntersectionSize(5, a, b)).isEqualTo(1);
        assertThat(template.sortedSetUnionStore(p + "u", a, b)).isEqualTo(3);
        assertThat(template.sortedSetUnionStore(p + "uw", weighted, a, b)).isEqualTo(3);
        assertThat(template.sortedSetScore(p + "uw", "x")).contains(10.0);
        assertThat(template.sortedSetIntersectionStore(p + "i", a, b)).isEqualTo(1);
        assertThat(template.sortedSetIntersectionStore(p + "iw", weighted, a, b)).isEqualTo(1);
        assertThat(template.sortedSetDifferenceStore(p + "d", b, a)).isEqualTo(1);
        assertThat(template.sortedSetRange(p + "d", 0, -1)).containsExactly(new ScoredMember("z", 7.0));
        assertThat(template.async().sortedSetUnion(a, p + "absent").join()).hasSize(2);

        assertThat(template.sortedSetRangeStore(p + "r", p + "u", 0, 1)).isEqualTo(2);
        assertThat(template.sortedSetRange(p + "r", 0, -1)).extracting(ScoredMember::member).containsExactly("x", "y");
        assertThat(template.sortedSetReverseRangeStore(p + "r", p + "u", 0, 0)).isEqualTo(1);
        assertThat(template.sortedSetRange(p + "r", 0, -1)).extracting(ScoredMember::member).containsExactly("z");
        assertThat(template.sortedSetRangeByScoreStore(p + "r", p + "u", ScoreBound.exclusive(1), ScoreBound.unbounded(),
                RangeLimit.ALL)).isEqualTo(2);
        assertThat(template.sortedSetReverseRangeByScoreStore(p + "r", p + "u", ScoreBound.unbounded(),
                ScoreBound.unbounded(), RangeLimit.of(0, 1))).isEqualTo(1);
        template.sortedSetAdd(p + "names", Map.of("able", 0.0, "baker", 0.0, "charlie", 0.0));
        assertThat(template.sortedSetRangeByLexStore(p + "r", p + "names", LexBound.exclusive("able"), LexBound.unbounded(),
                RangeLimit.ALL)).isEqualTo(2);
        assertThat(template.sortedSetReverseRangeByLexStore(p + "r", p + "names", LexBound.unbounded(),
                LexBound.unbounded(), RangeLimit.of(0, 1))).isEqualTo(1);
        assertThat(template.sortedSetRange(p + "r", 0, -1)).containsExactly(new ScoredMember("charlie", 0.0));

        template.put(p + "plain", "text");
        assertThatExceptionOfType(ZarisWrongTypeException.class).isThrownBy(() -> template.sortedSetUnion(a, p + "plain"));
        String elsewhere = SegmentKeys.keyOfAnotherSegmentThan(client, a);
        assertThatExceptionOfType(CrossSegmentKeysException.class).isThrownBy(() -> template.sortedSetDifference(a, elsewhere));
        assertThatExceptionOfType(CrossSegmentKeysException.class)
                .isThrownBy(() -> template.sortedSetRangeStore(elsewhere, a, 0, -1));
        assertThat(observed).contains("sorted_set_union", "sorted_set_intersection", "sorted_set_difference",
                "sorted_set_union_store", "sorted_set_intersection_store", "sorted_set_difference_store",
                "sorted_set_intersection_size", "sorted_set_range_store");
    }

    @Test
    void keysShouldAnswerTheirTypeAndBeRenamedWithTheirValues() {
        template.listPush(p + "queue", ListEnd.TAIL, new Job("first"), new Job("second"));
        template.put(p + "value", new Job("stored"), Duration.ofHours(1));
        assertThat(template.type(p + "queue")).contains(KeyType.LIST);
        assertThat(template.type(p + "value")).contains(KeyType.STRING);
        assertThat(template.type(p + "absent")).isEmpty();
        assertThat(template.exists(p + "queue")).isTrue();
        assertThat(template.async().exists(p + "absent").join()).isFalse();

        template.rename(p + "queue", p + "moved");
        assertThat(template.listRange(p + "moved", 0, -1, Job.class)).containsExactly(new Job("first"), new Job("second"));
        assertThat(template.exists(p + "queue")).isFalse();
        assertThat(template.renameIfAbsent(p + "value", p + "moved")).isFalse();
        assertThat(template.renameIfAbsent(p + "value", p + "kept")).isTrue();
        assertThat(template.getVersioned(p + "kept", Job.class)).hasValueSatisfying(found -> {
            assertThat(found.value()).isEqualTo(new Job("stored"));
            assertThat(found.timeToLive()).as("the expiry moves with the value").isNotNull();
        });
        assertThatExceptionOfType(ZarisNoSuchKeyException.class).isThrownBy(() -> template.rename(p + "absent", p + "x"));
        String elsewhere = SegmentKeys.keyOfAnotherSegmentThan(client, p + "kept");
        assertThatExceptionOfType(CrossSegmentKeysException.class).isThrownBy(() -> template.rename(p + "kept", elsewhere));
        template.async().rename(p + "kept", p + "again").join();
        assertThat(template.get(p + "again", Job.class)).contains(new Job("stored"));
        assertThat(observed).contains("type", "exists", "rename", "rename_if_absent");
    }

    record Job(String name) implements java.io.Serializable {
    }
}
