package io.zaris.server;

/**
 * Where a standalone node serves its HTTP endpoint (liveness, readiness, Prometheus metrics).
 *
 * @param host bind address
 * @param port port; {@code 0} picks a free one (tests)
 */
record HttpEndpointOptions(String host, int port) {

    HttpEndpointOptions {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("--http-host must not be blank");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--http-port must be in 1..65535 but was " + port);
        }
    }
}
