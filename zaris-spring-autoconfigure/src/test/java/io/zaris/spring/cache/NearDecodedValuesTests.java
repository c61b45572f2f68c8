package io.zaris.spring.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class NearDecodedValuesTests {

    private final NearDecodedValues values = new NearDecodedValues();

    @Test
    void anImmutableValueIsFoundForTheVeryArrayItWasDecodedFromOnly() {
        byte[] stored = {1, 2, 3};
        values.put(stored, "decoded");

        assertThat(values.get(stored)).isEqualTo("decoded");
        assertThat(values.get(new byte[] {1, 2, 3})).as("equal bytes of another entry").isNull();
    }

    @Test
    void aMutableValueIsNeverKept() {
        byte[] stored = {1};
        values.put(stored, new ArrayList<>(List.of("a")));

        assertThat(values.get(stored)).isNull();
    }

    @Test
    void onlyExactImmutableJdkTypesAndEnumsCount() {
        assertThat(NearDecodedValues.isImmutable("text")).isTrue();
        assertThat(NearDecodedValues.isImmutable(42L)).isTrue();
        assertThat(NearDecodedValues.isImmutable(new BigDecimal("1.5"))).isTrue();
        assertThat(NearDecodedValues.isImmutable(Instant.EPOCH)).isTrue();
        assertThat(NearDecodedValues.isImmutable(UUID.randomUUID())).isTrue();
        assertThat(NearDecodedValues.isImmutable(Thread.State.NEW)).isTrue();
        assertThat(NearDecodedValues.isImmutable(new BigDecimal("1.5") { })).as("a subclass may be mutable").isFalse();
        assertThat(NearDecodedValues.isImmutable(new StringBuilder("text"))).isFalse();
        assertThat(NearDecodedValues.isImmutable(List.of("a"))).isFalse();
        assertThat(NearDecodedValues.isImmutable(null)).isFalse();
    }
}
