package io.zaris.client;

/**
 * The type of the value a key holds, as Redis's {@code TYPE} names it ({@link #redisName()}); an absent key has none
 * ({@link ZarisClient#type} answers empty).
 */
public enum KeyType {
    STRING("string"),
    HASH("hash"),
    LIST("list"),
    SET("set"),
    SORTED_SET("zset");

    private final String redisName;

    KeyType(String redisName) {
        this.redisName = redisName;
    }

    /** The name Redis's TYPE answers for this type. */
    public String redisName() {
        return redisName;
    }

    /**
     * The type Redis's TYPE names {@code name}, or {@code null} for {@code none} (no key).
     *
     * @throws IllegalArgumentException for a name no type has
     */
    static KeyType fromRedisName(String name) {
        if (name.equals("none")) {
            return null;
        }
        for (KeyType type : values()) {
            if (type.redisName.equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown key type '" + name + "'");
    }
}
