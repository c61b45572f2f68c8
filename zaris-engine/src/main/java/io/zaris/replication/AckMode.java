package io.zaris.replication;

/**
 * When a write is acknowledged to the client.
 * <ul>
 *   <li>{@link #ASYNC}: once the active owner applied it. If the active dies before a replica has the
 *       change, the write is lost: the loss window is the replication lag (usually well under a millisecond
 *       on a LAN, more under load).</li>
 *   <li>{@link #SYNC}: once every replica the active is connected to applied it, and at least
 *       {@code minSyncReplicas} did. With fewer connected replicas the write is refused (retryable
 *       {@code UNAVAILABLE}) before it is applied, never acknowledged unsafely.</li>
 * </ul>
 */
public enum AckMode {
    ASYNC,
    SYNC
}
