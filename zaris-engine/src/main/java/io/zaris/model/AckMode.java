package io.zaris.model;

/**
 * When a write is acknowledged to the client.
 * <ul>
 *   <li>{@link #ASYNC}: once the active owner applied it. If the active dies before a replica has the
 *       change, the write is lost: the loss window is the replication lag (usually well under a millisecond
 *       on a LAN, more under load).</li>
 *   <li>{@link #SYNC}: once every live replica applied it. A replica membership sees whose replication link is
 *       still opening, or has not yet sent it the write's segment (a fresh cluster, a returning replica), is waited
 *       for up to the ack timeout, until it applied a snapshot of the segment taken after the write. A replica whose
 *       connection closed (a crashed or stopped node) is not waited for; a replica still connected that did not
 *       apply it (hung, lagging) holds the write back unless another replica applied it and the leader then
 *       proves that it still heads a majority this owner belongs to (so an owner cut off with one replica cannot
 *       acknowledge what the majority side, promoting the silent replica, would never see). A partition with no replica left (DEGRADED) thus
 *       acknowledges on its owner alone, counted as reduced redundancy, while the leader gives it new
 *       replicas. The guarantee: an acknowledged SYNC write survives the loss of any one node whenever at
 *       least two copies were live when it was acknowledged. The strict option {@code minSyncReplicas >= 1}
 *       refuses SYNC writes (retryable {@code UNAVAILABLE}, before they are applied) while fewer replicas are
 *       connected.</li>
 * </ul>
 */
public enum AckMode {
    ASYNC,
    SYNC
}
