package io.zaris.security;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Whether a bind address keeps a port on this machine. */
public final class LoopbackAddresses {

    private LoopbackAddresses() {
    }

    /**
     * {@code true} for loopback addresses and names that resolve to one ({@code 127.0.0.1}, {@code ::1},
     * {@code localhost}); {@code false} for anything else, including the wildcard {@code 0.0.0.0} and names
     * that do not resolve.
     */
    public static boolean isLoopback(String host) {
        if (host == null || host.isBlank()) {
            return false;
        }
        try {
            InetAddress[] addresses = InetAddress.getAllByName(host.trim());
            for (InetAddress address : addresses) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return addresses.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
