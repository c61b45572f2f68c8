package io.zaris.netbed;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a system command to its end and reports what it printed; the test bed's only way to touch the network. */
final class Shell {

    /** No command the bed runs takes more than a moment; one that hangs is a broken machine, not a slow one. */
    private static final long TIMEOUT_SECONDS = 30;

    /** A finished command: its exit status and its merged standard output and error. */
    record Result(List<String> command, int status, String output) {

        boolean succeeded() {
            return status == 0;
        }

        Result orThrow() {
            if (status != 0) {
                throw new IllegalStateException("'" + String.join(" ", command) + "' exited with " + status + ": "
                        + output.strip());
            }
            return this;
        }
    }

    private Shell() {
    }

    static Result run(List<String> command) {
        return run(command, null);
    }

    /** Runs {@code command}, writing {@code input} (if not null) to its standard input. */
    static Result run(List<String> command, String input) {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return new Result(command, 127, "cannot start: " + e.getMessage());
        }
        try (OutputStream stdin = process.getOutputStream()) {
            if (input != null) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            // the command exited before reading its input; its status and output say why
        }
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(command, 124, "did not finish within " + TIMEOUT_SECONDS + " s");
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Result(command, process.exitValue(), output);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return new Result(command, 130, "interrupted");
        } catch (IOException e) {
            return new Result(command, 1, "cannot read its output: " + e.getMessage());
        }
    }
}
