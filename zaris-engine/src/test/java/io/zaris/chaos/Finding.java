package io.zaris.chaos;

/**
 * One thing the checker found wrong, on one key (or, for the replica checks, one partition and segment).
 *
 * @param detail what happened, with the values and times needed to look for it in the node logs
 */
record Finding(Kind kind, String key, String detail) {

    enum Kind {
        /** After healing, a key read back a value older than a write acknowledged before the read. */
        LOST_WRITE("lost acknowledged writes"),
        /** During the run, a read returned a value older than a write acknowledged before the read began. */
        STALE_READ("stale reads"),
        /**
         * A read the near cache answered returned a value older than a write acknowledged before the read began,
         * longer after that acknowledgement than the near cache's staleness bound ({@link NearReadStaleness}).
         */
        STALE_NEAR_READ("near-cache reads staler than the bound"),
        /** A key watch was never handed an acknowledged change of a key it watched, nor told of a gap covering it. */
        WATCH_SKIPPED_CHANGE("watched changes skipped without a gap notice"),
        /** A key watch was handed a key's versions out of order, or one twice. */
        WATCH_OUT_OF_ORDER("watched changes out of order"),
        /**
         * A read returned a value no write could have produced then: never written, written by a write that
         * was refused, or written by a write invoked after the read completed.
         */
        IMPOSSIBLE_READ("reads of values never written then"),
        /** An acknowledged compare-and-set is missing from the key's history of values. */
        LOST_CAS_UPDATE("lost acknowledged CAS updates"),
        /** An acknowledged increment is missing from, or counted twice in, the counter's value. */
        LOST_INCREMENT("lost acknowledged increments"),
        /**
         * After healing, a set lacked a member whose SADD was acknowledged, or which a read had returned (so its add
         * took effect).
         */
        LOST_SET_ADD("lost set adds"),
        /** An acknowledged RPUSH was never popped nor left in the list, and no pop of unknown outcome may have taken it. */
        LOST_PUSH("lost acknowledged list pushes"),
        /** A list element was popped twice, or popped and still in the list after healing. */
        DUPLICATE_POP("list elements popped twice"),
        /** A list element came out after one pushed after its push was acknowledged. */
        REORDERED_POP("list elements popped out of order"),
        /** After healing, a written key could not be read, so its writes went unchecked. */
        UNREADABLE_AFTER_HEALING("keys unreadable after healing"),
        /** After healing, an owner's copy of a segment held other entries than the active owner's copy. */
        DIVERGED_REPLICA("diverged replica copies"),
        /** After healing, an owner's copy of a partition could not be fetched, so it went uncompared. */
        UNCOMPARED_REPLICA("replica copies not compared"),
        /** A status the client promises to resolve (MOVED, MIGRATING, UNAVAILABLE …) reached the application. */
        SURFACED_STATUS("statuses surfaced to the application");

        private final String title;

        Kind(String title) {
            this.title = title;
        }

        /** How the report names findings of this kind. */
        String title() {
            return title;
        }
    }

    @Override
    public String toString() {
        return kind + " " + key + ": " + detail;
    }
}
