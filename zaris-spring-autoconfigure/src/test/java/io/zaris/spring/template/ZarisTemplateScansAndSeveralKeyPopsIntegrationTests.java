package io.zaris.spring.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import io.zaris.client.CrossSegmentKeysException;
import io.zaris.client.ListEnd;
import io.zaris.client.PoppedMembers;
import io.zaris.client.ScoredMember;
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
 * The template's scans (HSCAN, SSCAN, ZSCAN with MATCH), random picks (HRANDFIELD, ZRANDMEMBER) and pops over several
 * keys (LMPOP, ZMPOP, BLMPOP, BZMPOP) against a real two-node cluster: hash values and list elements through the
 * serializer, members as text, each operation under its observed name. Each test uses its own hash tag.
 */
@Tag("in-process-cluster")
class ZarisTemplateScansAndSeveralKeyPopsIntegrationTests {

    private final List<String> observed = Collections.synchronizedList(new ArrayList<>());
    private final ZarisClient client = SharedTestCluster.client();
    private final ZarisTemplate template = new ZarisTemplate(client,
            new JdkZarisSerializer(ClassAllowList.of(List.of("io.zaris.spring.template.*")), null),
            new EntrySizeSample(), new RecordingObserver(observed));
    private final String p = "{tpls-" + UUID.randomUUID() + "}:";

    @Test
    void scansAndRandomPicksShouldAnswerThroughTheSerializer() {
        String session = p + "session";
        template.hashPut(session, Map.of("user:ada", new Profile("ada", 36), "user:alan", new Profile("alan", 41),
                "cart", "three items"));
        assertThat(template.hashScan(session, "user:*", Profile.class)).containsOnly(
                Map.entry("user:ada", new Profile("ada", 36)), Map.entry("user:alan", new Profile("alan", 41)));
        assertThat(template.async().hashScan(session, "c?rt", String.class).join()).containsOnly(Map.entry("cart", "three items"));
        assertThat(template.hashRandomFields(session, -4)).hasSize(4).isSubsetOf("user:ada", "user:alan", "cart");
        List<Map.Entry<String, Object>> entries = template.hashRandomEntries(session, 5, Object.class);
        assertThat(entries).containsExactlyInAnyOrder(Map.entry("user:ada", new Profile("ada", 36)),
                Map.entry("user:alan", new Profile("alan", 41)), Map.entry("cart", "three items"));

        String tags = p + "tags";
        template.setAdd(tags, "java", "jvm", "cache");
        assertThat(template.setScan(tags, "j*")).containsExactlyInAnyOrder("java", "jvm");
        String board = p + "board";
        template.sortedSetAdd(board, Map.of("ada", 30.0, "alan", 20.0, "grace", 50.0));
        assertThat(template.sortedSetScan(board, "a*")).containsExactly(new ScoredMember("alan", 20.0),
                new ScoredMember("ada", 30.0));
        assertThat(template.sortedSetRandomMembers(board, 2)).hasSize(2).doesNotHaveDuplicates();
        assertThat(template.sortedSetRandomMembersWithScores(board, -2)).hasSize(2).isSubsetOf(
                new ScoredMember("ada", 30.0), new ScoredMember("alan", 20.0), new ScoredMember("grace", 50.0));

        assertThatExceptionOfType(ZarisWrongTypeException.class).isThrownBy(() -> template.setScan(board, null));
        assertThat(observed).contains("hash_scan", "hash_random_fields", "set_scan", "sorted_set_scan",
                "sorted_set_random_members");
    }

    @Test
    void popsOverSeveralKeysShouldTakeFromTheFirstKeyHoldingTheStructure() {
        String urgent = p + "urgent";
        String jobs = p + "jobs";
        template.listPush(jobs, ListEnd.TAIL, new Profile("ada", 36), new Profile("alan", 41), new Profile("grace", 85));
        assertThat(template.listPop(List.of(urgent, jobs), ListEnd.HEAD, 2, Profile.class))
                .contains(Map.entry(jobs, List.of(new Profile("ada", 36), new Profile("alan", 41))));
        assertThat(template.listBlockingPop(List.of(urgent, jobs), ListEnd.TAIL, 5, Duration.ofSeconds(5), Profile.class))
                .contains(Map.entry(jobs, List.of(new Profile("grace", 85))));
        assertThat(template.listPop(List.of(urgent, jobs), ListEnd.HEAD, 1, Profile.class)).isEmpty();
        CompletableFuture<Optional<Map.Entry<String, List<Profile>>>> waiting = template.async().listBlockingPop(
                List.of(urgent, jobs), ListEnd.HEAD, 2, Duration.ofSeconds(30), Profile.class);
        template.listPush(urgent, ListEnd.TAIL, new Profile("edsger", 72));
        assertThat(waiting.join()).contains(Map.entry(urgent, List.of(new Profile("edsger", 72))));

        String timers = p + "timers";
        template.sortedSetAdd(timers, Map.of("t1", 1.0, "t2", 2.0, "t3", 3.0));
        assertThat(template.sortedSetPopMin(List.of(p + "none", timers), 2)).contains(new PoppedMembers(timers,
                List.of(new ScoredMember("t1", 1.0), new ScoredMember("t2", 2.0))));
        assertThat(template.async().sortedSetPopMax(List.of(timers), 2).join())
                .contains(new PoppedMembers(timers, List.of(new ScoredMember("t3", 3.0))));
        assertThat(template.sortedSetPopMax(List.of(timers), 1)).isEmpty();
        assertThat(template.sortedSetBlockingPopMin(List.of(timers), 3, Duration.ofMillis(200))).isEmpty();
        template.sortedSetAdd(timers, Map.of("t4", 4.0, "t5", 5.0));
        assertThat(template.sortedSetBlockingPopMax(List.of(p + "none", timers), 3, Duration.ofSeconds(5)))
                .contains(new PoppedMembers(timers, List.of(new ScoredMember("t5", 5.0), new ScoredMember("t4", 4.0))));

        assertThatExceptionOfType(CrossSegmentKeysException.class).isThrownBy(() ->
                template.listPop(List.of(jobs, SegmentKeys.keyOfAnotherSegmentThan(client, jobs)), ListEnd.HEAD, 1, Profile.class));
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> template.sortedSetPopMin(List.of(timers), 0));
        assertThat(observed).contains("list_pop", "list_blocking_pop", "sorted_set_pop", "sorted_set_blocking_pop");
    }

    record Profile(String name, int age) implements Serializable {
    }
}
