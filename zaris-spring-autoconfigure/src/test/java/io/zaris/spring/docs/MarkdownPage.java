package io.zaris.spring.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Markdown page of the documentation, read the way the drift checks need it: its sections, the rows of the
 * tables in a section, its fenced code blocks and the names it writes as code ({@code `name`}). A value: the
 * page is read once, at construction.
 */
final class MarkdownPage {

    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    /** A table cell ends at a pipe that is not escaped ({@code read-write\|read-only} stays one cell). */
    private static final Pattern CELL_SEPARATOR = Pattern.compile("(?<!\\\\)\\|");

    private final Path path;
    private final List<String> lines;

    private MarkdownPage(Path path, List<String> lines) {
        this.path = path;
        this.lines = lines;
    }

    static MarkdownPage read(Path path) {
        try {
            return new MarkdownPage(path, Files.readAllLines(path));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the documentation page " + path.toAbsolutePath(), e);
        }
    }

    Path path() {
        return path;
    }

    String text() {
        return String.join("\n", lines);
    }

    /**
     * The body rows of every table in the section under {@code heading} (a line such as
     * {@code ## Server options}), up to the next heading of the same or a higher level; each row as its cells,
     * trimmed. Header rows and separator rows are left out.
     *
     * @throws IllegalStateException when the page has no such heading, so a renamed section fails loudly
     */
    List<List<String>> tableRows(String heading) {
        int start = lines.indexOf(heading);
        if (start < 0) {
            throw new IllegalStateException(path + " has no heading '" + heading + "'");
        }
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        List<List<String>> rows = new ArrayList<>();
        boolean inTable = false;
        boolean inCode = false;
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.trim().startsWith("```")) {
                inCode = !inCode;
                continue;
            }
            if (inCode) {
                continue; // a '#' here is a comment in an example, not a heading
            }
            if (line.startsWith("#") && headingLevel(line) <= level.length() - 1) {
                break;
            }
            if (!line.startsWith("|")) {
                inTable = false;
                continue;
            }
            if (!inTable) {
                inTable = true; // the header row
                continue;
            }
            if (line.startsWith("|---") || line.startsWith("| ---")) {
                continue;
            }
            rows.add(cells(line));
        }
        return rows;
    }

    /** The contents of every fenced block opened with {@code ```language}. */
    List<String> codeBlocks(String language) {
        List<String> blocks = new ArrayList<>();
        StringBuilder block = null;
        for (String line : lines) {
            if (block == null && line.trim().equals("```" + language)) {
                block = new StringBuilder();
            } else if (block != null && line.trim().equals("```")) {
                blocks.add(block.toString());
                block = null;
            } else if (block != null) {
                block.append(line).append('\n');
            }
        }
        return blocks;
    }

    /**
     * The targets of the page's Markdown links ({@code [text](target)}) outside code blocks, in order.
     */
    List<String> linkTargets() {
        List<String> targets = new ArrayList<>();
        boolean inCode = false;
        for (String line : lines) {
            if (line.trim().startsWith("```")) {
                inCode = !inCode;
                continue;
            }
            if (!inCode) {
                Matcher matcher = LINK.matcher(line);
                while (matcher.find()) {
                    targets.add(matcher.group(1));
                }
            }
        }
        return targets;
    }

    /**
     * The anchors of the page's headings as GitHub makes them: lower case, punctuation other than {@code -} and
     * {@code _} dropped, spaces as {@code -}, and {@code -1}, {@code -2} appended to repeats.
     */
    Set<String> anchors() {
        Set<String> anchors = new LinkedHashSet<>();
        java.util.Map<String, Integer> repeats = new java.util.HashMap<>();
        boolean inCode = false;
        for (String line : lines) {
            if (line.trim().startsWith("```")) {
                inCode = !inCode;
                continue;
            }
            if (inCode || !line.startsWith("#")) {
                continue;
            }
            String title = line.substring(headingLevel(line)).trim().toLowerCase(java.util.Locale.ROOT);
            String anchor = title.replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
            int seen = repeats.merge(anchor, 1, Integer::sum) - 1;
            anchors.add(seen == 0 ? anchor : anchor + "-" + seen);
        }
        return anchors;
    }

    /**
     * The paragraph the page opens with: the lines after its first heading up to the next blank line, joined with
     * spaces. Empty when the page has no heading or when what follows the heading is not prose: another heading, a
     * table, a list, a quote, an image or a code block.
     */
    String openingParagraph() {
        int title = 0;
        while (title < lines.size() && !lines.get(title).startsWith("# ")) {
            title++;
        }
        int first = title + 1;
        while (first < lines.size() && lines.get(first).isBlank()) {
            first++;
        }
        if (first >= lines.size() || !startsProse(lines.get(first))) {
            return "";
        }
        StringBuilder paragraph = new StringBuilder();
        for (String line : lines.subList(first, lines.size())) {
            if (line.isBlank()) {
                break;
            }
            paragraph.append(paragraph.isEmpty() ? "" : " ").append(line.trim());
        }
        return paragraph.toString();
    }

    private static boolean startsProse(String line) {
        String start = line.trim();
        return !(start.startsWith("#") || start.startsWith("|") || start.startsWith("- ") || start.startsWith("* ")
                || start.startsWith(">") || start.startsWith("!") || start.startsWith("```")
                || start.matches("^\\d+\\. .*"));
    }

    /** Every name written as code in {@code text}, in order, without duplicates. */
    static Set<String> codeSpans(String text) {
        Set<String> spans = new LinkedHashSet<>();
        Matcher matcher = CODE_SPAN.matcher(text);
        while (matcher.find()) {
            spans.add(matcher.group(1));
        }
        return spans;
    }

    private static int headingLevel(String line) {
        int level = 0;
        while (level < line.length() && line.charAt(level) == '#') {
            level++;
        }
        return level;
    }

    private static List<String> cells(String row) {
        String inner = row.substring(1, row.endsWith("|") ? row.length() - 1 : row.length());
        List<String> cells = new ArrayList<>();
        for (String cell : CELL_SEPARATOR.split(inner, -1)) {
            cells.add(cell.trim());
        }
        return cells;
    }
}
