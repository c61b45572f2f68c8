package io.zaris.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a bad {@code zaris.*} property into a start-up report naming the property, what is wrong and the fix,
 * instead of a stack trace. Boot's own analyzers already report values that do not convert to the property's
 * type (e.g. {@code zaris.embedded.nodes=three}); this one covers what Zaris itself checks: ranges, combinations
 * that contradict each other, and names of beans, bundles or formats that do not exist.
 */
final class ZarisPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidZarisPropertyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidZarisPropertyException cause) {
        String description = "Zaris cannot start with the configured value of " + cause.property() + ":\n\n    "
                + cause.getMessage();
        return new FailureAnalysis(description, cause.action(), cause);
    }
}
