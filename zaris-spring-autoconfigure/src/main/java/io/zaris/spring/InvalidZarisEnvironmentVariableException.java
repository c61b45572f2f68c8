package io.zaris.spring;

/**
 * A {@code ZARIS_*} environment variable holds a value Zaris cannot use. Carries what a start-up failure
 * report needs: the variable, its value, what is expected and an example assignment.
 */
public class InvalidZarisEnvironmentVariableException extends IllegalArgumentException {

    private final String variable;
    private final String value;
    private final String expected;
    private final String example;

    public InvalidZarisEnvironmentVariableException(String variable, String value, String expected, String example) {
        super("environment variable " + variable + "='" + value + "' is invalid: expected " + expected
                + " (e.g. " + example + ")");
        this.variable = variable;
        this.value = value;
        this.expected = expected;
        this.example = example;
    }

    public String variable() {
        return variable;
    }

    public String value() {
        return value;
    }

    public String expected() {
        return expected;
    }

    public String example() {
        return example;
    }
}
