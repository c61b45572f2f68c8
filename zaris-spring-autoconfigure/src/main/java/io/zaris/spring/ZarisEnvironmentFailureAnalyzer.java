package io.zaris.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a bad {@code ZARIS_*} environment variable into a start-up report that says what to change. */
final class ZarisEnvironmentFailureAnalyzer extends AbstractFailureAnalyzer<InvalidZarisEnvironmentVariableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidZarisEnvironmentVariableException cause) {
        String description = "The environment variable " + cause.variable() + " is set to '" + cause.value()
                + "', which Zaris cannot use: it expects " + cause.expected() + ".";
        String action = "Set " + cause.variable() + " to a valid value, for example " + cause.example()
                + ", or unset it to use the application's configuration.";
        return new FailureAnalysis(description, action, cause);
    }
}
