package io.zaris.spring.serialization;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class SerializerTests {

    private final ClassAllowList ownPackage = ClassAllowList.of(List.of("io.zaris.spring.serialization.*"));

    @Test
    void jdkShouldRoundTripAllowedTypes() {
        JdkZarisSerializer serializer = new JdkZarisSerializer(ownPackage, null);
        Order order = new Order("o-1", new BigDecimal("9.99"), List.of("a", "b"), Instant.EPOCH);

        assertThat(serializer.deserialize(serializer.serialize(order))).isEqualTo(order);
        assertThat(serializer.deserialize(serializer.serialize(Map.of("k", 1L)))).isEqualTo(Map.of("k", 1L));
    }

    @Test
    void jdkShouldRefuseAClassOutsideTheAllowListBeforeInstantiatingIt() {
        byte[] bytes = new JdkZarisSerializer(ownPackage, null).serialize(new Poisoned());
        Poisoned.instantiated = false;

        assertThatExceptionOfType(ZarisSerializationException.class)
                .isThrownBy(() -> new JdkZarisSerializer(ClassAllowList.of(List.of()), null).deserialize(bytes))
                .withMessageContaining("REJECTED").withMessageContaining("zaris.serialization.allowed-classes");
        assertThat(Poisoned.instantiated).isFalse();
    }

    @Test
    void jdkShouldNameTheTypeThatIsNotSerializable() {
        assertThatExceptionOfType(ZarisSerializationException.class)
                .isThrownBy(() -> new JdkZarisSerializer(ownPackage, null).serialize(new Plain("x")))
                .withMessageContaining(Plain.class.getName());
    }

    @Test
    void jsonShouldRoundTripRecordsAndJdkValues() {
        JsonZarisSerializer serializer = new JsonZarisSerializer(JsonMapper.builder().build(), ownPackage, null);
        Plain plain = new Plain("hello");

        byte[] bytes = serializer.serialize(plain);

        assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"@class\":\"" + Plain.class.getName() + "\"");
        assertThat(serializer.deserialize(bytes)).isEqualTo(plain);
        assertThat(serializer.deserialize(serializer.serialize("text"))).isEqualTo("text");
        assertThat(serializer.deserialize(serializer.serialize(42L))).isEqualTo(42L);
    }

    @Test
    void jsonShouldRefuseAClassOutsideTheAllowList() {
        byte[] bytes = "{\"@class\":\"com.evil.Gadget\",\"value\":{}}".getBytes(StandardCharsets.UTF_8);
        JsonZarisSerializer serializer = new JsonZarisSerializer(JsonMapper.builder().build(), ownPackage, null);

        assertThatExceptionOfType(ZarisSerializationException.class).isThrownBy(() -> serializer.deserialize(bytes))
                .withMessageContaining("com.evil.Gadget").withMessageContaining("allow-list");
        assertThatExceptionOfType(ZarisSerializationException.class)
                .isThrownBy(() -> serializer.deserialize("[1]".getBytes(StandardCharsets.UTF_8)))
                .withMessageContaining("@class");
    }

    @Test
    void allowListShouldMatchLikeObjectInputFilterPatterns() {
        ClassAllowList list = ClassAllowList.of(List.of("com.acme.*", "org.shop.**", "net.one.Thing"));

        assertThat(list.allows("com.acme.Product")).isTrue();
        assertThat(list.allows("com.acme.sub.Product")).isFalse();
        assertThat(list.allows("org.shop.deep.Cart")).isTrue();
        assertThat(list.allows("net.one.Thing")).isTrue();
        assertThat(list.allows("net.one.Other")).isFalse();
        assertThat(list.allows("java.lang.String")).isTrue();
        assertThatIllegalArgumentException().isThrownBy(() -> ClassAllowList.of(List.of("a;!b")))
                .withMessageContaining("a;!b");
    }

    record Order(String id, BigDecimal total, List<String> items, Instant at) implements Serializable {
    }

    record Plain(String text) {
    }

    static final class Poisoned implements Serializable {
        static volatile boolean instantiated;

        private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
            instantiated = true;
            in.defaultReadObject();
        }
    }
}
