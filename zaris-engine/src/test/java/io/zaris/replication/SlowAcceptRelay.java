package io.zaris.replication;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on loopback in front of one node's data port that lets each connection it accepts through only after
 * {@code delay}: a node behind it is reachable, but every connection to it takes that long to start talking, as to a
 * node on a slow or congested network. Bytes are then copied both ways as they come.
 *
 * <p>Threads: one accepting, and per connection one that waits out the delay and copies towards the node and one
 * copying back; all daemons, and {@link #close} closes every socket, which ends them.
 */
final class SlowAcceptRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final long delayMillis;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    SlowAcceptRelay(int targetPort, Duration delay) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetPort = targetPort;
        this.delayMillis = delay.toMillis();
        daemon("relay-accept", this::acceptLoop).start();
    }

    int port() {
        return listener.getLocalPort();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket inbound = listener.accept();
                sockets.add(inbound);
                daemon("relay-connection", () -> relay(inbound)).start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void relay(Socket inbound) {
        try {
            Thread.sleep(delayMillis); // the slow start this relay exists to give every connection
            Socket outbound = new Socket(InetAddress.getLoopbackAddress(), targetPort);
            outbound.setTcpNoDelay(true);
            inbound.setTcpNoDelay(true);
            sockets.add(outbound);
            daemon("relay-back", () -> copy(outbound, inbound)).start();
            copy(inbound, outbound);
        } catch (IOException | InterruptedException e) {
            closeQuietly(inbound);
        }
    }

    private static void copy(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed: the other follows below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static Thread daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        sockets.forEach(SlowAcceptRelay::closeQuietly);
    }
}
