package io.zaris.model;

/**
 * Health of one partition in the runtime map (which changes during failover, unlike the partition map): HEALTHY,
 * DEGRADED (serving, with reduced redundancy), RECOVERING (not serving: syncing from a more complete copy) or
 * UNAVAILABLE (no owner).
 */
public enum PartitionHealth {

    /** Serving from its preferred primary with full redundancy. */
    HEALTHY(0, true),
    /** Serving, with redundancy reduced (a replica is missing or promotion happened). */
    DEGRADED(1, true),
    /** Not serving: the active owner is syncing from a more complete peer first. */
    RECOVERING(2, false),
    /** No serving owner. */
    UNAVAILABLE(3, false);

    private final int code;
    private final boolean serving;

    PartitionHealth(int code, boolean serving) {
        this.code = code;
        this.serving = serving;
    }

    public int code() {
        return code;
    }

    /** Whether the active owner answers requests in this state. */
    public boolean isServing() {
        return serving;
    }

    public static PartitionHealth fromCode(int code) {
        for (PartitionHealth health : values()) {
            if (health.code == code) {
                return health;
            }
        }
        throw new IllegalArgumentException("unknown partition health code " + code);
    }
}
