package io.zaris.client;

import io.zaris.model.HashOp;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The operations of {@link ZarisClient} on a key of any type: TYPE, EXISTS, RENAME and RENAMENX, each one request of
 * the key's owner built over {@link CollectionRequests}.
 *
 * <p>Threads: no mutable state; the futures complete on network threads.
 */
final class KeyRequests {

    private final CollectionRequests requests;
    private final RequestRunner runner;

    KeyRequests(CollectionRequests requests, RequestRunner runner) {
        this.requests = requests;
        this.runner = runner;
    }

    CompletableFuture<Optional<KeyType>> type(String key) {
        return requests.hashRead(key, HashOp.TYPE, List.of())
                .thenApply(answer -> Optional.ofNullable(KeyType.fromRedisName(
                        new String(answer.items().get(0), StandardCharsets.US_ASCII))));
    }

    CompletableFuture<Boolean> exists(String key) {
        return type(key).thenApply(Optional::isPresent);
    }

    CompletableFuture<Void> rename(String source, String destination) {
        return renameOp(source, destination, false).thenApply(renamed -> null);
    }

    CompletableFuture<Boolean> renameIfAbsent(String source, String destination) {
        return renameOp(source, destination, true);
    }

    private CompletableFuture<Boolean> renameOp(String source, String destination, boolean ifAbsent) {
        List<byte[]> keys = requests.commonSegmentKeys(List.of(source, destination));
        List<byte[]> args = List.of(keys.get(1), new byte[] {(byte) (ifAbsent ? '1' : '0')});
        List<byte[]> destinationOnly = List.of(keys.get(1));
        runner.forgetOwnWrite(destinationOnly);
        return runner.forgetWhenDone(destinationOnly,
                requests.hashWrite(source, HashOp.RENAME, args, false).thenApply(answer -> {
                    if (answer.count() < 0) {
                        throw new ZarisNoSuchKeyException(source);
                    }
                    return answer.count() == 1;
                }));
    }
}
