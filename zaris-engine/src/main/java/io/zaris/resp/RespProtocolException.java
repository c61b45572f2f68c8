package io.zaris.resp;

/** The byte stream of a RESP connection broke the protocol or a {@link RespLimits} limit; its message is Redis's wording. */
final class RespProtocolException extends Exception {

    RespProtocolException(String message) {
        super(message, null, false, false);
    }
}
