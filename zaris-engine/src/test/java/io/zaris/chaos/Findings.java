package io.zaris.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one check of one history found so far: findings, and anomalies a named ASYNC loss excused. Times in
 * details are seconds since the history's first invocation. Used by one thread, during one check.
 */
final class Findings {

    private final long originNanos;
    private final List<Finding> found = new ArrayList<>();
    private final List<Finding> excused = new ArrayList<>();

    Findings(long originNanos) {
        this.originNanos = originNanos;
    }

    void add(Finding finding, boolean isExcused) {
        (isExcused ? excused : found).add(finding);
    }

    void add(Finding finding) {
        add(finding, false);
    }

    /** A time of the history as the details print it. */
    String at(long nanos) {
        return String.format(Locale.ROOT, "%.3f s", (nanos - originNanos) / 1e9);
    }

    /** An operation's interval as the details print it. */
    String during(Op op) {
        return "[" + at(op.invokedNanos()) + ", " + at(op.completedNanos()) + "]";
    }

    List<Finding> found() {
        return List.copyOf(found);
    }

    List<Finding> excused() {
        return List.copyOf(excused);
    }
}
