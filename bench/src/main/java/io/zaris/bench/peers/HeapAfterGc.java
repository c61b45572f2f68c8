package io.zaris.bench.peers;

import java.io.IOException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Live heap of a JVM running G1 or the parallel collector: asks it for a full collection
 * ({@code jcmd GC.run}) and reads the used heap afterwards ({@code jcmd GC.heap_info}): G1 reports one
 * heap, the parallel collector its young and old generations, which are added up.
 */
final class HeapAfterGc {

    private static final Pattern G1_USED = Pattern.compile("garbage-first heap\\s+total \\d+K, used (\\d+)K");
    private static final Pattern PARALLEL_USED = Pattern.compile("(?:PSYoungGen|ParOldGen)\\s+total \\d+K, used (\\d+)K");

    private HeapAfterGc() {
    }

    static long bytes(long pid) throws IOException, InterruptedException {
        LocalProcesses.runToCompletion(List.of(LocalProcesses.jcmdBinary(), Long.toString(pid), "GC.run"));
        String info = LocalProcesses.runToCompletion(List.of(LocalProcesses.jcmdBinary(), Long.toString(pid), "GC.heap_info"));
        return usedKilobytes(info, pid) * 1024;
    }

    static long usedKilobytes(String heapInfo, long pid) throws IOException {
        Matcher g1 = G1_USED.matcher(heapInfo);
        if (g1.find()) {
            return Long.parseLong(g1.group(1));
        }
        Matcher generations = PARALLEL_USED.matcher(heapInfo);
        long used = 0;
        int found = 0;
        while (generations.find()) {
            used += Long.parseLong(generations.group(1));
            found++;
        }
        if (found != 2) {
            throw new IOException("no G1 heap and no young + old generation usage in jcmd output of " + pid + ": " + heapInfo);
        }
        return used;
    }
}
