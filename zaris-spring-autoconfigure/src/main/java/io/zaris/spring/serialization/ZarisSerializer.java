package io.zaris.spring.serialization;

/**
 * Turns values into the bytes Zaris stores and back, for the cache and for {@code ZarisTemplate}.
 * Implementations must be thread-safe: one instance serves every caller.
 *
 * <p>Reading is the dangerous direction: bytes in a shared cluster may have been written by anyone who
 * can reach it. Implementations restrict what they instantiate to an allow-list
 * ({@link ClassAllowList}) and fail with {@link ZarisSerializationException} otherwise.
 */
public interface ZarisSerializer {

    /**
     * @throws ZarisSerializationException when the value cannot be written (e.g. not {@code Serializable})
     */
    byte[] serialize(Object value);

    /**
     * @throws ZarisSerializationException when the bytes cannot be read or name a class outside the
     *                                     allow-list
     */
    Object deserialize(byte[] bytes);
}
