package io.zaris.chaos;

/**
 * Whether an operation that changes state took effect, as far as its caller can know.
 *
 * <p>The client retries transient failures inside one call and throws only the last attempt's failure. A
 * refusal on the last attempt therefore says nothing about an earlier attempt that timed out: that one may
 * have been applied. So an operation is determinate only when neither its reply nor any earlier attempt of
 * it was ambiguous.
 */
enum Outcome {
    /** Acknowledged: it took effect. */
    OK,
    /** Known not to have taken effect (a refusal or a failed condition, every attempt unambiguous). */
    FAILED,
    /** May or may not have taken effect. */
    INDETERMINATE;

    /**
     * @param reply                  what the caller got back
     * @param ambiguousAttemptBefore whether an earlier attempt of the same call was sent and got no answer or
     *                               an ambiguous one
     */
    static Outcome of(Reply reply, boolean ambiguousAttemptBefore) {
        if (reply.tookEffect()) {
            return OK;
        }
        if (reply.isAmbiguous() || ambiguousAttemptBefore) {
            return INDETERMINATE;
        }
        return FAILED;
    }

    /** Whether a value this operation wrote may be in the store. */
    boolean mayHaveTakenEffect() {
        return this != FAILED;
    }
}
