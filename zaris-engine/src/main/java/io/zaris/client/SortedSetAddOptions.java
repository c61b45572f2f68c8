package io.zaris.client;

import io.zaris.model.ZaddFlags;

/**
 * The conditions of a conditional {@link ZarisClient#sortedSetAdd(String, java.util.Map, SortedSetAddOptions)}, as
 * Redis's ZADD flags: which members it may touch ({@link #onlyNew} NX, {@link #onlyExisting} XX), which way an existing
 * member's score may move ({@link #onlyHigher} GT, {@link #onlyLower} LT) and whether the answer counts changed members
 * beside added ones ({@link #countChanged} CH). The increment form (INCR) is
 * {@link ZarisClient#sortedSetIncrement(String, String, double, SortedSetAddOptions)}. Immutable.
 *
 * <p>Redis's exclusions are refused when building, with Redis's reason: NX with XX, and NX, GT and LT with each other.
 */
public final class SortedSetAddOptions {

    /** No condition: a plain ZADD. */
    public static final SortedSetAddOptions NONE = builder().build();

    private final ZaddFlags flags;

    private SortedSetAddOptions(ZaddFlags flags) {
        this.flags = flags;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether only new members are added, existing ones left as they are (NX). */
    public boolean onlyNew() {
        return flags.nx();
    }

    /** Whether only existing members are updated, none added (XX). */
    public boolean onlyExisting() {
        return flags.xx();
    }

    /** Whether an existing member is updated only to a higher score (GT; new members are still added). */
    public boolean onlyHigher() {
        return flags.gt();
    }

    /** Whether an existing member is updated only to a lower score (LT; new members are still added). */
    public boolean onlyLower() {
        return flags.lt();
    }

    /** Whether the answer counts members whose score changed beside those added (CH). */
    public boolean countChanged() {
        return flags.ch();
    }

    /** The ZADD flags these options stand for, with INCR when {@code increment}. */
    ZaddFlags flags(boolean increment) {
        return new ZaddFlags(flags.nx(), flags.xx(), flags.gt(), flags.lt(), flags.ch(), increment);
    }

    @Override
    public String toString() {
        return "SortedSetAddOptions[" + flags.letters() + "]";
    }

    /** Collects the conditions; each may be set once. Not thread-safe. */
    public static final class Builder {
        private boolean nx;
        private boolean xx;
        private boolean gt;
        private boolean lt;
        private boolean ch;

        private Builder() {
        }

        /** Adds new members only (NX); excludes {@link #onlyExisting}, {@link #onlyHigher} and {@link #onlyLower}. */
        public Builder onlyNew() {
            nx = true;
            return this;
        }

        /** Updates existing members only (XX); excludes {@link #onlyNew}. */
        public Builder onlyExisting() {
            xx = true;
            return this;
        }

        /** Updates an existing member only to a higher score (GT); excludes {@link #onlyNew} and {@link #onlyLower}. */
        public Builder onlyHigher() {
            gt = true;
            return this;
        }

        /** Updates an existing member only to a lower score (LT); excludes {@link #onlyNew} and {@link #onlyHigher}. */
        public Builder onlyLower() {
            lt = true;
            return this;
        }

        /** Counts changed members beside added ones in the answer (CH). */
        public Builder countChanged() {
            ch = true;
            return this;
        }

        /** @throws IllegalArgumentException when the conditions exclude each other, with Redis's reason */
        public SortedSetAddOptions build() {
            ZaddFlags flags = new ZaddFlags(nx, xx, gt, lt, ch, false);
            String conflict = flags.conflict(1);
            if (conflict != null) {
                throw new IllegalArgumentException(conflict);
            }
            return new SortedSetAddOptions(flags);
        }
    }
}
