package io.zaris.security;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What a connection presents to log in: a user name and a password. The shared password of a node is the
 * password of the user {@value #DEFAULT_USER}. {@link #toString()} never shows the password.
 */
public record Credentials(String user, String password) {

    /** The user a bare password logs in as (as in Redis); also the identity nodes use among themselves. */
    public static final String DEFAULT_USER = "default";

    public Credentials {
        if (user == null || user.isBlank() || user.length() > 128) {
            throw new IllegalArgumentException("user must be 1..128 non-blank characters");
        }
        Objects.requireNonNull(password, "password");
        if (password.isEmpty() || password.getBytes(StandardCharsets.UTF_8).length > 1024) {
            throw new IllegalArgumentException("password must be 1..1024 bytes");
        }
    }

    /** The shared password, as the default user. */
    public static Credentials password(String password) {
        return new Credentials(DEFAULT_USER, password);
    }

    public byte[] passwordBytes() {
        return password.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "Credentials[user=" + user + ", password=<hidden>]";
    }
}
