package io.zaris.client;

import io.zaris.security.Credentials;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The client's environment variables, with their exact names and meanings. They override what was set
 * in code (operators change them without a rebuild). A bad value fails client construction with a
 * message naming the variable and the value.
 */
public final class ClientEnvironment {

    /** Deadline of one operation across its attempts: {@code 60s}, {@code 1500ms}, millis, or {@code infinite}. */
    public static final String REQUEST_TIMEOUT = "ZARIS_REQUEST_TIMEOUT";
    /** {@code true}: every operation makes exactly one attempt. */
    public static final String DISABLE_RETRIES = "ZARIS_DISABLE_RETRIES";
    /** How long a caller waits for a shared map refresh before retrying with the map it has: {@code 15s}, {@code 1500ms}. */
    public static final String MAP_REFRESH_WAIT = "ZARIS_CLIENT_MAP_REFRESH_WAIT";
    /** Deprecated spelling of {@link #MAP_REFRESH_WAIT} in plain milliseconds; read only when that one is unset. */
    public static final String MAP_REFRESH_WAIT_MS = "ZARIS_CLIENT_MAP_REFRESH_WAIT_MS";
    /** The password the client logs in with (the cluster's shared password, or {@link #USER}'s). */
    public static final String PASSWORD = "ZARIS_PASSWORD";
    /** The user the client logs in as with {@link #PASSWORD}; {@code default} when unset. */
    public static final String USER = "ZARIS_USER";

    private ClientEnvironment() {
    }

    static void apply(ZarisClientOptions.Builder builder, Map<String, String> environment) {
        String timeout = environment.get(REQUEST_TIMEOUT);
        if (timeout != null) {
            try {
                builder.requestTimeout(RequestTimeout.valueOf(timeout));
            } catch (IllegalArgumentException e) {
                throw invalid(REQUEST_TIMEOUT, timeout, "60s, 1500ms, 15000 or infinite");
            }
        }
        String disable = environment.get(DISABLE_RETRIES);
        if (disable != null) {
            builder.disableRetries(parseBoolean(DISABLE_RETRIES, disable));
        }
        Duration wait = mapRefreshWait(environment.get(MAP_REFRESH_WAIT), environment.get(MAP_REFRESH_WAIT_MS));
        if (wait != null) {
            builder.mapRefreshWait(wait);
        }
        applyCredentials(builder, environment.get(USER), environment.get(PASSWORD));
    }

    /**
     * The map refresh wait the two variables give, {@code null} when neither is set: {@link #MAP_REFRESH_WAIT} as a
     * positive duration ({@code 15s}, {@code 1500ms}, or a plain number of milliseconds), else the deprecated
     * {@link #MAP_REFRESH_WAIT_MS} as a positive whole number of milliseconds.
     *
     * @throws IllegalArgumentException naming the variable and its value when the one read is not such a value
     */
    public static Duration mapRefreshWait(String wait, String deprecatedMillis) {
        if (wait != null) {
            RequestTimeout parsed;
            try {
                parsed = RequestTimeout.valueOf(wait);
            } catch (IllegalArgumentException e) {
                throw invalid(MAP_REFRESH_WAIT, wait, "15s or 1500ms");
            }
            if (parsed.isInfinite()) {
                throw invalid(MAP_REFRESH_WAIT, wait, "15s or 1500ms");
            }
            return parsed.duration();
        }
        if (deprecatedMillis == null) {
            return null;
        }
        long millis;
        try {
            millis = Long.parseLong(deprecatedMillis.trim());
        } catch (NumberFormatException e) {
            throw invalid(MAP_REFRESH_WAIT_MS, deprecatedMillis, "15000 (or " + MAP_REFRESH_WAIT + "=15s)");
        }
        if (millis <= 0) {
            throw invalid(MAP_REFRESH_WAIT_MS, deprecatedMillis, "15000 (or " + MAP_REFRESH_WAIT + "=15s)");
        }
        return Duration.ofMillis(millis);
    }

    private static void applyCredentials(ZarisClientOptions.Builder builder, String user, String password) {
        if (password == null) {
            if (user != null) {
                throw new IllegalArgumentException("environment variable " + USER + " is set but " + PASSWORD + " is not");
            }
            return;
        }
        if (password.isEmpty()) {
            throw new IllegalArgumentException("environment variable " + PASSWORD + " is set but empty");
        }
        String name = user != null ? user.trim()
                : builder.credentials() != null ? builder.credentials().user() : Credentials.DEFAULT_USER;
        try {
            builder.credentials(new Credentials(name, password));
        } catch (IllegalArgumentException e) {
            // Never echo the password itself.
            throw new IllegalArgumentException("environment variables " + USER + "/" + PASSWORD + " are invalid: "
                    + e.getMessage());
        }
    }

    private static boolean parseBoolean(String name, String value) {
        String normalized = value.trim().toLowerCase(Locale.ROOT);
        if (normalized.equals("true")) {
            return true;
        }
        if (normalized.equals("false")) {
            return false;
        }
        throw invalid(name, value, "true or false");
    }

    private static IllegalArgumentException invalid(String name, String value, String example) {
        return new IllegalArgumentException("environment variable " + name + "='" + value + "' is invalid; expected e.g. "
                + example);
    }
}
