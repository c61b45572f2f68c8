package io.zaris.resp;

import java.util.Objects;

/**
 * A node's RESP listener: where it binds, its input limits and how it names its peers' RESP ports.
 * Immutable; built with {@link #builder()}.
 */
public final class RespOptions {

    /** Bind address unless configured: loopback, so nothing is exposed by accident. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** A standalone node's RESP port is its data port plus this offset unless configured (7101 → 8101). */
    public static final int DEFAULT_PORT_OFFSET = 1000;

    private final String host;
    private final int port;
    private final boolean required;
    private final RespLimits limits;
    private final RespPeerPorts peerPorts;
    private final RespLinger linger;

    private RespOptions(Builder builder) {
        this.linger = builder.linger;
        this.host = builder.host;
        this.port = builder.port;
        this.required = builder.required;
        this.limits = builder.limits;
        this.peerPorts = Objects.requireNonNull(builder.peerPorts, "peerPorts must be set");
    }

    public static Builder builder() {
        return new Builder();
    }

    public String host() {
        return host;
    }

    /** 0 picks an ephemeral port. */
    public int port() {
        return port;
    }

    /** Whether a node fails to start when the port cannot be bound (otherwise it runs without RESP and warns). */
    public boolean required() {
        return required;
    }

    public RespLimits limits() {
        return limits;
    }

    public RespPeerPorts peerPorts() {
        return peerPorts;
    }

    /** How long a drained node keeps this port open for clients that still route here (see {@link RespLinger}). */
    public RespLinger linger() {
        return linger;
    }

    public static final class Builder {
        private String host = DEFAULT_HOST;
        private int port;
        private boolean required = true;
        private RespLimits limits = RespLimits.defaults();
        private RespPeerPorts peerPorts;
        private RespLinger linger = RespLinger.defaults();

        private Builder() {
        }

        public Builder host(String host) {
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("RESP host must not be blank");
            }
            this.host = host;
            return this;
        }

        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("RESP port must be in 0..65535 but was " + port);
            }
            this.port = port;
            return this;
        }

        public Builder required(boolean required) {
            this.required = required;
            return this;
        }

        public Builder limits(RespLimits limits) {
            this.limits = Objects.requireNonNull(limits);
            return this;
        }

        public Builder peerPorts(RespPeerPorts peerPorts) {
            this.peerPorts = Objects.requireNonNull(peerPorts);
            return this;
        }

        public Builder linger(RespLinger linger) {
            this.linger = Objects.requireNonNull(linger);
            return this;
        }

        public RespOptions build() {
            return new RespOptions(this);
        }
    }
}
