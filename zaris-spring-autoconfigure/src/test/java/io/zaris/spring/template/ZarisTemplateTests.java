package io.zaris.spring.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.zaris.client.KeyChange;
import io.zaris.client.KeyWatch;
import io.zaris.client.KeyWatchListener;
import io.zaris.client.WatchGap;
import io.zaris.client.ZarisClient;
import io.zaris.spring.SharedTestCluster;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import io.zaris.spring.serialization.ZarisSerializationException;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** ZarisTemplate against a real two-node cluster; each test uses its own key prefix. */
class ZarisTemplateTests {

    private final ZarisTemplate template = new ZarisTemplate(SharedTestCluster.client(),
            new JdkZarisSerializer(ClassAllowList.of(List.of("io.zaris.spring.template.*")), null));
    private final String p = "tpl-" + UUID.randomUUID() + ":";

    @Test
    void putThenGetShouldReturnTheTypedValueWithVersionAndTtl() {
        long version = template.put(p + "user", new User("ada", 36), Duration.ofMinutes(5));

        ZarisValue<User> read = template.getVersioned(p + "user", User.class).orElseThrow();

        assertThat(read.value()).isEqualTo(new User("ada", 36));
        assertThat(read.version()).isEqualTo(version);
        assertThat(read.timeToLive()).isBetween(Duration.ofMinutes(4), Duration.ofMinutes(5));
        assertThat(template.get(p + "missing", User.class)).isEmpty();
    }

    @Test
    void watchShouldEmitEveryChangeOfTheKeyInOrder() {
        String key = p + "watched";
        CompletableFuture<List<KeyChange>> heard = template.watch(key).take(3)
                .collectList().toFuture();
        ZarisClient client = SharedTestCluster.client();
        try (KeyWatch probe = client.watch(key, new KeyWatchListener() {
            @Override
            public void onChange(KeyChange change) {
            }

            @Override
            public void onFellBehind(WatchGap gap) {
            }
        })) {
            // the flux's watch shares the client's per-segment stream: live once the probe's is
            await().atMost(Duration.ofSeconds(30)).until(probe::isLive);
        }
        long first = template.put(key, new User("ada", 36));
        long second = template.put(key, new User("ada", 37));
        template.delete(key);

        List<KeyChange> changes = heard.orTimeout(30, TimeUnit.SECONDS).join();
        assertThat(changes).extracting(KeyChange::version).startsWith(first, second);
        assertThat(changes).extracting(KeyChange::deleted).containsExactly(false, false, true);
    }

    @Test
    void watchShouldRefuseANullKey() {
        assertThatIllegalArgumentException().isThrownBy(() -> template.watch(null)).withMessageContaining("key");
    }

    @Test
    void getAsTheWrongTypeShouldFailNamingKeyAndTypes() {
        template.put(p + "user", new User("ada", 36));

        assertThatExceptionOfType(ZarisSerializationException.class)
                .isThrownBy(() -> template.get(p + "user", String.class))
                .withMessageContaining(p + "user").withMessageContaining(User.class.getName());
    }

    @Test
    void compareAndSetShouldApplyOnMatchingVersionAndReportAConflictOtherwise() {
        long v1 = template.put(p + "doc", "first");

        CasOutcome applied = template.compareAndSet(p + "doc", "second", v1, null);
        CasOutcome stale = template.compareAndSet(p + "doc", "third", v1, null);

        assertThat(applied.applied()).isTrue();
        assertThat(stale.isConflict()).isTrue();
        assertThat(stale.version()).isEqualTo(applied.version());
        assertThat(template.get(p + "doc", String.class)).hasValue("second");
        assertThat(template.compareAndSet(p + "absent", "x", 5, null).isMissing()).isTrue();
        assertThat(template.compareAndSet(p + "created", "x", 0, null).applied()).isTrue();
    }

    @Test
    void putIfAbsentDeleteAndExpireShouldReportWhatHappened() throws Exception {
        assertThat(template.putIfAbsent(p + "lock", "me", Duration.ofSeconds(30))).isTrue();
        assertThat(template.putIfAbsent(p + "lock", "you", Duration.ofSeconds(30))).isFalse();
        assertThat(template.delete(p + "lock")).isTrue();
        assertThat(template.delete(p + "lock")).isFalse();

        template.put(p + "short", "v");
        assertThat(template.expire(p + "short", Duration.ofMillis(100))).isTrue();
        TimeUnit.MILLISECONDS.sleep(300);
        assertThat(template.get(p + "short", String.class)).isEmpty();
    }

    @Test
    void countersShouldIncrementAtomicallyAndReadBack() {
        assertThat(template.counter(p + "visits")).isEmpty();
        assertThat(template.increment(p + "visits", 1)).isEqualTo(1);
        assertThat(template.increment(p + "visits", 41)).isEqualTo(42);
        assertThat(template.counter(p + "visits")).isEqualTo(OptionalLong.of(42));
    }

    @Test
    void multiKeyOperationsShouldWorkOnHashTaggedKeys() {
        String a = "{" + p + "cart}.a";
        String b = "{" + p + "cart}.b";

        Map<String, Long> versions = template.putAll(Map.of(a, "apple", b, "bread"), null);

        assertThat(versions).containsOnlyKeys(a, b);
        assertThat(template.getAll(List.of(a, b, "{" + p + "cart}.none"), String.class))
                .containsExactlyInAnyOrderEntriesOf(Map.of(a, "apple", b, "bread"));
        assertThat(template.deleteAll(List.of(a, b))).isEqualTo(2);
    }

    @Test
    void multiKeyOperationsOnKeysOfDifferentSegmentsShouldBeRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> template.getAll(List.of(p + "one", p + "two", p + "three", p + "four"), String.class))
                .withMessageContaining("hash tag");
    }

    @Test
    void scanShouldFilterTheKeyspaceByGlobAndPrefix() {
        template.put(p + "user:1", "a");
        template.put(p + "user:2", "b");
        template.put(p + "order:1", "c");

        assertThat(template.scan(p + "user:*")).containsExactlyInAnyOrder(p + "user:1", p + "user:2");
        assertThat(template.scan(p + "?ser:1")).containsExactly(p + "user:1");
        assertThat(template.scan(p + "user:?0")).isEmpty();
        assertThat(template.scanPrefix(p + "order:")).containsExactly(p + "order:1");
    }

    @Test
    void asyncVariantsShouldCompleteWithTheSameResults() throws Exception {
        AsyncZarisTemplate async = template.async();

        long version = async.put(p + "k", "v").get(5, TimeUnit.SECONDS);

        assertThat(async.get(p + "k", String.class).get(5, TimeUnit.SECONDS)).hasValue("v");
        assertThat(async.compareAndSet(p + "k", "w", version + 100, null).get(5, TimeUnit.SECONDS).isConflict()).isTrue();
        assertThat(async.increment(p + "n", 3).get(5, TimeUnit.SECONDS)).isEqualTo(3);
    }

    @Test
    void globShouldQuoteEverythingButStarAndQuestionMark() {
        assertThat(AsyncZarisTemplate.globToRegex("a.b*").matcher("a.bcd").matches()).isTrue();
        assertThat(AsyncZarisTemplate.globToRegex("a.b*").matcher("axbcd").matches()).isFalse();
        assertThat(AsyncZarisTemplate.globToRegex("k?").matcher("k1").matches()).isTrue();
    }

    record User(String name, int age) implements Serializable {
    }
}
