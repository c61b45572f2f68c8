package io.zaris.chaos;

import io.zaris.client.WatchGap;
import io.zaris.placement.SegmentMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks what each key watch of a run was handed against the writes of the single-writer keys it watched. Two rules,
 * per watch:
 * <ul>
 *   <li><b>in order</b>: the versions handed on for one key strictly ascend (a repeat counts as out of order). A
 *       {@link WatchGap.Reason#HISTORY_LOST} notice of the key's segment starts the key afresh: the new owner's
 *       history may not hold the revisions last handed on (lost ASYNC writes), and its own writes may reuse them;</li>
 *   <li><b>nothing skipped silently</b>: every PUT acknowledged with a revision, of a key under the watch's prefix,
 *       invoked after the watch was live and completed before it was closed, was handed on with that version, or a
 *       gap notice covers it. A notice of the key's segment covers the revisions after its {@code afterRevision} up
 *       to its {@code upToRevision} (every revision up to it when {@code afterRevision} is {@code -1}, which a stream
 *       that could not resume reports, or when the range is inverted: the new owner's history is behind the position,
 *       after lost ASYNC writes); one of every segment ({@code LISTENER_TOO_SLOW}) covers the
 *       writes invoked before it was handed on. Under ASYNC a skipped write named lost to its writer is
 *       excused.</li>
 * </ul>
 * DELETEs are held to the order rule only: their acknowledgement names no revision to look for. Pure: the same
 * history gives the same findings.
 */
final class WatchCheck {

    private WatchCheck() {
    }

    /**
     * @param keys the history's operations by key; keys with plain writes are the single-writer keys
     * @throws IllegalArgumentException when the history has watches but no segment count
     */
    static Verdict.Watching check(History.Watches watches, Map<String, KeyOps> keys, AsyncLosses losses,
                                  Findings findings) {
        if (watches.spans().isEmpty()) {
            return Verdict.Watching.NONE;
        }
        if (watches.segmentCount() <= 0) {
            throw new IllegalArgumentException("watches without the cluster's segment count: " + watches.spans());
        }
        SegmentMapper segments = new SegmentMapper(watches.segmentCount());
        Map<Integer, List<WatchEvent>> byWatcher = new LinkedHashMap<>();
        Map<String, Long> gaps = new TreeMap<>();
        long changes = 0;
        for (WatchEvent event : watches.events()) {
            byWatcher.computeIfAbsent(event.watcher(), w -> new ArrayList<>()).add(event);
            if (event instanceof WatchEvent.Gap gap) {
                gaps.merge(gap.reason().name(), 1L, Long::sum);
            } else {
                changes++;
            }
        }
        long[] owed = new long[3]; // owed, delivered, covered by a gap
        for (WatchEvent.Span span : watches.spans()) {
            List<WatchEvent> events = byWatcher.getOrDefault(span.watcher(), List.of());
            checkOrder(span, events, segments, findings);
            checkSkips(span, events, keys, segments, losses, findings, owed);
        }
        return new Verdict.Watching(watches.spans().size(), changes, gaps, owed[0], owed[1], owed[2]);
    }

    private static void checkOrder(WatchEvent.Span span, List<WatchEvent> events, SegmentMapper segments,
                                   Findings findings) {
        Map<String, WatchEvent.Change> last = new HashMap<>();
        for (WatchEvent event : events) {
            if (event instanceof WatchEvent.Gap gap && gap.reason() == WatchGap.Reason.HISTORY_LOST) {
                last.keySet().removeIf(key -> gap.segment() < 0 || segments.segmentOf(key) == gap.segment());
            } else if (event instanceof WatchEvent.Change change) {
                WatchEvent.Change previous = last.put(change.key(), change);
                if (previous != null && change.version() <= previous.version()) {
                    findings.add(new Finding(Finding.Kind.WATCH_OUT_OF_ORDER, change.key(), "watch of '"
                            + span.prefix() + "' by client " + span.watcher() + " was handed version "
                            + change.version() + " at " + findings.at(change.nanos()) + " after version "
                            + previous.version() + " at " + findings.at(previous.nanos())));
                }
            }
        }
    }

    private static void checkSkips(WatchEvent.Span span, List<WatchEvent> events, Map<String, KeyOps> keys,
                                   SegmentMapper segments, AsyncLosses losses, Findings findings, long[] owed) {
        Map<String, Set<Long>> delivered = new HashMap<>();
        List<WatchEvent.Gap> gaps = new ArrayList<>();
        for (WatchEvent event : events) {
            if (event instanceof WatchEvent.Change change) {
                delivered.computeIfAbsent(change.key(), k -> new HashSet<>()).add(change.version());
            } else {
                gaps.add((WatchEvent.Gap) event);
            }
        }
        for (KeyOps key : keys.values()) {
            if (key.writes.isEmpty() || !key.key.startsWith(span.prefix())) {
                continue;
            }
            int segment = segments.segmentOf(key.key);
            Set<Long> versions = delivered.getOrDefault(key.key, Set.of());
            for (Op.Write write : key.writes) {
                if (write.value() == null || write.outcome() != Outcome.OK || write.revision() <= 0
                        || write.invokedNanos() < span.liveNanos() || write.completedNanos() > span.closedNanos()) {
                    continue;
                }
                owed[0]++;
                if (versions.contains(write.revision())) {
                    owed[1]++;
                } else if (covered(gaps, segment, write)) {
                    owed[2]++;
                } else {
                    findings.add(new Finding(Finding.Kind.WATCH_SKIPPED_CHANGE, key.key, "watch of '" + span.prefix()
                            + "' by client " + span.watcher() + " (live at " + findings.at(span.liveNanos())
                            + ", closed at " + findings.at(span.closedNanos()) + ") was never handed '" + write.value()
                            + "' (revision " + write.revision() + ", acknowledged at "
                            + findings.at(write.completedNanos()) + ") nor told of a gap covering it"),
                            losses.excuse(key.key, List.of(write.revision())));
                }
            }
        }
    }

    /** Whether a gap notice covers {@code write} (see the class comment). */
    static boolean covered(List<WatchEvent.Gap> gaps, int segment, Op.Write write) {
        long revision = write.revision();
        for (WatchEvent.Gap gap : gaps) {
            if (gap.segment() < 0) {
                if (write.invokedNanos() < gap.nanos()) {
                    return true;
                }
            } else if (gap.segment() == segment) {
                if (gap.upToRevision() < 0) {
                    return true;
                }
                boolean inverted = gap.afterRevision() >= gap.upToRevision();
                if (revision <= gap.upToRevision() && (inverted || revision > gap.afterRevision())) {
                    return true;
                }
            }
        }
        return false;
    }
}
