package io.zaris.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free loopback ports for listeners a test names before it opens them (a node's seeds list every port of
 * the cluster before any node runs). A port the kernel hands out for {@code bind(0)} lies in its ephemeral
 * range, which is also where the local end of every outgoing connection comes from: in the second between
 * picking such a port and a server process binding it, any connection on the machine may take it, and the
 * node then cannot start. So ports are picked at random below that range, where the kernel never assigns
 * one on its own, checked bindable, and never handed out twice by this JVM.
 */
public final class LoopbackPorts {

    private static final int LOWEST = 10_000;
    private static final int ATTEMPTS = 500;
    private static final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();

    private LoopbackPorts() {
    }

    /** A port nothing listens on now, outside the ephemeral range when the machine leaves room below it. */
    public static int free() throws IOException {
        int below = ephemeralRangeStart();
        if (below - LOWEST < 1_000) {
            return kernelChosen();
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
            if (handedOut.add(port) && bindable(port)) {
                return port;
            }
        }
        throw new IOException("no free loopback port in " + LOWEST + ".." + (below - 1) + " after " + ATTEMPTS + " tries");
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    private static int kernelChosen() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Linux publishes the range as "low high"; elsewhere assume the IANA dynamic range. Read line-wise: procfs
     * reports the file's size as 0, and {@code Files.readString} (which sizes its read by it) returned only "3"
     * of "32768 60999", which sent every port to the kernel's choice, inside the ephemeral range.
     */
    static int ephemeralRangeStart() {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        try (BufferedReader reader = Files.newBufferedReader(range)) {
            return Integer.parseInt(reader.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException unreadable) {
            return 49_152;
        }
    }
}
