package io.zaris.spring.docs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The dotted keys of a YAML example that carry a value ({@code zaris.client.seeds} for
 * {@code zaris:\n  client:\n    seeds: a,b}), from indentation alone: enough for the block-style maps the
 * documentation uses, not a YAML parser. Comments and list items are skipped.
 */
final class YamlKeys {

    private YamlKeys() {
    }

    static Set<String> leaves(String yaml) {
        Set<String> leaves = new LinkedHashSet<>();
        List<Integer> indents = new ArrayList<>();
        List<String> path = new ArrayList<>();
        for (String raw : yaml.split("\n")) {
            String line = stripComment(raw);
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("-") || trimmed.equals("---")) {
                continue;
            }
            int colon = trimmed.indexOf(':');
            if (colon < 0) {
                continue;
            }
            int indent = line.length() - line.stripLeading().length();
            while (!indents.isEmpty() && indents.get(indents.size() - 1) >= indent) {
                indents.remove(indents.size() - 1);
                path.remove(path.size() - 1);
            }
            String key = trimmed.substring(0, colon).trim();
            String value = trimmed.substring(colon + 1).trim();
            if (value.isEmpty()) {
                indents.add(indent);
                path.add(key);
            } else {
                leaves.add(path.isEmpty() ? key : String.join(".", path) + "." + key);
            }
        }
        return leaves;
    }

    /** The line up to a {@code #} that starts a comment (at the start or after a space). */
    private static String stripComment(String line) {
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '#' && (i == 0 || line.charAt(i - 1) == ' ')) {
                return line.substring(0, i);
            }
        }
        return line;
    }
}
