package io.zaris.security;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

/**
 * Puts {@link TlsOptions} on reactor-netty servers and clients. With {@code null} options the transport is
 * returned unchanged (plaintext), so call sites need no branch.
 *
 * <p>Reactor-netty completes a connect, and announces a server connection, only after the TLS handshake, so
 * the protocol handlers added on connection always sit behind a finished handshake.
 */
public final class TlsTransports {

    /** Endpoint identification as HTTPS defines it: the certificate must name the host that was dialled. */
    static final String HOSTNAME_VERIFICATION = "HTTPS";

    private TlsTransports() {
    }

    /** A server that only accepts TLS connections when {@code tls} is given. */
    public static TcpServer secure(TcpServer server, TlsOptions tls) {
        if (tls == null) {
            return server;
        }
        return server.secure(spec -> spec.sslContext(tls.serverContext()));
    }

    /**
     * A client that speaks TLS when {@code tls} is given, verifying the server's chain against the configured
     * trust and its certificate against the host name or IP address connected to. Reactor-netty 1.3 turns the
     * host check on by default as well; setting it here keeps the guarantee if that default ever changes.
     */
    public static TcpClient secure(TcpClient client, TlsOptions tls) {
        if (tls == null) {
            return client;
        }
        return client.secure(spec -> spec.sslContext(tls.clientContext())
                .handlerConfigurator(handler -> verifyHostname(handler.engine())));
    }

    private static void verifyHostname(SSLEngine engine) {
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm(HOSTNAME_VERIFICATION);
        engine.setSSLParameters(parameters);
    }
}
