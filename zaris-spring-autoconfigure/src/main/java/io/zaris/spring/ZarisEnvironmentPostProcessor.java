package io.zaris.spring;

import io.zaris.client.ClientEnvironment;
import io.zaris.client.RequestTimeout;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Maps the client's environment variables onto {@link ZarisProperties}, so that Spring's environment is
 * the single source of truth for client settings:
 * <pre>
 * variable                           property                        example
 * ZARIS_REQUEST_TIMEOUT              zaris.request-timeout           60s, 1500ms, 15000, infinite
 * ZARIS_DISABLE_RETRIES              zaris.client.disable-retries    true, false
 * ZARIS_CLIENT_MAP_REFRESH_WAIT      zaris.client.map-refresh-wait   15s, 1500ms
 * ZARIS_CLIENT_MAP_REFRESH_WAIT_MS   zaris.client.map-refresh-wait   15000 (deprecated: milliseconds; when the one above is unset)
 * ZARIS_PASSWORD                     zaris.security.password         the password to log in with
 * ZARIS_USER                         zaris.security.username         the user to log in as
 * </pre>
 *
 * <p><b>The server's names.</b> The TLS variables a standalone server reads ({@code ZARIS_TLS_CERT},
 * {@code ZARIS_TLS_KEY}, {@code ZARIS_TLS_CA}, {@code ZARIS_TLS_KEYSTORE_PASSWORD},
 * {@code ZARIS_TLS_TRUSTSTORE_PASSWORD}; see {@link ServerTlsVariable}) set the matching {@code zaris.tls.*}
 * properties too, so one set of variables configures both. The names relaxed binding derives from the
 * properties ({@code ZARIS_TLS_KEYSTOREPASSWORD}, ...) keep working as older spellings; set to a different value
 * than the server's name beside them, they stop start-up rather than letting one silently win.
 *
 * <p><b>Precedence.</b> The mapped values go into a property source placed right after
 * {@code systemEnvironment}: like any environment variable they beat {@code application.yml} and lose to
 * command-line arguments and system properties. The variables are read from the {@code systemEnvironment}
 * property source rather than {@link System#getenv()}, so an application (or a test) that supplies its
 * own environment is honoured.
 *
 * <p><b>No double application.</b> {@code ZarisClientOptions.Builder.build()} would apply the same
 * variables from {@code System.getenv()} on its own; {@link ZarisAutoConfiguration} hands it an empty
 * environment instead, because this class already did the work (and validated it).
 *
 * <p><b>Bad values</b> stop start-up here, before any bean exists, with an
 * {@link InvalidZarisEnvironmentVariableException} that {@link ZarisEnvironmentFailureAnalyzer} turns into
 * a report naming the variable and showing an example.
 */
public final class ZarisEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    /** Name of the property source holding the mapped variables. */
    public static final String PROPERTY_SOURCE_NAME = "zarisEnvironmentVariables";

    /** Runs early; it only reads the system environment, which exists from the start. */
    private static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 20;

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        PropertySource<?> system = environment.getPropertySources()
                .get(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        if (system == null) {
            return;
        }
        Map<String, Object> mapped = map(name -> {
            Object value = system.getProperty(name);
            return value == null ? null : value.toString();
        });
        if (!mapped.isEmpty()) {
            environment.getPropertySources().addAfter(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                    new MapPropertySource(PROPERTY_SOURCE_NAME, mapped));
        }
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    /**
     * The properties the variables stand for, validated. A pure function of the variable lookup.
     *
     * @throws InvalidZarisEnvironmentVariableException for the first variable with a bad value
     */
    static Map<String, Object> map(java.util.function.Function<String, String> variables) {
        Map<String, Object> properties = new LinkedHashMap<>();
        String timeout = variables.apply(ClientEnvironment.REQUEST_TIMEOUT);
        if (timeout != null) {
            try {
                properties.put("zaris.request-timeout", RequestTimeout.valueOf(timeout).toString());
            } catch (IllegalArgumentException e) {
                throw new InvalidZarisEnvironmentVariableException(ClientEnvironment.REQUEST_TIMEOUT, timeout,
                        "a positive duration such as 60s, 1500ms or 15000 (milliseconds), or infinite",
                        ClientEnvironment.REQUEST_TIMEOUT + "=30s");
            }
        }
        String disable = variables.apply(ClientEnvironment.DISABLE_RETRIES);
        if (disable != null) {
            String normalized = disable.trim().toLowerCase(Locale.ROOT);
            if (!normalized.equals("true") && !normalized.equals("false")) {
                throw new InvalidZarisEnvironmentVariableException(ClientEnvironment.DISABLE_RETRIES, disable,
                        "true or false", ClientEnvironment.DISABLE_RETRIES + "=true");
            }
            properties.put("zaris.client.disable-retries", normalized);
        }
        String wait = variables.apply(ClientEnvironment.MAP_REFRESH_WAIT);
        String waitMillis = variables.apply(ClientEnvironment.MAP_REFRESH_WAIT_MS);
        if (wait != null || waitMillis != null) {
            try {
                properties.put("zaris.client.map-refresh-wait",
                        ClientEnvironment.mapRefreshWait(wait, waitMillis).toMillis() + "ms");
            } catch (IllegalArgumentException e) {
                throw wait != null
                        ? new InvalidZarisEnvironmentVariableException(ClientEnvironment.MAP_REFRESH_WAIT, wait,
                                "a positive duration such as 15s or 1500ms", ClientEnvironment.MAP_REFRESH_WAIT + "=15s")
                        : new InvalidZarisEnvironmentVariableException(ClientEnvironment.MAP_REFRESH_WAIT_MS, waitMillis,
                                "a positive whole number of milliseconds (or " + ClientEnvironment.MAP_REFRESH_WAIT
                                        + " with a unit)", ClientEnvironment.MAP_REFRESH_WAIT_MS + "=15000");
            }
        }
        String password = variables.apply(ClientEnvironment.PASSWORD);
        if (password != null) {
            if (password.isEmpty()) {
                throw new InvalidZarisEnvironmentVariableException(ClientEnvironment.PASSWORD, "",
                        "a non-empty password", ClientEnvironment.PASSWORD + "=<the cluster's password>");
            }
            properties.put("zaris.security.password", password);
        }
        String user = variables.apply(ClientEnvironment.USER);
        if (user != null) {
            properties.put("zaris.security.username", user.trim());
        }
        for (ServerTlsVariable tls : ServerTlsVariable.values()) {
            String value = variables.apply(tls.variable());
            if (value == null) {
                continue;
            }
            String older = variables.apply(tls.relaxedSpelling());
            if (older != null && !older.equals(value)) {
                throw new InvalidZarisEnvironmentVariableException(tls.variable(), value, "the same value as "
                        + tls.relaxedSpelling() + " (its older spelling, also set) or that one unset",
                        "unset " + tls.relaxedSpelling() + " and keep " + tls.variable());
            }
            properties.put(tls.property(), value);
        }
        return properties;
    }
}
