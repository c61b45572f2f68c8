package io.zaris.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Faults a node injects into itself on purpose, so that a test can show the chaos checker catches them. Off
 * unless the JVM is started with a system property; no configuration file, command-line option or environment
 * variable reaches it, so a node configured the normal way never injects anything.
 *
 * <ul>
 *   <li>{@value #DROP_INCREMENT_PROPERTY}{@code =n}: the n-th INCREMENT this node serves as active owner is
 *       acknowledged with the value it would have produced, but neither applied nor replicated — one
 *       acknowledged write lost, exactly the defect a checker must see.</li>
 * </ul>
 *
 * <p>Concurrency: one instance per request handler, consulted on every event loop; the count is atomic, so
 * exactly one increment is dropped however many loops serve increments at once.
 */
final class TestFaults {

    /** The system property that turns the dropped increment on; its value is which increment (1 = the first). */
    static final String DROP_INCREMENT_PROPERTY = "zaris.test-fault.drop-increment";

    private static final TestFaults NONE = new TestFaults(0);

    /** Which increment to drop; 0 for none. */
    private final long dropIncrement;
    /** INCREMENTs served so far while a drop is armed. */
    private final AtomicLong incrementsServed = new AtomicLong();

    private TestFaults(long dropIncrement) {
        this.dropIncrement = dropIncrement;
    }

    /** The faults this JVM's system properties ask for: none unless {@value #DROP_INCREMENT_PROPERTY} is set. */
    static TestFaults fromSystemProperties() {
        return parse(System.getProperty(DROP_INCREMENT_PROPERTY));
    }

    /**
     * @param dropIncrement the property's value; {@code null} for none
     * @throws IllegalArgumentException when it is not a positive whole number
     */
    static TestFaults parse(String dropIncrement) {
        if (dropIncrement == null) {
            return NONE;
        }
        long n;
        try {
            n = Long.parseLong(dropIncrement.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(DROP_INCREMENT_PROPERTY + " must be a positive whole number but was '"
                    + dropIncrement + "'", e);
        }
        if (n < 1) {
            throw new IllegalArgumentException(DROP_INCREMENT_PROPERTY + " must be at least 1 but was " + n);
        }
        return new TestFaults(n);
    }

    boolean armed() {
        return dropIncrement > 0;
    }

    /** Called once per INCREMENT served as active owner: whether to acknowledge this one without applying it. */
    boolean dropThisIncrement() {
        return dropIncrement > 0 && incrementsServed.incrementAndGet() == dropIncrement;
    }
}
