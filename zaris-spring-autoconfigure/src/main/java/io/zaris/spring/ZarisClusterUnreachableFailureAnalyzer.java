package io.zaris.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a cluster the client cannot reach at start-up into a report that names the seeds and where they came
 * from, and lists what to check, instead of a transport exception's stack trace.
 */
final class ZarisClusterUnreachableFailureAnalyzer extends AbstractFailureAnalyzer<ZarisClusterUnreachableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ZarisClusterUnreachableException cause) {
        String description = "Zaris could not reach its cluster at start-up through the seeds " + cause.seeds()
                + " of " + cause.seedsSource() + ":\n\n    " + cause.getCause().getMessage();
        String action = "Check that " + cause.seedsSource() + " names the data port (host:port) of nodes that are"
                + " running and reachable from here; that zaris.security.username and zaris.security.password match"
                + " the cluster's users, and TLS (zaris.client.ssl.bundle or zaris.tls.*) its certificates; or raise"
                + " zaris.client.bootstrap-timeout when the cluster starts together with this application.";
        return new FailureAnalysis(description, action, cause);
    }
}
