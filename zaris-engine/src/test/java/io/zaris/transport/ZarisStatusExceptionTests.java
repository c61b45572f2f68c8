package io.zaris.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.model.KvStatus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ZarisStatusExceptionTests {

    @Test
    void aWrongTypeStatusShouldBecomeTheWrongTypeException() {
        ZarisStatusException failure = ZarisStatusException.of(KvStatus.WRONG_TYPE,
                "WRONGTYPE Operation against a key holding the wrong kind of value", null);

        assertThat(failure).isInstanceOf(ZarisWrongTypeException.class);
        assertThat(failure.status()).isEqualTo(KvStatus.WRONG_TYPE);
        assertThat(failure.getMessage()).isEqualTo("WRONG_TYPE: WRONGTYPE Operation against a key holding the wrong kind"
                + " of value");
        assertThat(failure.routingHint()).isNull();
    }

    @Test
    void everyOtherStatusShouldStayAPlainStatusException() {
        for (KvStatus status : KvStatus.values()) {
            if (status != KvStatus.WRONG_TYPE) {
                ZarisStatusException failure = ZarisStatusException.of(status, "m", null);
                assertThat(failure.getClass()).as("%s", status).isEqualTo(ZarisStatusException.class);
                assertThat(failure.status()).isEqualTo(status);
            }
        }
    }
}
