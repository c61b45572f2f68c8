package io.zaris.spring.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the standalone server prints for {@code --help}, taken from a real run of its main class in a child JVM
 * on this test's class path, exactly as an operator would see it.
 */
final class ServerHelp {

    private static final String MAIN_CLASS = "io.zaris.server.ZarisServerMain";
    /** Generous: a JVM that only prints its help starts in about a second, but the build machine is shared. */
    private static final long TIMEOUT_SECONDS = 60;
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--([a-z][a-z0-9-]*)");

    private final String text;

    private ServerHelp(String text) {
        this.text = text;
    }

    static ServerHelp run() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"), MAIN_CLASS,
                "--help").redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(MAIN_CLASS + " --help did not exit within " + TIMEOUT_SECONDS + " s");
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IllegalStateException(MAIN_CLASS + " --help exited with " + process.exitValue() + ":\n" + text);
        }
        return new ServerHelp(text);
    }

    String text() {
        return text;
    }

    /**
     * Every option the help names, current and deprecated, as {@code --name}; {@code --help} itself is left out,
     * as it is a question to the command rather than a setting of the node.
     */
    Set<String> options() {
        Set<String> options = new TreeSet<>();
        Matcher matcher = OPTION.matcher(text);
        while (matcher.find()) {
            options.add("--" + matcher.group(1));
        }
        options.remove("--help");
        return options;
    }
}
