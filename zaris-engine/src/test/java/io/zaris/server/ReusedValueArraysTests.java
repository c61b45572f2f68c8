package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ReusedValueArraysTests {

    private final ReusedValueArrays arrays = new ReusedValueArrays();

    @Test
    void aLengthTakenAgainInALaterFrameGetsTheSameArray() {
        byte[] first = inFrame(4096);
        byte[] second = inFrame(4096);

        assertThat(second).isSameAs(first).hasSize(4096);
    }

    @Test
    void valuesOfOneFrameNeverShareAnArray() {
        arrays.begin();
        byte[] a = arrays.take(4096);
        byte[] b = arrays.take(4096);
        arrays.end();

        assertThat(b).isNotSameAs(a);
    }

    @Test
    void aFrameHandledWithinAnotherDoesNotFreeTheOuterFramesArrays() {
        arrays.begin();
        byte[] outer = arrays.take(4096);
        arrays.begin();
        byte[] inner = arrays.take(4096);
        arrays.end();
        byte[] afterInner = arrays.take(4096);
        arrays.end();

        assertThat(inner).isNotSameAs(outer);
        assertThat(afterInner).isNotSameAs(outer).isNotSameAs(inner);
    }

    @Test
    void smallLargeAndUnbracketedValuesGetArraysOfTheirOwn() {
        assertThat(inFrame(ReusedValueArrays.MIN_REUSED_BYTES - 1)).isNotSameAs(inFrame(ReusedValueArrays.MIN_REUSED_BYTES - 1));
        assertThat(inFrame(ReusedValueArrays.MAX_REUSED_BYTES + 1)).isNotSameAs(inFrame(ReusedValueArrays.MAX_REUSED_BYTES + 1));
        assertThat(arrays.take(4096)).isNotSameAs(arrays.take(4096)); // outside begin/end nothing is lent
    }

    @Test
    void onceEverySlotIsLentAFrameGetsFreshArrays() {
        arrays.begin();
        byte[][] lent = new byte[ReusedValueArrays.SLOTS + 1][];
        for (int i = 0; i < lent.length; i++) {
            lent[i] = arrays.take(2048);
        }
        arrays.end();

        for (int i = 0; i < lent.length; i++) {
            for (int j = i + 1; j < lent.length; j++) {
                assertThat(lent[j]).isNotSameAs(lent[i]);
            }
        }
        byte[] reused = inFrame(2048);
        assertThat(Arrays.stream(lent).filter(array -> array == reused).count()).isEqualTo(1); // a pooled one, not the extra
        assertThat(reused).isNotSameAs(lent[ReusedValueArrays.SLOTS]);
    }

    @Test
    void aNewLengthReplacesTheLeastRecentlyTakenArrayAndTheOthersStay() {
        byte[][] kept = new byte[ReusedValueArrays.SLOTS][];
        for (int i = 0; i < ReusedValueArrays.SLOTS; i++) {
            kept[i] = inFrame(2048 + i);
        }
        inFrame(2048); // now the most recently taken

        inFrame(9000); // replaces 2049's array, the least recently taken

        assertThat(inFrame(2048)).isSameAs(kept[0]);
        assertThat(inFrame(2050)).isSameAs(kept[2]);
        assertThat(inFrame(2049)).isNotSameAs(kept[1]);
    }

    private byte[] inFrame(int length) {
        arrays.begin();
        try {
            return arrays.take(length);
        } finally {
            arrays.end();
        }
    }
}
