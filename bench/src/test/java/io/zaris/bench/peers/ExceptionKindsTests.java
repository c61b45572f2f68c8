package io.zaris.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.zaris.model.KvStatus;
import io.zaris.transport.ZarisStatusException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class ExceptionKindsTests {

    @Test
    void aFuturesWrapperIsUnwrappedToTheClientsException() {
        assertThat(ExceptionKinds.of(new CompletionException(new ExecutionException(new RedisCommandTimeoutException("x")))))
                .isEqualTo("RedisCommandTimeoutException");
    }

    @Test
    void aZarisStatusExceptionIsNamedWithItsStatus() {
        assertThat(ExceptionKinds.of(new ZarisStatusException(KvStatus.UNAVAILABLE, "no serving owner")))
                .isEqualTo("ZarisStatusException UNAVAILABLE");
    }

    @Test
    void aRedisErrorReplyIsNamedWithItsErrorCode() {
        assertThat(ExceptionKinds.of(new RedisCommandExecutionException("CLUSTERDOWN The cluster is down")))
                .isEqualTo("RedisCommandExecutionException CLUSTERDOWN");
    }

    @Test
    void aWrapperWithoutACauseIsNamedItself() {
        assertThat(ExceptionKinds.of(new CompletionException("gave up", null))).isEqualTo("CompletionException");
    }

    @Test
    void theTallyPutsTheMostFrequentKindFirstAndTiesByName() {
        assertThat(ExceptionKinds.tally(List.of("b", "a", "c", "c", "b", "c")))
                .containsExactly(entry("c", 3L), entry("b", 2L), entry("a", 1L));
    }

    private static Map.Entry<String, Long> entry(String kind, long count) {
        return Map.entry(kind, count);
    }
}
