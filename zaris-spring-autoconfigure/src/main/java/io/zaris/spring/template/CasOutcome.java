package io.zaris.spring.template;

/**
 * Result of a compare-and-set ({@code IfMatchVersion}). A conflict is an answer, not an error: the caller
 * decides whether to re-read and try again; the template never retries it.
 *
 * @param applied whether the write happened
 * @param version the key's new version when applied; otherwise the version that made the condition fail
 *                ({@code 0} when the key does not exist)
 */
public record CasOutcome(boolean applied, long version) {

    /** Whether another write got there first (or the key is gone). */
    public boolean isConflict() {
        return !applied;
    }

    /** Whether the write failed because the key no longer exists. */
    public boolean isMissing() {
        return !applied && version == 0;
    }
}
