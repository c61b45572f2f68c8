package io.zaris.spring.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.client.ListEnd;
import io.zaris.client.ScoredMember;
import io.zaris.client.ZarisClient;
import io.zaris.model.KvStatus;
import io.zaris.spring.EntrySizeSample;
import io.zaris.spring.SharedTestCluster;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import io.zaris.spring.serialization.ZarisSerializationException;
import io.zaris.transport.ZarisWrongTypeException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * The template's hash, list, set and sorted-set operations against a real two-node cluster: values through the
 * serializer, members as text, a key of another type as {@link ZarisWrongTypeException}. Each test uses its own key
 * prefix.
 */
class ZarisTemplateCollectionTests {

    /** Every operation name the template hands its observer, from any thread. */
    private final List<String> observed = Collections.synchronizedList(new ArrayList<>());
    private final ZarisClient client = SharedTestCluster.client();
    private final ZarisTemplate template = new ZarisTemplate(client,
            new JdkZarisSerializer(ClassAllowList.of(List.of("io.zaris.spring.template.*")), null),
            new EntrySizeSample(), new RecordingObserver(observed));
    private final String p = "tplc-" + UUID.randomUUID() + ":";

    @Test
    void hashShouldKeepSerializedFieldValuesAndTextCounters() {
        String key = p + "user";
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("profile", new Profile("ada", 36));
        fields.put("nickname", "countess");

        assertThat(template.hashPut(key, fields)).isEqualTo(2);
        assertThat(template.hashPut(key, "nickname", "enchantress")).isFalse();
        assertThat(template.hashPut(key, "city", "London")).isTrue();

        assertThat(template.hashGet(key, "profile", Profile.class)).contains(new Profile("ada", 36));
        assertThat(template.hashGet(key, "nickname", String.class)).contains("enchantress");
        assertThat(template.hashGet(key, "missing", String.class)).isEmpty();
        assertThat(template.hashGet(p + "absent", "profile", Profile.class)).isEmpty();
        assertThat(template.hashGetAll(key, Object.class)).containsExactly(
                Map.entry("profile", new Profile("ada", 36)), Map.entry("nickname", "enchantress"),
                Map.entry("city", "London"));

        assertThat(template.hashIncrement(key, "visits", 2)).isEqualTo(2);
        assertThat(template.hashIncrement(key, "visits", 3)).isEqualTo(5);
        // a counter field is decimal text, as the Redis port shows it, not a serialized Long
        assertThat(new String(client.hashGet(key, "visits").join(), StandardCharsets.US_ASCII)).isEqualTo("5");

        assertThat(template.hashDelete(key, "city", "visits", "missing")).isEqualTo(2);
        assertThat(template.hashGetAll(key, Object.class)).containsOnlyKeys("profile", "nickname");
        assertThat(observed).contains("hash_put", "hash_get", "hash_get_all", "hash_increment", "hash_delete");
    }

    @Test
    void hashGetAsTheWrongClassShouldNameKeyFieldAndTypes() {
        String key = p + "user";
        template.hashPut(key, "profile", new Profile("ada", 36));

        assertThatExceptionOfType(ZarisSerializationException.class)
                .isThrownBy(() -> template.hashGet(key, "profile", String.class))
                .withMessageContaining(key).withMessageContaining("field 'profile'")
                .withMessageContaining(Profile.class.getName()).withMessageContaining("java.lang.String");
    }

    @Test
    void listShouldPushAndPopSerializedValuesAtEitherEnd() {
        String key = p + "queue";

        assertThat(template.listPush(key, ListEnd.TAIL, new Profile("ada", 36), new Profile("alan", 41))).isEqualTo(2);
        // pushed one after the other at the head: the last one pushed comes first
        assertThat(template.listPush(key, ListEnd.HEAD, new Profile("grace", 85), new Profile("edsger", 72)))
                .isEqualTo(4);

        assertThat(template.listRange(key, 0, -1, Profile.class)).extracting(Profile::name)
                .containsExactly("edsger", "grace", "ada", "alan");
        assertThat(template.listLength(key)).isEqualTo(4);
        assertThat(template.listPop(key, ListEnd.HEAD, Profile.class)).contains(new Profile("edsger", 72));
        assertThat(template.listPop(key, ListEnd.TAIL, 2, Profile.class)).extracting(Profile::name)
                .containsExactly("alan", "ada");
        assertThat(template.listPop(key, ListEnd.TAIL, 5, Profile.class)).extracting(Profile::name)
                .containsExactly("grace");
        assertThat(template.listPop(key, ListEnd.HEAD, Profile.class)).isEmpty();
        assertThat(template.listLength(key)).isZero();
        assertThat(template.get(key, Object.class)).as("the list went with its last element").isEmpty();
        assertThat(observed).contains("list_push", "list_range", "list_length", "list_pop");
    }

    @Test
    void setShouldAddRemoveAndTellMembers() {
        String key = p + "tags";

        assertThat(template.setAdd(key, "java", "cache", "java")).isEqualTo(2);
        assertThat(template.setAdd(key, "cache", "redis")).isEqualTo(1);
        assertThat(template.setMembers(key)).containsExactly("java", "cache", "redis");
        assertThat(template.setContains(key, "redis")).isTrue();
        assertThat(template.setContains(key, "python")).isFalse();
        assertThat(template.setSize(key)).isEqualTo(3);
        assertThat(template.setRemove(key, "redis", "python")).isEqualTo(1);
        assertThat(template.setSize(key)).isEqualTo(2);
        assertThat(template.setMembers(p + "absent")).isEmpty();
        assertThat(observed).contains("set_add", "set_members", "set_contains", "set_size", "set_remove");
    }

    @Test
    void sortedSetShouldRankAndRangeByScore() {
        String key = p + "board";

        assertThat(template.sortedSetAdd(key, Map.of("ada", 30.0, "alan", 20.0, "grace", 50.0))).isEqualTo(3);
        assertThat(template.sortedSetAdd(key, "alan", 25.0)).isFalse();
        assertThat(template.sortedSetIncrement(key, "ada", 25.0)).isEqualTo(55.0);

        assertThat(template.sortedSetRange(key, 0, -1)).containsExactly(new ScoredMember("alan", 25.0),
                new ScoredMember("grace", 50.0), new ScoredMember("ada", 55.0));
        assertThat(template.sortedSetRangeByScore(key, 30.0, Double.POSITIVE_INFINITY)).extracting(ScoredMember::member)
                .containsExactly("grace", "ada");
        assertThat(template.sortedSetRank(key, "ada", true)).isEqualTo(OptionalLong.of(0));
        assertThat(template.sortedSetRank(key, "ada", false)).isEqualTo(OptionalLong.of(2));
        assertThat(template.sortedSetRank(key, "nobody", false)).isEmpty();
        assertThat(template.sortedSetScore(key, "grace")).contains(50.0);
        assertThat(template.sortedSetScore(key, "nobody")).isEmpty();
        assertThat(template.sortedSetRemove(key, "alan", "nobody")).isEqualTo(1);
        assertThat(template.sortedSetSize(key)).isEqualTo(2);
        assertThat(observed).contains("sorted_set_add", "sorted_set_increment", "sorted_set_range", "sorted_set_rank",
                "sorted_set_score", "sorted_set_remove", "sorted_set_size");
    }

    @Test
    void aKeyOfAnotherTypeShouldFailAsWrongTypeAndChangeNothing() {
        String text = p + "text";
        String hash = p + "hash";
        String list = p + "list";
        template.put(text, "a string");
        template.hashPut(hash, "field", "value");
        template.listPush(list, ListEnd.TAIL, "element");

        assertWrongType(() -> template.hashGet(text, "field", String.class));
        assertWrongType(() -> template.listPush(hash, ListEnd.TAIL, "x"));
        assertWrongType(() -> template.setAdd(list, "member"));
        assertWrongType(() -> template.sortedSetAdd(hash, "member", 1.0));
        assertWrongType(() -> template.hashIncrement(list, "counter", 1));
        // string reads and writes meet collections the same way
        assertWrongType(() -> template.get(list, String.class));
        assertWrongType(() -> template.increment(hash, 1));

        assertThat(template.get(text, String.class)).contains("a string");
        assertThat(template.hashGetAll(hash, String.class)).containsExactly(Map.entry("field", "value"));
        assertThat(template.listRange(list, 0, -1, String.class)).containsExactly("element");
    }

    @Test
    void theAsyncTemplateShouldCompleteWithWrongTypeAsItsCause() {
        String key = p + "text";
        template.put(key, "a string");

        CompletableFuture<Long> pushed = template.async().listPush(key, ListEnd.HEAD, "x");

        assertThatThrownBy(pushed::join).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(ZarisWrongTypeException.class)
                .satisfies(e -> assertThat(((ZarisWrongTypeException) e).status()).isEqualTo(KvStatus.WRONG_TYPE));
        assertThat(template.async().listLength(p + "absent").join()).isZero();
    }

    @Test
    void badArgumentsShouldFailBeforeAnythingIsSent() {
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> template.hashPut(p + "h", Map.of()));
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> template.listPush(p + "l", ListEnd.TAIL));
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> template.sortedSetAdd(p + "z", "m", Double.NaN));
        assertThatExceptionOfType(NullPointerException.class)
                .isThrownBy(() -> template.listPush(p + "l", ListEnd.TAIL, "a", null));
        assertThat(template.listLength(p + "l")).isZero();
    }

    private static void assertWrongType(Runnable call) {
        assertThatExceptionOfType(ZarisWrongTypeException.class).isThrownBy(call::run)
                .satisfies(e -> assertThat(e.status()).isEqualTo(KvStatus.WRONG_TYPE));
    }

    record Profile(String name, int age) implements Serializable {
    }
}
