package io.zaris.server;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The server's option values merged from their three sources, by precedence: the command line, then the
 * environment ({@link ServerOption#environmentVariable()}), then the configuration file named by {@code --config}
 * (or {@code ZARIS_CONFIG}). Deprecated options are rewritten to their replacements here, with a warning, so the
 * parser sees only current names. The typed readers ({@link #value}, {@link #intValue}, {@link #duration}) read a
 * value as the catalog's type for its option, falling back to the catalog's constant default. Pure apart from reading
 * the file through the injected reader; built and read by one thread (the one parsing the command line).
 */
final class OptionSources {

    /** Current option → its value as text ({@code "true"} for a flag that is set). */
    private final Map<ServerOption, String> values = new LinkedHashMap<>();
    /** Current option → where its value came from, for error messages. */
    private final Map<ServerOption, String> origins = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();
    /** Current option → the deprecated spelling its value was given under, per source until merged. */
    private final Map<ServerOption, String> deprecatedSpellings = new LinkedHashMap<>();

    private OptionSources() {
    }

    /**
     * @throws IllegalArgumentException for an unknown option, a missing value, or an unreadable or malformed file
     */
    static OptionSources resolve(String[] args, Map<String, String> environment, ServerArguments.FileReader files) {
        OptionSources sources = new OptionSources();
        Map<ServerOption, String> commandLine = sources.commandLine(args);
        Map<String, String> commandLineSpellings = sources.takeDeprecatedSpellings();
        Map<ServerOption, String> fromEnvironment = sources.environment(environment);
        Map<String, String> environmentSpellings = sources.takeDeprecatedSpellings();
        String configFile = commandLine.containsKey(ServerOption.CONFIG) ? commandLine.get(ServerOption.CONFIG)
                : fromEnvironment.get(ServerOption.CONFIG);
        Map<ServerOption, String> fromFile = configFile == null ? Map.of() : sources.file(configFile, files);
        sources.merge(fromFile, configFile == null ? "" : "configuration file " + configFile, sources.takeDeprecatedSpellings());
        sources.merge(fromEnvironment, null, environmentSpellings);
        sources.merge(commandLine, "command line", commandLineSpellings);
        return sources;
    }

    String get(ServerOption option) {
        return values.get(option);
    }

    boolean has(ServerOption option) {
        return values.containsKey(option);
    }

    /** Where the option's value came from: {@code command line}, {@code environment variable ZARIS_PORT}, or the file. */
    String origin(ServerOption option) {
        return origins.get(option);
    }

    /** What the operator should change: deprecated spellings that were accepted. In the order they were found. */
    List<String> warnings() {
        return List.copyOf(warnings);
    }

    void warn(String warning) {
        warnings.add(warning);
    }

    /** The option's text as given, else its constant default from the catalog; {@code null} when neither. */
    String text(ServerOption option) {
        String given = values.get(option);
        return given != null ? given : option.defaultValue().value();
    }

    /**
     * A count, port or size option read as its catalog type and bounds: the given value, else the catalog's
     * constant default.
     *
     * @throws IllegalStateException for an option whose default the catalog derives (use {@link #intValue(ServerOption, int)})
     */
    int intValue(ServerOption option) {
        return (Integer) value(option);
    }

    /**
     * The option read as its catalog type ({@link ServerOption.ValueType#read}): the given value, else the catalog's
     * constant default.
     *
     * @throws IllegalStateException for an option whose default the catalog derives, which the caller must compute
     */
    Object value(ServerOption option) {
        String text = text(option);
        if (text == null) {
            throw new IllegalStateException(option.flag() + " has a derived default: the caller must give it");
        }
        return option.type().read(option.flag(), text);
    }

    /** A count, port or size option: the given value read as its type and bounds, else {@code derivedDefault}. */
    int intValue(ServerOption option, int derivedDefault) {
        String given = values.get(option);
        return given == null ? derivedDefault : (Integer) option.type().read(option.flag(), given);
    }

    /**
     * A duration option in its bounds: the given value, else the catalog's default. A plain number is still read
     * as milliseconds, with a deprecation warning naming the canonical spelling.
     */
    Duration duration(ServerOption option) {
        String given = values.get(option);
        if (given != null) {
            Durations.Parsed parsed = Durations.parse(option.flag(), given, "ms");
            if (parsed.withoutUnit()) {
                warn(option.flag() + " " + given.strip() + " has no unit, which is deprecated: write "
                        + Durations.describe(parsed.duration()) + " (units: us, ms, s, m, h)");
            }
        }
        return (Duration) value(option);
    }

    /** Takes the deprecated spellings the last source used, keyed by the current option's name. */
    private Map<String, String> takeDeprecatedSpellings() {
        Map<String, String> taken = new LinkedHashMap<>();
        deprecatedSpellings.forEach((option, spelling) -> taken.put(option.key(), spelling));
        deprecatedSpellings.clear();
        return taken;
    }

    /**
     * Lays one source over the values so far; a value given under a deprecated name has that name as its origin,
     * so an error about it names what the operator wrote.
     */
    private void merge(Map<ServerOption, String> source, String origin, Map<String, String> spellings) {
        source.forEach((option, value) -> {
            values.put(option, value);
            String spelling = spellings.get(option.key());
            origins.put(option, spelling != null ? spelling
                    : origin == null ? "environment variable " + option.environmentVariable() : origin);
        });
    }

    private Map<ServerOption, String> commandLine(String[] args) {
        Map<ServerOption, String> found = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            String value = null;
            int equals = name.indexOf('=');
            if (equals > 0) {
                value = name.substring(equals + 1);
                name = name.substring(0, equals);
            }
            ServerOption option = name.startsWith("--") ? ServerOption.named(name).orElse(null) : null;
            if (option == null) {
                throw new IllegalArgumentException("unknown option '" + name + "'");
            }
            if (option.isFlag()) {
                value = value == null ? "true" : value;
            } else if (value == null && i + 1 < args.length) {
                value = args[++i];
            }
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("option " + name + " needs a value");
            }
            put(found, option, value, option.flag());
        }
        return found;
    }

    private Map<ServerOption, String> environment(Map<String, String> environment) {
        Map<ServerOption, String> found = new LinkedHashMap<>();
        for (ServerOption option : ServerOption.values()) {
            String value = environment.get(option.environmentVariable());
            if (value == null || value.isBlank()) {
                continue; // unset, or set empty (as Compose does for an undefined ${VAR}): the option is not given
            }
            if (value.startsWith("tcp://") || value.startsWith("udp://")) {
                throw new IllegalArgumentException("environment variable " + option.environmentVariable() + " is '"
                        + value + "', which looks like a Kubernetes service link (a Service named 'zaris' sets"
                        + " ZARIS_PORT and friends): set enableServiceLinks: false on the pod, or name the Service"
                        + " differently");
            }
            put(found, option, value, option.environmentVariable());
        }
        return found;
    }

    private Map<ServerOption, String> file(String path, ServerArguments.FileReader files) {
        List<String> lines;
        try {
            lines = files.readLines(path);
        } catch (IOException e) {
            throw new IllegalArgumentException("--config " + path + " cannot be read: " + e.getMessage(), e);
        }
        Map<ServerOption, String> found = new LinkedHashMap<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = "configuration file " + path + " line " + (n + 1);
            int equals = line.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException(where + ": expected 'option-name = value' but was '" + line + "'");
            }
            String key = line.substring(0, equals).strip();
            String value = line.substring(equals + 1).strip();
            ServerOption option = key.startsWith("--") ? null : ServerOption.named(key).orElse(null);
            if (option == null || option == ServerOption.CONFIG) {
                throw new IllegalArgumentException(where + ": unknown option '" + key + "'");
            }
            if (value.isEmpty()) {
                throw new IllegalArgumentException(where + ": option " + key + " needs a value");
            }
            put(found, option, value, where + ": " + key);
        }
        return found;
    }

    /**
     * Records one value of one source under the option's current name: a deprecated option's plain number gets
     * its old unit ({@code --eviction-delay-ms 1500} becomes {@code --eviction-delay 1500ms}); a flag reads
     * {@code true}/{@code false}.
     */
    private void put(Map<ServerOption, String> found, ServerOption option, String value, String spelledAs) {
        ServerOption current = option.deprecatedFor().orElse(option);
        String text = value.strip();
        deprecatedSpellings.remove(current);
        if (option.deprecatedFor().isPresent()) {
            deprecatedSpellings.put(current, spelledAs);
            String converted = text.chars().allMatch(Character::isDigit) ? text + option.legacyUnit() : text;
            warnings.add(spelledAs + " is deprecated: write " + current.flag() + " " + converted + " (environment "
                    + current.environmentVariable() + ", file key " + current.key() + "); durations take a unit:"
                    + " 250us, 1500ms, 30s, 2m");
            text = converted;
        }
        if (current.isFlag()) {
            if (text.equalsIgnoreCase("false")) {
                found.remove(current);
                return;
            }
            if (!text.equalsIgnoreCase("true")) {
                throw new IllegalArgumentException(spelledAs + " is a flag: true or false but was '" + value + "'");
            }
        }
        found.put(current, text); // within one source the later spelling wins, as on any command line
    }
}
