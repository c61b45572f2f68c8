package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class SequenceValueTests {

    @Test
    void aValueCarriesItsSequenceNumberBackAtItsFixedSize() {
        byte[] value = SequenceValue.encode(123_456_789_012L);
        assertThat(value).hasSize(SequenceValue.BYTES);
        assertThat(SequenceValue.decode(value)).isEqualTo(123_456_789_012L);
        assertThat(SequenceValue.decode(SequenceValue.encode(1))).isEqualTo(1);
    }

    @Test
    void anAbsentKeyReadsAsNoWrite() {
        assertThat(SequenceValue.decode(null)).isEqualTo(SequenceValue.ABSENT);
    }

    @Test
    void aValueOfAnotherSizeOrWithoutASequenceIsMalformed() {
        assertThat(SequenceValue.decode(new byte[10])).isEqualTo(SequenceValue.MALFORMED);
        assertThat(SequenceValue.decode(new byte[SequenceValue.BYTES])).isEqualTo(SequenceValue.MALFORMED);
    }

    @Test
    void sequencesStartAtOne() {
        assertThatIllegalArgumentException().isThrownBy(() -> SequenceValue.encode(0));
    }
}
