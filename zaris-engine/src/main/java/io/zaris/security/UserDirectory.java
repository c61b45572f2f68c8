package io.zaris.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The users a node accepts: the shared password (user {@value Credentials#DEFAULT_USER}) and optionally
 * named users with a password and a read-only flag. Immutable and thread-safe.
 *
 * <p>Only SHA-256 digests of the passwords are kept. A check digests the offered password and compares
 * digests with {@link MessageDigest#isEqual} (constant time), also for unknown users, so neither the
 * password's length nor a user's existence shows in the answer time.
 *
 * <p>Users file format, one user per line ({@code #} starts a comment):
 * <pre>
 * # name   access      password (the rest of the line)
 * app      read-write  s3cret passphrase
 * reports  read-only   another one
 * </pre>
 */
public final class UserDirectory {

    private static final UserDirectory OPEN = new UserDirectory(Map.of());
    private static final byte[] NO_USER_DIGEST = sha256("no such user".getBytes(StandardCharsets.UTF_8));

    private record User(Principal principal, byte[] passwordDigest) {
    }

    private final Map<String, User> users;

    private UserDirectory(Map<String, User> users) {
        this.users = Map.copyOf(users);
    }

    /** No authentication: every connection is {@link Principal#UNAUTHENTICATED}. */
    public static UserDirectory open() {
        return OPEN;
    }

    /** Only the shared password (the default user, with node access). */
    public static UserDirectory withPassword(String password) {
        return of(password, List.of());
    }

    /**
     * The shared password plus the users of a users file.
     *
     * @param sharedPassword the default user's password; required, because nodes log in to each other with it
     * @throws IllegalArgumentException naming the line of a malformed entry
     */
    public static UserDirectory of(String sharedPassword, List<String> usersFileLines) {
        Credentials shared = Credentials.password(sharedPassword);
        Map<String, User> users = new LinkedHashMap<>();
        users.put(shared.user(), new User(new Principal(shared.user(), false, true), sha256(shared.passwordBytes())));
        for (int i = 0; i < usersFileLines.size(); i++) {
            String line = usersFileLines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+", 3);
            if (parts.length < 3) {
                throw new IllegalArgumentException("users file line " + (i + 1) + ": expected '<name> read-write|read-only <password>'");
            }
            String name = parts[0];
            boolean readOnly = switch (parts[1].toLowerCase(Locale.ROOT)) {
                case "read-only" -> true;
                case "read-write" -> false;
                default -> throw new IllegalArgumentException("users file line " + (i + 1) + ": access must be read-write or "
                        + "read-only but was '" + parts[1] + "'");
            };
            if (name.equals(Credentials.DEFAULT_USER)) {
                throw new IllegalArgumentException("users file line " + (i + 1) + ": '" + Credentials.DEFAULT_USER
                        + "' is the shared password's user; set it with the password option");
            }
            if (users.containsKey(name)) {
                throw new IllegalArgumentException("users file line " + (i + 1) + ": user '" + name + "' is listed twice");
            }
            Credentials credentials = new Credentials(name, parts[2]);
            users.put(name, new User(new Principal(name, readOnly, false), sha256(credentials.passwordBytes())));
        }
        return new UserDirectory(users);
    }

    /** Whether connections must log in before anything else. */
    public boolean isRequired() {
        return !users.isEmpty();
    }

    /** Named users besides the default one. */
    public int namedUsers() {
        return Math.max(0, users.size() - 1);
    }

    /** The principal for these credentials, or {@code null} when the pair is wrong (or the user unknown). */
    public Principal authenticate(String user, byte[] password) {
        User known = users.get(user);
        byte[] offered = sha256(password);
        boolean matches = MessageDigest.isEqual(offered, known == null ? NO_USER_DIGEST : known.passwordDigest());
        return known != null && matches ? known.principal() : null;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
