package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.model.ClusterView;
import io.zaris.model.KvStatus;
import io.zaris.model.NodeAddress;
import io.zaris.model.PartitionHealth;
import io.zaris.model.PartitionRuntime;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.Request;
import io.zaris.protocol.RuntimeOwnershipChangedEvent;
import io.zaris.time.FakeTime;
import io.zaris.time.TimeSource;
import io.zaris.transport.ZarisStatusException;
import io.zaris.transport.ZarisTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The client's own retry loop ({@link RequestExecutor}, deciding by {@link RetryPolicy#nextStep}) against stub
 * nodes over loopback TCP that answer with scripted statuses, on a fake clock: how many attempts go out, what each
 * carries, when the loop stops, and when the map is fetched. The client's connections measure their deadlines on the same fake
 * clock, so a test that moves it past a timeout while a request is out lengthens that timeout first.
 */
@Tag("unit")
class ZarisClientRetryLoopTests {

    private static final PartitionLayout LAYOUT = PartitionLayout.of(64, 8);
    private static final long SECOND = 1_000_000_000L;
    private static final String KEY = "retried-key";

    private final AtomicLong now = new AtomicLong(1_000 * SECOND);
    private final List<AutoCloseable> closeAfter = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closeAfter.size() - 1; i >= 0; i--) {
            closeAfter.get(i).close();
        }
    }

    @Test
    void threeAttemptsOnOneRoutingAreFollowedByLooksAtTheMapUntilTheRefreshWaitHasPassed() throws Exception {
        StubNode a = singleNode();
        // Every answer takes a second of the fake clock; the map never routes the key elsewhere.
        a.fallback(StubNode.status(KvStatus.MOVED).after(() -> now.addAndGet(SECOND)));
        ZarisClient client = connect(a, options -> options.maxAttempts(3).requestTimeout(Duration.ofSeconds(60))
                .mapRefreshWait(Duration.ofSeconds(15)));

        assertFailsWithStatus(client.put(KEY, utf8("v")), KvStatus.MOVED);

        // The first failure at t+1 s starts the wait; attempt k fails at t+k s; the 16th is 15 s after the first.
        assertThat(a.received()).hasSize(16);
        assertThat(a.received().get(0).deadlineMillis()).as("the remaining deadline travels with the request")
                .isEqualTo(60_000);
    }

    @Test
    void aRoutingChangeStartsANewCountOfAttempts() throws Exception {
        StubNode a = StubNode.start("a");
        StubNode b = StubNode.start("b");
        closeAfter.add(a);
        closeAfter.add(b);
        serveBoth(a, b);
        int partition = partitionOf(KEY);
        RuntimeOwnershipChangedEvent movedToB = new RuntimeOwnershipChangedEvent(partition,
                new PartitionRuntime("b", 2, PartitionHealth.HEALTHY), b.address());
        // Two refusals at the old owner, then the move: the new owner still has all three attempts.
        a.script(StubNode.status(KvStatus.UNAVAILABLE));
        a.script(StubNode.routing(KvStatus.MOVED, movedToB));
        b.script(StubNode.status(KvStatus.OWNERSHIP_CHANGING));
        b.script(StubNode.status(KvStatus.MIGRATING));
        b.fallback(StubNode.written(7));
        ZarisClient client = connect(a, options -> options.maxAttempts(3));

        assertThat(client.put(KEY, utf8("v")).get(10, TimeUnit.SECONDS)).isEqualTo(7);

        assertThat(a.received()).hasSize(2);
        assertThat(b.received()).hasSize(3);
    }

    @Test
    void theMetricsHearTheOperationStartOnceAndEveryAttemptBeforeTheOutcome() throws Exception {
        StubNode a = StubNode.start("a");
        StubNode b = StubNode.start("b");
        closeAfter.add(a);
        closeAfter.add(b);
        serveBoth(a, b);
        int partition = partitionOf(KEY);
        a.script(StubNode.status(KvStatus.UNAVAILABLE));
        a.script(StubNode.routing(KvStatus.MOVED, new RuntimeOwnershipChangedEvent(partition,
                new PartitionRuntime("b", 2, PartitionHealth.HEALTHY), b.address())));
        b.script(StubNode.status(KvStatus.MIGRATING));
        b.fallback(StubNode.written(7));
        Object operation = new Object();
        List<Object> started = new CopyOnWriteArrayList<>();
        List<Integer> routedTo = new CopyOnWriteArrayList<>();
        ClientMetrics hearing = new ClientMetrics() {
            @Override
            public Object operationStarted(OpCode op) {
                started.add(op);
                return operation;
            }

            @Override
            public void attemptRouted(Object heard, int routedPartition) {
                assertThat(heard).isSameAs(operation);
                routedTo.add(routedPartition);
            }

        };
        ZarisClient client = connect(a, options -> options.maxAttempts(3).metrics(hearing));

        int attemptsWhenAnswered = client.put(KEY, utf8("v")).thenApply(version -> routedTo.size())
                .get(10, TimeUnit.SECONDS);

        assertThat(started).containsExactly(OpCode.PUT);
        assertThat(attemptsWhenAnswered).as("every attempt is heard before the outcome").isEqualTo(4);
        assertThat(routedTo).containsOnly(partition);
    }

    @Test
    void aConflictFromAnIfMatchVersionWriteIsSentOnceAndReturned() throws Exception {
        StubNode a = singleNode();
        a.script(StubNode.conflict(42));
        ZarisClient client = connect(a, options -> options);

        WriteOutcome outcome = client.putIfVersion(KEY, utf8("v"), 7, null).get(10, TimeUnit.SECONDS);

        assertThat(outcome).isEqualTo(new WriteOutcome(false, 42));
        assertThat(a.received()).hasSize(1);
        assertThat(((Request.Put) a.received().get(0).request()).expectedVersion()).isEqualTo(7);
        a.script(StubNode.notFound());
        assertThat(client.get(KEY).get(10, TimeUnit.SECONDS)).as("NOT_FOUND is an answer too").isEmpty();
        assertThat(a.received()).hasSize(2);
    }

    @Test
    void disabledRetriesMakeOneAttempt() throws Exception {
        StubNode a = singleNode();
        a.fallback(StubNode.status(KvStatus.MOVED));
        ZarisClient client = connect(a, options -> options.disableRetries(true));

        assertFailsWithStatus(client.put(KEY, utf8("v")), KvStatus.MOVED);

        assertThat(a.received()).hasSize(1);
        assertThat(client.mapFetchCount()).isZero();
    }

    @Test
    void anInfiniteTimeoutIsBoundedByAttemptsOnly() throws Exception {
        StubNode a = singleNode();
        // Every attempt takes a day of the fake clock; without a deadline only maxAttempts ends the loop.
        a.fallback(StubNode.status(KvStatus.UNAVAILABLE).after(() -> now.addAndGet(86_400 * SECOND)));
        ZarisClient client = connect(a, options -> options.requestTimeout(RequestTimeout.INFINITE).maxAttempts(3)
                .attemptTimeout(Duration.ofDays(2)));

        assertFailsWithStatus(client.get(KEY), KvStatus.UNAVAILABLE);

        assertThat(a.received()).hasSize(3);
        assertThat(a.received()).allSatisfy(request -> assertThat(request.deadlineMillis())
                .as("no deadline is sent").isZero());
    }

    @Test
    void aMapRefreshThatOutlastsTheDeadlineEndsTheOperationWithATimeoutBeforeAnotherAttempt() throws Exception {
        StubNode a = singleNode();
        a.fallback(StubNode.status(KvStatus.MOVED));
        ZarisClient client = connect(a, options -> options.requestTimeout(Duration.ofSeconds(60))
                .connectTimeout(Duration.ofMinutes(2)));
        a.onMapRequest(() -> now.addAndGet(61 * SECOND)); // the refresh takes 61 s of the fake clock

        Throwable failure = failureOf(client.put(KEY, utf8("v")));

        assertThat(failure).isInstanceOf(ZarisTimeoutException.class);
        assertThat(failure.getSuppressed()).singleElement().isInstanceOfSatisfying(ZarisStatusException.class,
                moved -> assertThat(moved.status()).isEqualTo(KvStatus.MOVED));
        assertThat(a.received()).as("no attempt starts after the deadline").hasSize(1);
        assertThat(client.mapFetchCount()).isEqualTo(1);
    }

    @Test
    void theWaitForASlowMapRefreshEndsAtTheDeadlineNotAfterTheRefreshWaitBudget() throws Exception {
        StubNode a = singleNode();
        a.fallback(StubNode.status(KvStatus.MOVED));
        ZarisClient client = connect(a, options -> options.timeSource(TimeSource.system())
                .requestTimeout(Duration.ofMillis(400)).mapRefreshWait(Duration.ofSeconds(15)));
        a.holdMapAnswersUntil(new CompletableFuture<>()); // the refresh never completes

        long start = System.nanoTime();
        CompletableFuture<Long> put = client.put(KEY, utf8("v"));
        // Far less than the 15 s refresh-wait budget, or the 5 s a map fetch may take before it gives up.
        Throwable failure = failureOf(put, 3);

        assertThat(failure).isInstanceOf(ZarisTimeoutException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        assertThat(a.received()).hasSize(1);
    }

    @Test
    void aBackoffLongerThanTheTimeLeftIsClampedToHalfOfIt() throws Exception {
        StubNode a = singleNode();
        // The first attempt takes 59.8 s of the fake clock: 200 ms are left, less than the 2 s backoff.
        a.script(StubNode.status(KvStatus.UNAVAILABLE).after(() -> now.addAndGet(59_800_000_000L)),
                StubNode.value(utf8("found"), 3));
        ZarisClient client = connect(a, options -> options.requestTimeout(Duration.ofSeconds(60))
                .attemptTimeout(Duration.ofSeconds(60)).retryBackoff(Duration.ofSeconds(2)));

        assertThat(client.get(KEY).get(10, TimeUnit.SECONDS)).isPresent();

        List<StubNode.Received> attempts = a.received();
        assertThat(attempts).hasSize(2);
        Duration waited = Duration.ofNanos(attempts.get(1).arrivedNanos() - attempts.get(0).arrivedNanos());
        assertThat(waited).as("half the 200 ms left, not the 2 s backoff")
                .isGreaterThanOrEqualTo(Duration.ofMillis(100)).isLessThan(Duration.ofMillis(1_500));
        assertThat(attempts.get(1).deadlineMillis()).as("the second attempt carries the 200 ms left").isEqualTo(200);
    }

    @Test
    void aNewerHintInAWrongNodeAnswerRetargetsWithoutAMapFetch() throws Exception {
        StubNode a = StubNode.start("a");
        StubNode b = StubNode.start("b");
        closeAfter.add(a);
        closeAfter.add(b);
        serveBoth(a, b);
        int partition = partitionOf(KEY);
        RuntimeOwnershipChangedEvent movedToB = new RuntimeOwnershipChangedEvent(partition,
                new PartitionRuntime("b", 2, PartitionHealth.HEALTHY), b.address());
        a.script(StubNode.routing(KvStatus.MOVED, movedToB));
        b.fallback(StubNode.written(5));
        ZarisClient client = connect(a, options -> options);

        assertThat(client.put(KEY, utf8("v")).get(10, TimeUnit.SECONDS)).isEqualTo(5);

        assertThat(b.received()).singleElement().satisfies(retry -> assertThat(retry.routedEpoch()).isEqualTo(2));
        assertThat(client.ownerOf(KEY)).isEqualTo("b");
        assertThat(client.mapFetchCount()).isZero();
        assertThat(a.mapRequests() + b.mapRequests()).as("the bootstrap fetch only").isEqualTo(1);
    }

    @Test
    void aHintNoNewerThanTheTableWhoseOwnerIsConnectedNeedsNoMapFetch() throws Exception {
        StubNode a = StubNode.start("a");
        StubNode b = StubNode.start("b");
        closeAfter.add(a);
        closeAfter.add(b);
        serveBoth(a, b);
        int partition = partitionOf(KEY);
        RuntimeOwnershipChangedEvent movedToB = new RuntimeOwnershipChangedEvent(partition,
                new PartitionRuntime("b", 2, PartitionHealth.HEALTHY), b.address());
        // The push of the move overtakes the answer to a request already sent to the old owner: by the time
        // the answer's hint is read, the table holds exactly that entry.
        a.script(StubNode.routing(KvStatus.MOVED, movedToB).after(() -> a.push(movedToB)));
        b.fallback(StubNode.written(5));
        ZarisClient client = connect(a, options -> options);

        assertThat(client.put(KEY, utf8("v")).get(10, TimeUnit.SECONDS)).isEqualTo(5);

        assertThat(b.received()).hasSize(1);
        assertThat(client.mapFetchCount()).isZero();
        assertThat(a.mapRequests() + b.mapRequests()).isEqualTo(1);
    }

    @Test
    void anEqualHintFromTheTablesOwnItselfStillRefreshesTheMap() throws Exception {
        StubNode a = singleNode();
        int partition = partitionOf(KEY);
        // The owner the table names says the ownership is changing and knows nothing newer: it is behind or
        // catching up, and only a fetched map can tell whether someone else serves the partition now.
        a.script(StubNode.routing(KvStatus.OWNERSHIP_CHANGING, new RuntimeOwnershipChangedEvent(partition,
                new PartitionRuntime("a", 1, PartitionHealth.HEALTHY), a.address())));
        a.fallback(StubNode.written(4));
        ZarisClient client = connect(a, options -> options);

        assertThat(client.put(KEY, utf8("v")).get(10, TimeUnit.SECONDS)).isEqualTo(4);

        assertThat(client.mapFetchCount()).isEqualTo(1);
        assertThat(a.received()).hasSize(2);
    }

    @Test
    void aPartitionWithNoServingOwnerIsATransportFaultThatRefreshesTheMap() throws Exception {
        StubNode a = StubNode.start("a");
        closeAfter.add(a);
        int partition = partitionOf(KEY);
        a.serve(StubNode.view(LAYOUT, Map.of("a", a.address()), p -> p == partition
                ? new PartitionRuntime(null, 1, PartitionHealth.UNAVAILABLE)
                : new PartitionRuntime("a", 1, PartitionHealth.HEALTHY)));
        ZarisClient client = connect(a, options -> options);
        a.serve(StubNode.view(LAYOUT, Map.of("a", a.address()), p -> new PartitionRuntime("a", p == partition ? 2 : 1,
                PartitionHealth.HEALTHY)));
        a.fallback(StubNode.written(9));

        assertThat(client.put(KEY, utf8("v")).get(10, TimeUnit.SECONDS)).isEqualTo(9);

        assertThat(client.mapFetchCount()).isEqualTo(1);
        assertThat(a.received()).singleElement().satisfies(sent -> assertThat(sent.routedEpoch()).isEqualTo(2));
    }

    @Test
    void aPartitionThatStillHasNoServingOwnerAfterTheRefreshWaitFailsAsUnavailableWithoutSendingAnything() throws Exception {
        StubNode a = StubNode.start("a");
        closeAfter.add(a);
        int partition = partitionOf(KEY);
        a.serve(StubNode.view(LAYOUT, Map.of("a", a.address()), p -> p == partition
                ? new PartitionRuntime(null, 1, PartitionHealth.UNAVAILABLE)
                : new PartitionRuntime("a", 1, PartitionHealth.HEALTHY)));
        // Each look at the clock takes 100 ms of it, so the client's wait on the map runs out.
        ZarisClient client = connect(a, options -> options.timeSource(FakeTime.followingNanos(() -> now.addAndGet(SECOND / 10))));

        assertFailsWithStatus(client.increment(KEY, 1), KvStatus.UNAVAILABLE);

        assertThat(a.received()).isEmpty();
        assertThat(client.mapFetchCount()).isPositive();
    }

    @Test
    void thePollAsksOneNodeInTurnAndFetchesTheMapOnlyWhenItsFingerprintChanged() throws Exception {
        List<StubNode> nodes = List.of(StubNode.start("a"), StubNode.start("b"), StubNode.start("c"));
        closeAfter.addAll(nodes);
        Map<String, NodeAddress> addresses = Map.of("a", nodes.get(0).address(), "b", nodes.get(1).address(),
                "c", nodes.get(2).address());
        ClusterView before = StubNode.view(LAYOUT, addresses,
                p -> new PartitionRuntime(List.of("a", "b", "c").get(p % 3), 1, PartitionHealth.HEALTHY));
        nodes.forEach(node -> node.serve(before));
        ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(List.of(nodes.get(0).address()))
                .environment(Map.of()).mapRefreshInterval(Duration.ofMillis(50)).build());
        closeAfter.add(client);

        await().atMost(Duration.ofSeconds(30)).until(() -> client.mapPollCount() >= 9);
        assertThat(client.mapFetchCount()).as("an unchanged fingerprint fetches nothing").isZero();
        assertThat(nodes).allSatisfy(node -> assertThat(node.mapVersionRequests()).as("polled in turn").isPositive());

        ClusterView after = StubNode.view(LAYOUT, addresses, p -> new PartitionRuntime(p == 0 ? "b" : List.of("a", "b", "c")
                .get(p % 3), p == 0 ? 2 : 1, PartitionHealth.HEALTHY));
        nodes.forEach(node -> node.serve(after));
        await().atMost(Duration.ofSeconds(30)).until(() -> client.clusterView().runtimeMap().get(0).epoch() == 2);
        assertThat(client.mapFetchCount()).isPositive();

        client.close();
        long polls = client.mapPollCount();
        int asked = nodes.stream().mapToInt(StubNode::mapVersionRequests).sum();
        assertThat(asked).as("one node per poll (the last may not have arrived)").isBetween((int) polls - 1, (int) polls);
    }

    // ------------------------------------------------------------------ fixtures

    private StubNode singleNode() throws Exception {
        StubNode a = StubNode.start("a");
        closeAfter.add(a);
        a.serve(StubNode.view(LAYOUT, Map.of("a", a.address()), p -> new PartitionRuntime("a", 1, PartitionHealth.HEALTHY)));
        return a;
    }

    /** Both stubs serve one view in which {@code a} is the active owner of every partition. */
    private static void serveBoth(StubNode a, StubNode b) {
        ClusterView view = StubNode.view(LAYOUT, Map.of("a", a.address(), "b", b.address()),
                p -> new PartitionRuntime("a", 1, PartitionHealth.HEALTHY));
        a.serve(view);
        b.serve(view);
    }

    /** A client on the fake clock, with a 1 ms backoff and no periodic poll unless the test asks. */
    private ZarisClient connect(StubNode seed, UnaryOperator<ZarisClientOptions.Builder> customize) {
        ZarisClientOptions.Builder options = ZarisClientOptions.builder().seeds(List.of(seed.address()))
                .environment(Map.of()).timeSource(FakeTime.followingNanos(now::get)).retryBackoff(Duration.ofMillis(1))
                .mapRefreshInterval(Duration.ofHours(1));
        ZarisClient client = ZarisClient.connect(customize.apply(options).build());
        closeAfter.add(client);
        return client;
    }

    private static int partitionOf(String key) {
        return LAYOUT.partitionOf(new SegmentMapper(LAYOUT.segmentCount()).segmentOf(key.getBytes(StandardCharsets.UTF_8)));
    }

    private static void assertFailsWithStatus(CompletableFuture<?> operation, KvStatus status) throws Exception {
        assertThat(failureOf(operation)).isInstanceOfSatisfying(ZarisStatusException.class,
                failure -> assertThat(failure.status()).isEqualTo(status));
    }

    private static Throwable failureOf(CompletableFuture<?> operation) throws Exception {
        return failureOf(operation, 10);
    }

    /** How the operation failed; a TimeoutException fails the test when it takes longer than {@code seconds}. */
    private static Throwable failureOf(CompletableFuture<?> operation, long seconds) throws Exception {
        try {
            Object value = operation.get(seconds, TimeUnit.SECONDS);
            throw new AssertionError("expected the operation to fail, but it returned " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
