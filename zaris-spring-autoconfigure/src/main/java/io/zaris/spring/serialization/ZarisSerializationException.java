package io.zaris.spring.serialization;

/** A value could not be written to, or read from, its stored bytes. */
public class ZarisSerializationException extends RuntimeException {

    public ZarisSerializationException(String message) {
        super(message);
    }

    public ZarisSerializationException(String message, Throwable cause) {
        super(message, cause);
    }
}
