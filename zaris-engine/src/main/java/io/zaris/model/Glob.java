package io.zaris.model;

/**
 * Redis glob patterns for {@code KEYS} and {@code SCAN MATCH} (on the RESP port, and the native client's scans of a
 * collection's items): {@code *}, {@code ?}, {@code [abc]},
 * {@code [^a-z]} and {@code \x} escapes, matched over bytes. Pure; recursion depth is bounded by the
 * number of {@code *} in the pattern, each tried from the left.
 */
public final class Glob {

    private Glob() {
    }

    /** Whether {@code text} matches {@code pattern}, both as bytes. */
    public static boolean matches(byte[] pattern, byte[] text) {
        return match(pattern, 0, text, 0, 0);
    }

    private static boolean match(byte[] p, int pi, byte[] t, int ti, int depth) {
        if (depth > 64) {
            return false;
        }
        while (pi < p.length) {
            byte c = p[pi];
            if (c == '*') {
                while (pi + 1 < p.length && p[pi + 1] == '*') {
                    pi++;
                }
                if (pi + 1 == p.length) {
                    return true;
                }
                for (int k = ti; k <= t.length; k++) {
                    if (match(p, pi + 1, t, k, depth + 1)) {
                        return true;
                    }
                }
                return false;
            }
            if (ti >= t.length) {
                return false;
            }
            if (c == '?') {
                pi++;
                ti++;
            } else if (c == '[') {
                int i = pi + 1;
                boolean negate = i < p.length && p[i] == '^';
                if (negate) {
                    i++;
                }
                boolean found = false;
                while (i < p.length && p[i] != ']') {
                    if (p[i] == '\\' && i + 1 < p.length) {
                        i++;
                        found |= p[i] == t[ti];
                        i++;
                    } else if (i + 2 < p.length && p[i + 1] == '-' && p[i + 2] != ']') {
                        int low = Math.min(p[i] & 0xFF, p[i + 2] & 0xFF);
                        int high = Math.max(p[i] & 0xFF, p[i + 2] & 0xFF);
                        int v = t[ti] & 0xFF;
                        found |= v >= low && v <= high;
                        i += 3;
                    } else {
                        found |= p[i] == t[ti];
                        i++;
                    }
                }
                if (found == negate) {
                    return false;
                }
                pi = i < p.length ? i + 1 : i;
                ti++;
            } else if (c == '\\' && pi + 1 < p.length) {
                if (p[pi + 1] != t[ti]) {
                    return false;
                }
                pi += 2;
                ti++;
            } else {
                if (c != t[ti]) {
                    return false;
                }
                pi++;
                ti++;
            }
        }
        return ti == t.length;
    }
}
