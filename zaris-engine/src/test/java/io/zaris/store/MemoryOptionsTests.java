package io.zaris.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class MemoryOptionsTests {

    private static final long HEAP = 1L << 30;

    @Test
    void sizesParseAsBytesBinaryUnitsOrAShareOfTheHeap() {
        assertThat(MemoryOptions.parseSize("1048576", HEAP)).isEqualTo(1L << 20);
        assertThat(MemoryOptions.parseSize("512k", HEAP)).isEqualTo(512L << 10);
        assertThat(MemoryOptions.parseSize("64m", HEAP)).isEqualTo(64L << 20);
        assertThat(MemoryOptions.parseSize("64MB", HEAP)).isEqualTo(64L << 20);
        assertThat(MemoryOptions.parseSize("2GiB", HEAP)).isEqualTo(2L << 30);
        assertThat(MemoryOptions.parseSize(" 25% ", HEAP)).isEqualTo(HEAP / 4);
    }

    @Test
    void badSizesAreRefusedWithTheValueInTheMessage() {
        for (String bad : new String[] {"", "lots", "-5m", "0", "150%", "0%", "12t", "99999999999g"}) {
            assertThatIllegalArgumentException().isThrownBy(() -> MemoryOptions.parseSize(bad, HEAP))
                    .withMessageContaining("'" + bad + "'");
        }
    }

    @Test
    void policiesParseByTheirRedisNames() {
        assertThat(EvictionPolicy.parse("allkeys-lru")).isEqualTo(EvictionPolicy.ALLKEYS_LRU);
        assertThat(EvictionPolicy.parse("VOLATILE_TTL")).isEqualTo(EvictionPolicy.VOLATILE_TTL);
        assertThat(EvictionPolicy.parse("volatile-lru")).isEqualTo(EvictionPolicy.VOLATILE_LRU);
        assertThat(EvictionPolicy.parse("noeviction")).isEqualTo(EvictionPolicy.NOEVICTION);
        assertThatIllegalArgumentException().isThrownBy(() -> EvictionPolicy.parse("allkeys-lfu"))
                .withMessageContaining("'allkeys-lfu'");
    }

    @Test
    void aWriteOverBudgetIsAdmittedOnlyWhenThePolicyMadeRoom() {
        assertThat(EvictionPolicy.NOEVICTION.admitsWrite(false, false)).isTrue();
        assertThat(EvictionPolicy.NOEVICTION.admitsWrite(true, false)).isFalse();
        assertThat(EvictionPolicy.ALLKEYS_LRU.admitsWrite(true, true)).isTrue();
        assertThat(EvictionPolicy.VOLATILE_LRU.admitsWrite(true, false)).isFalse();
        assertThat(EvictionPolicy.VOLATILE_TTL.admitsWrite(false, false)).isTrue();
    }

    @Test
    void theDefaultBudgetIsAFractionOfTheHeapSharedByTheNodesOfThisJvm() {
        long heap = Runtime.getRuntime().maxMemory();
        assertThat(MemoryOptions.defaults().maxBytes()).isEqualTo((long) (heap * MemoryOptions.DEFAULT_HEAP_FRACTION));
        assertThat(MemoryOptions.defaultMaxBytes(3)).isEqualTo((long) (heap * MemoryOptions.DEFAULT_HEAP_FRACTION) / 3);
    }

    @Test
    void builderChecksItsArguments() {
        assertThatIllegalArgumentException().isThrownBy(() -> MemoryOptions.builder().maxBytes(0));
        assertThatIllegalArgumentException().isThrownBy(() -> MemoryOptions.builder().evictionSamples(0));
        assertThatIllegalArgumentException().isThrownBy(() -> MemoryOptions.builder().evictionSamples(65));
        assertThatIllegalArgumentException().isThrownBy(() -> MemoryOptions.builder().expiryChecksPerRun(0));
        assertThatIllegalArgumentException().isThrownBy(() -> MemoryOptions.builder().evictionsPerRun(0));
        assertThatIllegalArgumentException().isThrownBy(() -> MemoryOptions.builder().maintenanceInterval(java.time.Duration.ZERO));
    }
}
