package io.zaris.spring.observation;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.common.KeyValue;
import io.zaris.transport.ZarisTimeoutException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class DefaultZarisOperationObservationConventionTests {

    private final DefaultZarisOperationObservationConvention convention = new DefaultZarisOperationObservationConvention();

    @Test
    void attemptsShouldBeBucketedFromFourUp() {
        assertThat(DefaultZarisOperationObservationConvention.attemptsTag(0)).isEqualTo("0");
        assertThat(DefaultZarisOperationObservationConvention.attemptsTag(3)).isEqualTo("3");
        assertThat(DefaultZarisOperationObservationConvention.attemptsTag(4)).isEqualTo("4+");
        assertThat(DefaultZarisOperationObservationConvention.attemptsTag(40)).isEqualTo("4+");
    }

    @Test
    void attemptsOnTwoPartitionsShouldBeTaggedSeveral() {
        ZarisOperationContext context = new ZarisOperationContext("scan");
        context.attemptRouted(3);
        context.attemptRouted(3);
        assertThat(tag(context, "partition")).isEqualTo("3");
        assertThat(tag(context, "attempts")).isEqualTo("2");

        context.attemptRouted(7);
        assertThat(tag(context, "partition")).isEqualTo("several");
        assertThat(tag(context, "attempts")).isEqualTo("3");
    }

    @Test
    void failuresShouldMapToTheirOutcomeThroughTheFuturesWrapper() {
        assertThat(ZarisOperationOutcome.of(null)).isEqualTo(ZarisOperationOutcome.SUCCESS);
        assertThat(ZarisOperationOutcome.of(new CompletionException(new ZarisTimeoutException("late"))))
                .isEqualTo(ZarisOperationOutcome.TIMEOUT);
        assertThat(ZarisOperationOutcome.of(new IllegalStateException())).isEqualTo(ZarisOperationOutcome.ERROR);
        assertThat(ZarisOperationOutcome.REFUSED.tagValue()).isEqualTo("refused");
    }

    private String tag(ZarisOperationContext context, String key) {
        return convention.getLowCardinalityKeyValues(context).stream().filter(kv -> kv.getKey().equals(key))
                .map(KeyValue::getValue).findFirst().orElseThrow();
    }
}
