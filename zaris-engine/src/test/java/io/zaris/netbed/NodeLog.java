package io.zaris.netbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what a standalone node logged (the server's pattern starts every line with {@code HH:mm:ss.SSS}) for the
 * events a partition test times: membership views and owner lease changes. Times are wall-clock times of day,
 * comparable with {@link LocalTime#now()} in the test JVM (same machine, same clock).
 */
record NodeLog(Path file) {

    private static final Pattern VIEW = Pattern.compile(
            "^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .* node (\\S+): membership view \\[(\\S+)\\|(\\d+)] with (\\d+) member\\(s\\)( \\(merge\\))?");
    private static final Pattern TIME = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) ");

    /** A membership view a node installed: when, its id (coordinator and number), its size, whether it merged. */
    record View(LocalTime time, String coordinator, long number, int size, boolean merge) {

        String id() {
            return coordinator + "|" + number;
        }
    }

    /** Every view the node logged, in order. */
    List<View> views() {
        List<View> views = new ArrayList<>();
        for (String line : lines()) {
            Matcher matcher = VIEW.matcher(line);
            if (matcher.find()) {
                views.add(new View(LocalTime.parse(matcher.group(1)), matcher.group(3), Long.parseLong(matcher.group(4)),
                        Integer.parseInt(matcher.group(5)), matcher.group(6) != null));
            }
        }
        return views;
    }

    /** Views installed at or after {@code since}. */
    List<View> viewsSince(LocalTime since) {
        return views().stream().filter(view -> seconds(since, view.time()) >= 0).toList();
    }

    /** A line of the log and when it was logged. */
    record Line(LocalTime time, String text) {
    }

    /** The lines containing {@code fragment} logged at or after {@code since}. */
    List<Line> linesSince(String fragment, LocalTime since) {
        List<Line> found = new ArrayList<>();
        for (String line : lines()) {
            Matcher matcher = TIME.matcher(line);
            if (line.contains(fragment) && matcher.find()) {
                LocalTime time = LocalTime.parse(matcher.group(1));
                if (seconds(since, time) >= 0) {
                    found.add(new Line(time, line));
                }
            }
        }
        return found;
    }

    /** Seconds from {@code from} to {@code to}, both times of the same day or of a run across midnight. */
    static double seconds(LocalTime from, LocalTime to) {
        Duration between = Duration.between(from, to);
        if (between.compareTo(Duration.ofHours(-12)) < 0) {
            between = between.plusDays(1);
        }
        return between.toMillis() / 1000.0;
    }

    private List<String> lines() {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read node log " + file, e);
        }
    }
}
