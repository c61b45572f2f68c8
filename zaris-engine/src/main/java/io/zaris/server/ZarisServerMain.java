package io.zaris.server;

import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of the standalone server jar. Starts one node and keeps it running until the process is
 * asked to stop; SIGTERM (or Ctrl-C) leaves the cluster cleanly before the process exits.
 */
public final class ZarisServerMain {

    private ZarisServerMain() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.net.preferIPv4Stack", System.getProperty("java.net.preferIPv4Stack", "true"));
        // Set before the first logger exists; an operator's -Dlogback.configurationFile still wins.
        System.setProperty("logback.configurationFile",
                System.getProperty("logback.configurationFile", "zaris-server-logback.xml"));
        if (ServerArguments.wantsHelp(args)) {
            System.out.println(ServerArguments.USAGE);
            return;
        }
        NodeConfig config;
        try {
            config = ServerArguments.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("zaris: " + e.getMessage());
            System.err.println(ServerArguments.USAGE);
            System.exit(2);
            return;
        }
        Logger log = LoggerFactory.getLogger(ZarisServerMain.class);
        if (ServerArguments.isInsecure(config)) {
            log.warn("*****************************************************************************************");
            log.warn("INSECURE: node {} serves {} without a password (--allow-insecure). Anyone who can reach",
                    config.nodeId(), config.host());
            log.warn("this address can read and change every key and send node-to-node operations.");
            log.warn("*****************************************************************************************");
        }
        ZarisNode node = new ZarisNode(config).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("node {}: shutting down", config.nodeId());
            node.close();
            stopped.countDown();
        }, "zaris-shutdown"));
        log.info("node {} started; waiting for the cluster's first partition map", config.nodeId());
        stopped.await();
    }
}
