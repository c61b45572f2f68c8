package io.zaris.bench.peers;

import com.hazelcast.cluster.Member;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Hazelcast under a failover run: three members with its defaults (one synchronous backup), the application's Java
 * client ({@link HazelcastKvClient}, smart routing), and a second client that only asks a live member whether the
 * cluster is safe ({@link HazelcastClusterSafety}).
 */
final class HazelcastFailoverTarget implements FailoverTarget {

    private static final int MEMBERS = 3;
    /** How long one question to a member may take. */
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(5);
    private static final String OBSERVER_EXECUTOR = "failover-observer";

    private final HazelcastCluster cluster;
    private HazelcastKvClient client;
    private HazelcastKvClient observer;
    private boolean closed;

    private HazelcastFailoverTarget(HazelcastCluster cluster) {
        this.cluster = cluster;
    }

    static HazelcastFailoverTarget start(ZarisServerCluster.Heap heap, Path workDirectory) throws IOException {
        HazelcastFailoverTarget target = new HazelcastFailoverTarget(HazelcastCluster.start(workDirectory, heap));
        try {
            target.client = (HazelcastKvClient) target.cluster.connect();
            target.observer = (HazelcastKvClient) target.cluster.connect();
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
        return target;
    }

    @Override
    public String system() {
        return cluster.system();
    }

    @Override
    public String configuration() {
        return cluster.configuration() + "; the client's other settings at their defaults (120 s invocation timeout)";
    }

    @Override
    public KvClient client() {
        return client;
    }

    /** The master is the oldest member, the first the cluster lists. */
    @Override
    public Victim chooseVictim(VictimChoice choice) {
        List<Member> members = new ArrayList<>(observer.instance().getCluster().getMembers());
        String master = address(members.get(0));
        List<String> started = cluster.addresses();
        String victim = switch (choice.kind()) {
            case NON_LEADER -> address(members.get(members.size() - 1));
            case LEADER -> master;
            case NUMBER -> {
                if (choice.number() > started.size()) {
                    throw new IllegalArgumentException("--kill " + choice.number() + ": there are " + started.size() + " members");
                }
                yield started.get(choice.number() - 1);
            }
        };
        String role = victim.equals(master) ? "the master (oldest member)" : "not the master (" + master + " is)";
        return new Victim(started.indexOf(victim), victim, role);
    }

    @Override
    public void kill(Victim victim) throws InterruptedException {
        cluster.kill(victim.handle());
    }

    @Override
    public String redundancyShortfall(Victim killed) throws InterruptedException {
        int expected = killed == Victim.NONE ? MEMBERS : MEMBERS - 1;
        try {
            Member asked = observer.instance().getCluster().getMembers().stream()
                    .filter(member -> !address(member).equals(killed.name())).findFirst().orElseThrow();
            return observer.instance().getExecutorService(OBSERVER_EXECUTOR)
                    .submitToMember(new HazelcastClusterSafety(expected), asked)
                    .get(ASK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException cannotTell) {
            return "cannot tell: " + ExceptionKinds.of(cannotTell);
        }
    }

    private static String address(Member member) {
        return member.getAddress().getHost() + ":" + member.getAddress().getPort();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (observer != null) {
                observer.close();
            }
            if (client != null) {
                client.close();
            }
        } finally {
            cluster.close();
        }
    }
}
