package io.zaris.model;

import java.net.InetSocketAddress;

/** Where a node's data port listens. */
public record NodeAddress(String host, int port) {

    public NodeAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be in 1..65535 but was " + port);
        }
    }

    /** Parses {@code host:port}; the message names the offending text. */
    public static NodeAddress parse(String hostAndPort) {
        String text = hostAndPort == null ? "" : hostAndPort.trim();
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected host:port but was '" + hostAndPort + "'");
        }
        try {
            return new NodeAddress(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected host:port but was '" + hostAndPort + "'", e);
        }
    }

    public InetSocketAddress toSocketAddress() {
        return InetSocketAddress.createUnresolved(host, port);
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
