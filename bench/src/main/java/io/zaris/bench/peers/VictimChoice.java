package io.zaris.bench.peers;

/**
 * Which node a failover run kills, as the command line says it; each target maps it onto its own nodes
 * ({@link FailoverTarget#chooseVictim}).
 *
 * @param number for {@link Kind#NUMBER}, the node's number (from 1) among the nodes that can be killed: Zaris nodes
 *               and Hazelcast members in the order they were started, Redis masters in the order their
 *               processes were started
 */
record VictimChoice(Kind kind, int number) {

    enum Kind {
        /** A node that does not lead: not the Zaris leader, not the Hazelcast master (the oldest member). */
        NON_LEADER,
        /** The Zaris leader, the Hazelcast master; Redis Cluster has no leader, so it kills its first master. */
        LEADER,
        /** The node with the given number. */
        NUMBER
    }

    static final VictimChoice NON_LEADER = new VictimChoice(Kind.NON_LEADER, 0);

    VictimChoice {
        if ((kind == Kind.NUMBER) != (number >= 1)) {
            throw new IllegalArgumentException(kind + " with number " + number);
        }
    }

    /** {@code non-leader}, {@code leader} or a node's number from 1. */
    static VictimChoice parse(String text) {
        switch (text) {
            case "non-leader" -> {
                return NON_LEADER;
            }
            case "leader" -> {
                return new VictimChoice(Kind.LEADER, 0);
            }
            default -> {
                try {
                    int number = Integer.parseInt(text);
                    if (number >= 1) {
                        return new VictimChoice(Kind.NUMBER, number);
                    }
                } catch (NumberFormatException notANumber) {
                    // refused below
                }
                throw new IllegalArgumentException("--kill takes non-leader, leader or a node's number from 1, not " + text);
            }
        }
    }

    String describe() {
        return switch (kind) {
            case NON_LEADER -> "a node that does not lead (not the Zaris leader, not the Hazelcast master; the last Redis master)";
            case LEADER -> "the leader (the Zaris leader, the Hazelcast master; Redis Cluster has none: its first master)";
            case NUMBER -> "node " + number + " (Zaris nodes and Hazelcast members in start order, Redis masters in start order)";
        };
    }
}
