package io.zaris.bench.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resident memory of a process as Linux accounts it: {@code VmRSS} in {@code /proc/<pid>/status}, every page of the
 * process that sits in RAM (heap, code, thread stacks, allocator caches, direct buffers). It is what a host or a
 * container limit has to provide for the process, whatever the process itself reports as used.
 */
final class ResidentMemory {

    private static final Pattern VM_RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+) kB$");

    private ResidentMemory() {
    }

    /** Resident bytes of the process; a typed error where {@code /proc} does not have them (no Linux, or gone). */
    static long bytes(long pid) throws IOException {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        String text;
        try {
            text = Files.readString(status);
        } catch (IOException e) {
            throw new IOException("cannot read the resident memory of process " + pid + " from " + status, e);
        }
        return kilobytes(text, pid) * 1024;
    }

    /** The {@code VmRSS} figure of a {@code status} file's text, in kB. */
    static long kilobytes(String statusText, long pid) throws IOException {
        Matcher matcher = VM_RSS.matcher(statusText);
        if (!matcher.find()) {
            throw new IOException("no VmRSS line in the status of process " + pid);
        }
        return Long.parseLong(matcher.group(1));
    }
}
