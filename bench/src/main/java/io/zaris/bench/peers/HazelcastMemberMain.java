package io.zaris.bench.peers;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import java.util.Arrays;
import java.util.List;

/**
 * One Hazelcast member process: TCP/IP join over a static member list on loopback (multicast off), the
 * map with Hazelcast's defaults (one synchronous backup, BINARY in-memory format), phone-home off.
 *
 * <p>Arguments: cluster name, this member's port, every member's port (comma-separated).
 */
public final class HazelcastMemberMain {

    private HazelcastMemberMain() {
    }

    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: HazelcastMemberMain <cluster name> <port> <port,port,...>");
            System.exit(2);
        }
        Config config = new Config();
        config.setClusterName(args[0]);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.getNetworkConfig().setPort(Integer.parseInt(args[1])).setPortAutoIncrement(false);
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        List<String> members = Arrays.stream(args[2].split(",")).map(port -> "127.0.0.1:" + port).toList();
        join.getTcpIpConfig().setEnabled(true).setMembers(members);
        Hazelcast.newHazelcastInstance(config);
    }
}
