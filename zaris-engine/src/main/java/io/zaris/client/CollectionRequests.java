package io.zaris.client;

import static io.zaris.client.ClientFailures.failure;
import static io.zaris.client.RequestInputs.bytes;

import io.zaris.model.HashOp;
import io.zaris.model.KvStatus;
import io.zaris.protocol.OpCode;
import io.zaris.protocol.Request;
import io.zaris.protocol.ResponseCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The requests every typed collection operation is built from: one {@code HASH_READ} or {@code HASH_WRITE} of a key
 * (the node's collection ops, named by {@link HashOp}), the check that several keys share one segment, and the wait of
 * the blocking pops over lists and sorted sets ({@link PollingWait}). Runs them through {@link RequestRunner}, the
 * client's narrow seam.
 *
 * <p>Threads: no mutable state; built once by {@link ZarisClient}. The futures complete on the connections' event loops
 * (network threads), and a wait's looks run there and on the executor's timer.
 */
final class CollectionRequests {

    private final RequestRunner runner;
    /** The waits of the blocking pops, paused on the executor's timer. */
    private final PollingWait waits;

    CollectionRequests(RequestRunner runner, PollingWait waits) {
        this.runner = runner;
        this.waits = waits;
    }

    CompletableFuture<ResponseCodec.HashAnswer> hashRead(String key, HashOp op, List<byte[]> args) {
        byte[] k = bytes(key);
        return runner.execute(OpCode.HASH_READ, k, true, id -> new Request.Hash(id, k, op, args), (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            return ResponseCodec.readHashAnswer(body);
        });
    }

    CompletableFuture<ResponseCodec.HashAnswer> hashWrite(String key, HashOp op, List<byte[]> args,
                                                          boolean idempotent) {
        return versionedHashWrite(key, op, args, idempotent).thenApply(VersionedHashAnswer::answer);
    }

    /** A collection write's answer and the version of its change ({@code 0}: it changed nothing). */
    record VersionedHashAnswer(ResponseCodec.HashAnswer answer, long version) {
    }

    CompletableFuture<VersionedHashAnswer> versionedHashWrite(String key, HashOp op, List<byte[]> args,
                                                              boolean idempotent) {
        byte[] k = bytes(key);
        return runner.execute(OpCode.HASH_WRITE, k, idempotent, id -> new Request.Hash(id, k, op, args), (status, body) -> {
            if (status != KvStatus.OK) {
                throw failure(status, body);
            }
            ResponseCodec.HashAnswer answer = ResponseCodec.readHashAnswer(body);
            long version = body.readLong();
            if (version != 0) {
                runner.acknowledged(k, version, body);
            }
            return new VersionedHashAnswer(answer, version);
        });
    }

    List<byte[]> commonSegmentKeys(List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("at least one key is required");
        }
        List<byte[]> keys = new ArrayList<>(names.size());
        int segment = -1;
        for (String name : names) {
            byte[] key = bytes(name);
            int keySegment = runner.segmentMapper().segmentOf(key);
            if (segment >= 0 && keySegment != segment) {
                throw new CrossSegmentKeysException(names.get(0), name);
            }
            segment = keySegment;
            keys.add(key);
        }
        return keys;
    }

    /** The keys of a pop over several keys: one segment, and a count of at least 1, or refused before sending. */
    List<String> severalKeys(List<String> keys, int count, String operation) {
        if (count < 1) {
            throw new IllegalArgumentException(operation + " takes a count of 1 or more, not " + count);
        }
        List<String> names = List.copyOf(keys);
        commonSegmentKeys(names);
        return names;
    }

    /**
     * The wait of every blocking pop over several keys, as {@link PollingWait} runs it: each look reads every key's size
     * and sends {@code pop} only when one holds something; the pop is not repeated once it may have been applied.
     */
    <T> CompletableFuture<T> waitForPop(List<String> keys, Function<String, CompletableFuture<Long>> size,
                                        Supplier<CompletableFuture<T>> pop, String operation, Duration timeout) {
        List<String> names = List.copyOf(keys); // read by every look, on whichever network thread runs it
        return pollUntilFound(operation, timeout, () -> anyHolds(names, size)
                .thenCompose(any -> any ? pop.get() : CompletableFuture.<T>completedFuture(null)));
    }

    /** Whether any of the collections at {@code keys} holds something: one {@code size} read per key, in parallel. */
    private static CompletableFuture<Boolean> anyHolds(List<String> keys, Function<String, CompletableFuture<Long>> size) {
        List<CompletableFuture<Long>> sizes = new ArrayList<>(keys.size());
        for (String key : keys) {
            sizes.add(size.apply(key));
        }
        return CompletableFuture.allOf(sizes.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> sizes.stream().anyMatch(found -> found.join() > 0));
    }

    /**
     * Runs {@code look} until it finds something (a non-null answer) or {@code timeout} passes (then {@code null}), as
     * {@link PollingWait} does: the wait of every blocking list operation.
     */
    <T> CompletableFuture<T> pollUntilFound(String operation, Duration timeout, Supplier<CompletableFuture<T>> look) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(operation + " takes a positive timeout, not " + timeout);
        }
        runner.requireOpen();
        return waits.until(timeout.toNanos(), look);
    }
}
