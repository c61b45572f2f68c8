package io.zaris.spring;

import java.util.Objects;

/**
 * A {@code zaris.*} property (or a group of them) holds a value, or a combination of values, Zaris cannot start
 * with. Carries what a start-up failure report needs: the property, what is wrong (the message, which names the
 * property too) and how to fix it. {@link ZarisPropertyFailureAnalyzer} turns it into that report.
 */
public class InvalidZarisPropertyException extends IllegalArgumentException {

    private final String property;
    private final String action;

    /**
     * @param property the property at fault, e.g. {@code zaris.embedded.partitions} (or a prefix for a group)
     * @param message  what is wrong, naming the property
     * @param action   how to fix it: a sentence that names the property and a value or step that works
     */
    public InvalidZarisPropertyException(String property, String message, String action) {
        this(property, message, action, null);
    }

    public InvalidZarisPropertyException(String property, String message, String action, Throwable cause) {
        super(message, cause);
        this.property = Objects.requireNonNull(property, "property must not be null");
        this.action = Objects.requireNonNull(action, "action must not be null");
    }

    /**
     * A value out of range or malformed: the fix is a valid value for that one property.
     *
     * @param reason what is wrong; the message is {@code property + ": " + reason}
     */
    public static InvalidZarisPropertyException badValue(String property, String reason, Throwable cause) {
        return outOfRange(property, property + ": " + reason, cause);
    }

    /** Like {@link #badValue} with a whole message of its own, which must name the property. */
    public static InvalidZarisPropertyException outOfRange(String property, String message, Throwable cause) {
        return new InvalidZarisPropertyException(property, message, "Set " + property
                + " to a value the description allows, or remove it to use its default (the configuration"
                + " reference lists every zaris.* property with its default and range).", cause);
    }

    public String property() {
        return property;
    }

    public String action() {
        return action;
    }
}
