package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The test-only fault switch: off by default, drops exactly the n-th increment when armed, rejects nonsense. */
@Tag("unit")
class TestFaultsTests {

    @Test
    void withoutThePropertyNothingIsDropped() {
        TestFaults none = TestFaults.parse(null);
        assertThat(none.armed()).isFalse();
        for (int i = 0; i < 1_000; i++) {
            assertThat(none.dropThisIncrement()).isFalse();
        }
    }

    @Test
    void armedItDropsExactlyTheNthIncrement() {
        TestFaults faults = TestFaults.parse("3");
        assertThat(faults.armed()).isTrue();
        assertThat(faults.dropThisIncrement()).isFalse();
        assertThat(faults.dropThisIncrement()).isFalse();
        assertThat(faults.dropThisIncrement()).isTrue();
        for (int i = 0; i < 1_000; i++) {
            assertThat(faults.dropThisIncrement()).isFalse();
        }
    }

    @Test
    void aValueThatIsNotAPositiveNumberIsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> TestFaults.parse("soon")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(TestFaults.DROP_INCREMENT_PROPERTY).hasMessageContaining("soon");
        assertThatThrownBy(() -> TestFaults.parse("0")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }

    @Test
    void theSwitchIsNoServerOption() {
        for (ServerOption option : ServerOption.values()) {
            assertThat(option.flag()).doesNotContain("fault");
        }
    }
}
