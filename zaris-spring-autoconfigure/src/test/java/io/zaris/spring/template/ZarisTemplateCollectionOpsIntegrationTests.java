package io.zaris.spring.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.zaris.client.CrossSegmentKeysException;
import io.zaris.client.ListEnd;
import io.zaris.client.ScoredMember;
import io.zaris.client.ZarisClient;
import io.zaris.model.KvStatus;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.SharedTestCluster;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisWrongTypeException;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The template's further collection operations (multi-field hash reads, list index/set/trim/remove/move and the
 * blocking pop, set pops, random members and algebra, sorted-set pops, counts, range removal and reverse ranges)
 * against a real two-node cluster: list and hash values through the serializer, members as text, each operation under
 * its observed name. Each test uses its own hash tag.
 */
@Tag("in-process-cluster")
class ZarisTemplateCollectionOpsIntegrationTests {

    private final List<String> observed = Collections.synchronizedList(new ArrayList<>());
    private final ZarisClient client = SharedTestCluster.client();
    private final ZarisTemplate template = new ZarisTemplate(client,
            new JdkZarisSerializer(ClassAllowList.of(List.of("io.zaris.spring.template.*")), null),
            new EntrySizeSample(), new RecordingObserver(observed));
    private final String p = "{tplo-" + UUID.randomUUID() + "}:";

    @Test
    void hashShouldReadSeveralFieldsAndTellItsFields() {
        String key = p + "user";
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("profile", new Profile("ada", 36));
        fields.put("nickname", "countess");
        template.hashPut(key, fields);

        assertThat(template.hashGetMany(key, Object.class, "nickname", "missing", "profile"))
                .containsExactly(Map.entry("nickname", "countess"), Map.entry("profile", new Profile("ada", 36)));
        assertThat(template.hashContains(key, "profile")).isTrue();
        assertThat(template.hashContains(key, "missing")).isFalse();
        assertThat(template.hashFields(key)).containsExactly("profile", "nickname");
        assertThat(template.hashSize(key)).isEqualTo(2);
        assertThat(template.hashSize(p + "absent")).isZero();
        assertThat(observed).contains("hash_get_many", "hash_contains", "hash_fields", "hash_size");
    }

    @Test
    void listShouldBeIndexedChangedInPlaceAndMovedBetweenKeysOfOneTag() {
        String jobs = p + "jobs";
        String done = p + "done";
        template.listPush(jobs, ListEnd.TAIL, new Profile("ada", 36), new Profile("alan", 41), new Profile("ada", 36),
                new Profile("grace", 85));

        assertThat(template.listIndex(jobs, -1, Profile.class)).contains(new Profile("grace", 85));
        assertThat(template.listIndex(jobs, 9, Profile.class)).isEmpty();
        template.listSet(jobs, 1, new Profile("edsger", 72));
        assertThat(template.listRemove(jobs, 0, new Profile("ada", 36))).as("compared serialized").isEqualTo(2);
        assertThat(template.listRange(jobs, 0, -1, Profile.class)).extracting(Profile::name).containsExactly("edsger", "grace");
        assertThat(template.listMove(jobs, done, ListEnd.HEAD, ListEnd.TAIL, Profile.class))
                .contains(new Profile("edsger", 72));
        template.listTrim(jobs, 1, -1);
        assertThat(template.listLength(jobs)).as("trimmed to nothing, the list went").isZero();
        assertThat(template.listMove(jobs, done, ListEnd.HEAD, ListEnd.TAIL, Profile.class)).isEmpty();
        assertThatExceptionOfType(ZarisStatusException.class).isThrownBy(() -> template.listSet(jobs, 0, "x"))
                .satisfies(e -> assertThat(e.status()).isEqualTo(KvStatus.BAD_REQUEST));
        assertThatExceptionOfType(CrossSegmentKeysException.class)
                .isThrownBy(() -> template.listMove(jobs, SegmentKeys.keyOfAnotherSegmentThan(client, jobs), ListEnd.HEAD, ListEnd.HEAD,
                        Profile.class));

        assertThat(template.listBlockingPop(done, ListEnd.HEAD, Duration.ofSeconds(5), Profile.class))
                .contains(new Profile("edsger", 72));
        assertThat(template.listBlockingPop(done, ListEnd.HEAD, Duration.ofMillis(200), Profile.class)).isEmpty();
        CompletableFuture<Optional<Profile>> waiting = template.async().listBlockingPop(done, ListEnd.TAIL,
                Duration.ofSeconds(30), Profile.class);
        template.listPush(done, ListEnd.HEAD, new Profile("barbara", 50));
        assertThat(waiting.join()).contains(new Profile("barbara", 50));
        assertThat(observed).contains("list_index", "list_set", "list_remove", "list_move", "list_trim",
                "list_blocking_pop");
    }

    @Test
    void setsShouldPopPickAndCombineKeysOfOneTag() {
        String a = p + "a";
        String b = p + "b";
        String dest = p + "dest";
        template.setAdd(a, "x", "y", "z");
        template.setAdd(b, "y", "z", "w");

        assertThat(template.setIntersection(a, b)).containsExactly("y", "z");
        assertThat(template.setUnion(a, b)).containsExactlyInAnyOrder("x", "y", "z", "w");
        assertThat(template.setDifference(a, b)).containsExactly("x");
        assertThat(template.setUnionStore(dest, a, b)).isEqualTo(4);
        assertThat(template.setIntersectionStore(dest, a, b)).isEqualTo(2);
        assertThat(template.setMembers(dest)).containsExactlyInAnyOrder("y", "z");
        assertThat(template.setDifferenceStore(dest, b, a)).isEqualTo(1);
        assertThat(template.setMembers(dest)).containsExactly("w");
        assertThat(template.setRandomMembers(a, -4)).hasSize(4).isSubsetOf("x", "y", "z");
        assertThat(template.setPop(a, 3)).containsExactlyInAnyOrder("x", "y", "z");
        assertThat(template.setSize(a)).isZero();
        assertThat(observed).contains("set_intersection", "set_union", "set_difference", "set_union_store",
                "set_intersection_store", "set_difference_store", "set_random_members", "set_pop");
    }

    @Test
    void sortedSetsShouldPopCountRemoveByScoreAndRangeInReverse() {
        String key = p + "board";
        template.sortedSetAdd(key, Map.of("ada", 30.0, "alan", 20.0, "grace", 50.0, "edsger", 40.0));

        assertThat(template.sortedSetReverseRange(key, 0, 1)).extracting(ScoredMember::member).containsExactly("grace", "edsger");
        assertThat(template.sortedSetReverseRangeByScore(key, 20, 30)).extracting(ScoredMember::member)
                .containsExactly("ada", "alan");
        assertThat(template.sortedSetCount(key, 25, 45)).isEqualTo(2);
        assertThat(template.sortedSetPopMax(key, 1)).containsExactly(new ScoredMember("grace", 50.0));
        assertThat(template.sortedSetPopMin(key, 1)).containsExactly(new ScoredMember("alan", 20.0));
        assertThat(template.sortedSetRemoveRangeByScore(key, 35, Double.POSITIVE_INFINITY)).isEqualTo(1);
        assertThat(template.sortedSetRange(key, 0, -1)).containsExactly(new ScoredMember("ada", 30.0));
        assertThatExceptionOfType(ZarisWrongTypeException.class).isThrownBy(() -> template.setPop(key, 1));
        assertThat(observed).contains("sorted_set_range", "sorted_set_count", "sorted_set_pop", "sorted_set_remove_range");
    }

    record Profile(String name, int age) implements Serializable {
    }
}
