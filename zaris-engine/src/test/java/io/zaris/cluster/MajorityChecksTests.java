package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The bookkeeping of majority checks on both sides, with explicit times. */
@Tag("unit")
class MajorityChecksTests {

    @Test
    void waitersQueuedBeforeASendShareOneCheckAndTheFirstAsksForTheSend() {
        MajorityChecks.Requests requests = new MajorityChecks.Requests();
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> second = new CompletableFuture<>();
        assertThat(requests.await(first)).isTrue();
        assertThat(requests.await(second)).isFalse();
        long check = requests.send();
        assertThat(requests.send()).as("nothing new waits").isEqualTo(-1);
        requests.confirmed(check);
        assertThat(first).isCompleted();
        assertThat(second).isCompleted();
    }

    @Test
    void aConfirmationCoversEarlierChecksButNotLaterOnes() {
        MajorityChecks.Requests requests = new MajorityChecks.Requests();
        CompletableFuture<Void> early = new CompletableFuture<>();
        CompletableFuture<Void> late = new CompletableFuture<>();
        requests.await(early);
        long earlyCheck = requests.send();
        requests.await(late);
        long lateCheck = requests.send();
        assertThat(lateCheck).isGreaterThan(earlyCheck);

        requests.confirmed(earlyCheck);
        assertThat(early).isCompleted();
        assertThat(late).isNotDone();
        requests.confirmed(lateCheck);
        assertThat(late).isCompleted();
    }

    @Test
    void checksNobodyAnswersAreBoundedAndFailTheOldestWaiters() {
        MajorityChecks.Requests requests = new MajorityChecks.Requests();
        List<CompletableFuture<Void>> waiters = new ArrayList<>();
        for (int i = 0; i <= MajorityChecks.Requests.MAX_OUTSTANDING; i++) {
            CompletableFuture<Void> waiter = new CompletableFuture<>();
            waiters.add(waiter);
            requests.await(waiter);
            requests.send();
        }
        assertThat(waiters.get(0)).isCompletedExceptionally();
        assertThat(waiters.get(1)).isNotDone();
        assertThatThrownBy(waiters.get(0)::join).hasMessageContaining("answered none");
    }

    @Test
    void aTimedOutWaiterDoesNotKeepTheNextOneFromAskingForASend() {
        MajorityChecks.Requests requests = new MajorityChecks.Requests();
        CompletableFuture<Void> timedOut = new CompletableFuture<>();
        requests.await(timedOut);
        timedOut.completeExceptionally(new java.util.concurrent.TimeoutException());
        assertThat(requests.await(new CompletableFuture<>())).isTrue();
    }

    @Test
    void failAllFailsSentAndUnsentWaiters() {
        MajorityChecks.Requests requests = new MajorityChecks.Requests();
        CompletableFuture<Void> sent = new CompletableFuture<>();
        CompletableFuture<Void> unsent = new CompletableFuture<>();
        requests.await(sent);
        requests.send();
        requests.await(unsent);
        requests.failAll("stopping");
        assertThat(sent).isCompletedExceptionally();
        assertThat(unsent).isCompletedExceptionally();
    }

    @Test
    void aBeatProvesOnlyTheChecksThatArrivedBeforeItWasSent() {
        MajorityChecks.Confirmations<String> confirmations = new MajorityChecks.Confirmations<>();
        confirmations.received("n2", 7, 1_000);
        confirmations.received("n3", 4, 2_000);
        List<MajorityChecks.Confirmations.Check<String>> proven = confirmations.confirmedBy(1_500);
        assertThat(proven).extracting(MajorityChecks.Confirmations.Check::source).containsExactly("n2");
        assertThat(confirmations.size()).isEqualTo(1);
        assertThat(confirmations.confirmedBy(2_000)).extracting(MajorityChecks.Confirmations.Check::number).containsExactly(4L);
        assertThat(confirmations.size()).isZero();
    }

    @Test
    void theLeaderHoldsABoundedNumberOfChecks() {
        MajorityChecks.Confirmations<String> confirmations = new MajorityChecks.Confirmations<>();
        for (int i = 0; i < MajorityChecks.Confirmations.MAX_PENDING + 10; i++) {
            confirmations.received("n2", i, i);
        }
        assertThat(confirmations.size()).isEqualTo(MajorityChecks.Confirmations.MAX_PENDING);
        assertThat(confirmations.confirmedBy(Long.MAX_VALUE)).first()
                .extracting(MajorityChecks.Confirmations.Check::number).isEqualTo(10L);
    }
}
