package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.protocol.MalformedRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The majority checks a node relays, asking and leading, with members addressed by name and explicit times. */
@Tag("unit")
class MajorityCheckRelayTests {

    private record Sent(String destination, ClusterMessages.LeaseMessage message) {
    }

    private final List<Sent> outbox = new ArrayList<>();
    private final MajorityCheckRelay<String> relay = new MajorityCheckRelay<>((destination, bytes) -> {
        try {
            outbox.add(new Sent(destination, (ClusterMessages.LeaseMessage) ClusterMessages.decode(bytes)));
        } catch (MalformedRequestException e) {
            throw new AssertionError(e);
        }
    });

    @Test
    void waitersShareOneCheckSentToTheCoordinatorAndOnlyItsAnswerCompletesThem() {
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> second = new CompletableFuture<>();
        assertThat(relay.await(first)).as("the first waiter asks for a send").isTrue();
        assertThat(relay.await(second)).isFalse();

        relay.sendCheck("leader", "a");
        assertThat(outbox).singleElement().satisfies(sent -> {
            assertThat(sent.destination()).isEqualTo("leader");
            assertThat(sent.message().type()).isEqualTo(ClusterMessages.MAJORITY_CHECK);
        });
        long number = outbox.get(0).message().number();

        relay.onConfirmed("impostor", "leader", number);
        assertThat(first).isNotDone();
        relay.onConfirmed("leader", "leader", number);
        assertThat(first).isCompleted();
        assertThat(second).isCompleted();
    }

    @Test
    void withoutACoordinatorTheWaitersFailAtOnce() {
        CompletableFuture<Void> waiter = new CompletableFuture<>();
        relay.await(waiter);

        relay.sendCheck(null, "a");

        assertThat(outbox).isEmpty();
        assertThatThrownBy(waiter::join).hasMessageContaining("node a has no membership view yet");
    }

    @Test
    void theLeaderAnswersTheChecksABeatSentAfterThemProves() {
        relay.onCheck("b", 7, 100);
        relay.onCheck("c", 3, 250);

        relay.onBeatQuorum(200);
        assertThat(outbox).singleElement().satisfies(sent -> {
            assertThat(sent.destination()).isEqualTo("b");
            assertThat(sent.message().type()).isEqualTo(ClusterMessages.MAJORITY_CONFIRMED);
            assertThat(sent.message().number()).isEqualTo(7);
        });

        relay.onBeatQuorum(300);
        assertThat(outbox).hasSize(2);
        assertThat(outbox.get(1).destination()).isEqualTo("c");
        assertThat(outbox.get(1).message().number()).isEqualTo(3);
    }

    @Test
    void aLeaderThatStepsDownForgetsTheChecksItHeld() {
        relay.onCheck("b", 7, 100);

        relay.notLeading();
        relay.onBeatQuorum(200);

        assertThat(outbox).isEmpty();
    }
}
