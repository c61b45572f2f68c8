package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The reference page's server-options tables agree with the catalog ({@link ServerOption}) row by row: every option
 * once, with its environment variable and its default as the catalog renders it ({@link
 * ServerOption.Default#inReference()}), and no row for an option the catalog does not have.
 */
@Tag("unit")
class ServerOptionReferenceTests {

    /** {@code | `--name` | `ZARIS_NAME` | default | meaning |}: a row of the options table. */
    private static final Pattern OPTION_ROW = Pattern.compile("^\\| `(--[a-z0-9-]+)` \\| `([A-Z0-9_]+)` \\| (.+?) \\| .*\\|$");
    /** {@code | `--name-ms` (`ZARIS_NAME_MS`) | ms | `--name` |}: a row of the deprecated options' table. */
    private static final Pattern DEPRECATED_ROW = Pattern.compile(
            "^\\| `(--[a-z0-9-]+)` \\(`([A-Z0-9_]+)`\\) \\| (\\S+) \\| `(--[a-z0-9-]+)` \\|$");

    @Test
    void theOptionsTableHasOneRowPerOptionWithItsVariableAndDefault() throws IOException {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (String line : serverOptionsSection()) {
            Matcher row = OPTION_ROW.matcher(line);
            if (row.matches() && rows.put(row.group(1), List.of(row.group(2), row.group(3))) != null) {
                duplicates.add(row.group(1));
            }
        }
        assertThat(duplicates).as("options listed twice").isEmpty();
        List<String> current = ServerOption.current().stream().map(ServerOption::flag).toList();
        assertThat(rows.keySet()).as("rows of docs/configuration.md's server options, in the catalog's order")
                .containsExactlyElementsOf(current);
        for (ServerOption option : ServerOption.current()) {
            List<String> row = rows.get(option.flag());
            assertThat(row.get(0)).as("%s's environment variable", option.flag()).isEqualTo(option.environmentVariable());
            assertThat(row.get(1)).as("%s's default", option.flag()).isEqualTo(option.defaultValue().inReference());
        }
    }

    @Test
    void theDeprecatedOptionsTableNamesEachOldSpellingItsUnitAndItsReplacement() throws IOException {
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : serverOptionsSection()) {
            Matcher row = DEPRECATED_ROW.matcher(line);
            if (row.matches()) {
                ServerOption option = ServerOption.named(row.group(1)).orElseThrow(
                        () -> new AssertionError("stale row for " + row.group(1)));
                assertThat(row.group(2)).isEqualTo(option.environmentVariable());
                assertThat(row.group(3)).isEqualTo(option.legacyUnit().equals("us") ? "µs" : option.legacyUnit());
                assertThat(option.deprecatedFor()).map(ServerOption::flag).contains(row.group(4));
                rows.put(row.group(1), row.group(4));
            }
        }
        assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(java.util.Arrays.stream(ServerOption.values())
                .filter(option -> option.deprecatedFor().isPresent()).map(ServerOption::flag).toList());
    }

    @Test
    void theHelpListsEveryCurrentOptionWithItsDefault() {
        String usage = ServerArguments.usage();
        for (ServerOption option : ServerOption.current()) {
            assertThat(usage).contains("  " + option.flag() + (option.isFlag() ? " " : " " + option.valueLabel() + " "));
            assertThat(usage).contains(option.help() + option.defaultValue().inHelp() + "\n");
        }
    }

    /** The lines of docs/configuration.md from "## Server options" to the next heading of that level. */
    private static List<String> serverOptionsSection() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "docs", "configuration.md"));
        int start = lines.indexOf("## Server options");
        assertThat(start).as("docs/configuration.md has a '## Server options' section").isNotNegative();
        int end = start + 1;
        while (end < lines.size() && !lines.get(end).startsWith("## ")) {
            end++;
        }
        return lines.subList(start, end);
    }
}
