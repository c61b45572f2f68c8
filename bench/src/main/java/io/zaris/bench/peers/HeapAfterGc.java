package io.zaris.bench.peers;

import java.io.IOException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Live heap of a G1 JVM: asks it for a full collection ({@code jcmd GC.run}) and reads the used heap
 * afterwards ({@code jcmd GC.heap_info}).
 */
final class HeapAfterGc {

    private static final Pattern G1_USED = Pattern.compile("garbage-first heap\\s+total \\d+K, used (\\d+)K");

    private HeapAfterGc() {
    }

    static long bytes(long pid) throws IOException, InterruptedException {
        LocalProcesses.runToCompletion(List.of(LocalProcesses.jcmdBinary(), Long.toString(pid), "GC.run"));
        String info = LocalProcesses.runToCompletion(List.of(LocalProcesses.jcmdBinary(), Long.toString(pid), "GC.heap_info"));
        Matcher used = G1_USED.matcher(info);
        if (!used.find()) {
            throw new IOException("no G1 heap usage in jcmd output of " + pid + ": " + info);
        }
        return Long.parseLong(used.group(1)) * 1024;
    }
}
