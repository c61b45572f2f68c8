package io.zaris.client;

import io.zaris.model.AckMode;
import io.zaris.model.VersionedValue;
import io.zaris.transport.ZarisException;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Blocking face of a {@link ZarisClient}: each call waits for the asynchronous operation and rethrows
 * its failure unwrapped ({@link ZarisException} subclasses, {@link IllegalArgumentException}). A GET, an
 * unconditional PUT and a DELETE first try the calling thread's own socket to the key's owner
 * ({@link DirectRequests}): they do not wait for this client's asynchronous requests still in flight, so await
 * those first when their order matters.
 */
public final class BlockingZarisClient {

    private final ZarisClient client;

    BlockingZarisClient(ZarisClient client) {
        this.client = client;
    }

    public Optional<VersionedValue> get(String key) {
        if (client.nearCacheEnabled()) {
            return await(client.get(key)); // answered locally when it can, and its answer fills the near cache
        }
        Optional<VersionedValue> direct = client.tryDirectGet(key);
        return direct != null ? direct : await(client.get(key));
    }

    /** See {@link ZarisClient#read}. */
    public ReadResult read(String key, NearCacheRead how) {
        if (!client.nearCacheEnabled() && how != null) {
            Optional<VersionedValue> direct = client.tryDirectGet(key);
            if (direct != null) {
                return new ReadResult(direct, false);
            }
        }
        return await(client.read(key, how));
    }

    public long put(String key, byte[] value) {
        return put(key, value, null);
    }

    public long put(String key, byte[] value, Duration ttl) {
        return put(key, value, ttl, client.options().ackMode());
    }

    /** Stores the value, acknowledged as {@code ack} asks ({@code null}: the cluster's configured mode). */
    public long put(String key, byte[] value, Duration ttl, AckMode ack) {
        Long direct = client.tryDirectPut(key, value, ttl, ack);
        return direct != null ? direct : await(client.put(key, value, ttl, ack));
    }

    public WriteOutcome putIfAbsent(String key, byte[] value, Duration ttl) {
        return await(client.putIfAbsent(key, value, ttl));
    }

    public WriteOutcome putIfVersion(String key, byte[] value, long expectedVersion, Duration ttl) {
        return await(client.putIfVersion(key, value, expectedVersion, ttl));
    }

    public boolean delete(String key) {
        return delete(key, client.options().ackMode());
    }

    /** Deletes the key, acknowledged as {@code ack} asks ({@code null}: the cluster's configured mode). */
    public boolean delete(String key, AckMode ack) {
        Boolean direct = client.tryDirectDelete(key, ack);
        return direct != null ? direct : await(client.delete(key, ack));
    }

    public WriteOutcome deleteIfVersion(String key, long expectedVersion) {
        return await(client.deleteIfVersion(key, expectedVersion));
    }

    public long increment(String key, long delta) {
        return await(client.increment(key, delta));
    }

    public CounterValue incrementVersioned(String key, long delta) {
        return await(client.incrementVersioned(key, delta));
    }

    public boolean expire(String key, Duration ttl) {
        return await(client.expire(key, ttl));
    }

    public Map<String, VersionedValue> getAll(Collection<String> keys) {
        return await(client.getAll(keys));
    }

    public Map<String, Long> putAll(Map<String, byte[]> entries, Duration ttl) {
        return await(client.putAll(entries, ttl));
    }

    /** Writes the entries only if none of the keys exists; whether they were written. */
    public boolean putAllIfAbsent(Map<String, byte[]> entries, Duration ttl) {
        return await(client.putAllIfAbsent(entries, ttl));
    }

    public int deleteAll(Collection<String> keys) {
        return await(client.deleteAll(keys));
    }

    public Set<String> scanKeys() {
        return await(client.scanKeys());
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                cause.addSuppressed(new ZarisException("awaited here"));
                throw cause;
            }
            throw e;
        }
    }
}
