package io.zaris.store;

/** A command met a key holding another type of value (a string command on a hash, or the reverse). */
public final class WrongTypeException extends RuntimeException {

    /** Redis's own wording, which clients match on the {@code WRONGTYPE} prefix. */
    public static final String MESSAGE = "WRONGTYPE Operation against a key holding the wrong kind of value";

    public WrongTypeException() {
        super(MESSAGE, null, false, false);
    }
}
