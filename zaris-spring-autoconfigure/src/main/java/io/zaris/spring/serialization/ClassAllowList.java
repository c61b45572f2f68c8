package io.zaris.spring.serialization;

import java.io.ObjectInputFilter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The classes a serializer may instantiate when reading, in {@link ObjectInputFilter} pattern syntax:
 * {@code com.acme.Product} (one class), {@code com.acme.*} (classes of a package),
 * {@code com.acme.**} (a package and its subpackages). Everything else is rejected. Immutable.
 *
 * <p>{@link #BUILT_IN} (the JDK value types) is always part of the list.
 */
public final class ClassAllowList {

    /** JDK packages whose value types (strings, boxed numbers, collections, dates) are always allowed. */
    public static final List<String> BUILT_IN = List.of("java.lang.*", "java.util.*", "java.time.*", "java.math.*");

    private final List<String> patterns;
    private final ObjectInputFilter filter;

    private ClassAllowList(List<String> patterns) {
        this.patterns = List.copyOf(patterns);
        this.filter = ObjectInputFilter.Config.createFilter(String.join(";", this.patterns) + ";!*");
    }

    /**
     * The built-in list plus {@code patterns}.
     *
     * @throws IllegalArgumentException for a blank or malformed pattern, naming it
     */
    public static ClassAllowList of(Collection<String> patterns) {
        List<String> all = new ArrayList<>(BUILT_IN);
        for (String pattern : patterns) {
            if (pattern == null || pattern.isBlank() || pattern.contains(";") || pattern.startsWith("!")
                    || pattern.contains("=") || pattern.contains("/")) {
                throw new IllegalArgumentException("'" + pattern + "' is not an allowed-class pattern; use"
                        + " com.acme.Product, com.acme.* or com.acme.**");
            }
            String trimmed = pattern.trim();
            if (!all.contains(trimmed)) {
                all.add(trimmed);
            }
        }
        return new ClassAllowList(all);
    }

    /** The patterns, built-in ones first. */
    public List<String> patterns() {
        return patterns;
    }

    /** The filter for {@link java.io.ObjectInputStream}: the patterns, then reject everything else. */
    public ObjectInputFilter filter() {
        return filter;
    }

    /** Whether a class of this name may be instantiated (the same rule the filter applies). */
    public boolean allows(String className) {
        for (String pattern : patterns) {
            if (pattern.endsWith(".**")) {
                String prefix = pattern.substring(0, pattern.length() - 2);
                if (className.startsWith(prefix)) {
                    return true;
                }
            } else if (pattern.endsWith(".*")) {
                String packageName = pattern.substring(0, pattern.length() - 2);
                int lastDot = className.lastIndexOf('.');
                if (lastDot > 0 && className.substring(0, lastDot).equals(packageName)) {
                    return true;
                }
            } else if (pattern.endsWith("*")) {
                if (className.startsWith(pattern.substring(0, pattern.length() - 1))) {
                    return true;
                }
            } else if (pattern.equals(className)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return String.join(", ", patterns);
    }
}
