package io.zaris.netbed;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * The nftables rule set one namespace of a {@link NetworkBed} needs to drop the packets of the bed's current
 * one-way blocks, and a share of the packets of its lossy hosts. Pure: renders text, runs nothing.
 *
 * <p>Hosts are numbered as in the bed: {@value NetworkBed#HOST_SIDE} is the host side of the bridge (the test JVM
 * and its clients, in the root namespace, where the bed installs no rules), 1..N the namespaces. A block
 * {@code from -> to} is enforced where it is silent for the sender: in {@code to}'s input hook, so the packets
 * leave {@code from} normally and vanish, as on a broken link. Only a block towards the host side is enforced at
 * the sender, in its output hook (the bed leaves the root namespace's firewall alone); a socket there sees its
 * packets refused locally rather than lost.
 *
 * <p>Loss on a host drops that share of the packets it receives (in its input hook) and of those the other
 * namespaces receive from it (in theirs); its packets to the host side are dropped at its output hook.
 *
 * <p>The script replaces the bed's table in one transaction ({@code table; delete table; table {...}}), so a
 * namespace never runs with half of a rule set; with no block left it only deletes the table.
 */
final class PacketFilter {

    /** The table every namespace's rules live in; nothing else in a bed's namespaces uses nftables. */
    static final String TABLE = "zaris_netbed";

    /** Packets from {@code from} to {@code to} are dropped. */
    record Block(int from, int to) implements Comparable<Block> {

        Block {
            if (from == to) {
                throw new IllegalArgumentException("a host cannot be cut from itself: " + from);
            }
        }

        @Override
        public int compareTo(Block other) {
            return from != other.from ? Integer.compare(from, other.from) : Integer.compare(to, other.to);
        }
    }

    private PacketFilter() {
    }

    /**
     * The {@code nft -f -} script for namespace {@code host}, given every block of the bed.
     *
     * @param address the IPv4 address of a host by number, the host side included
     */
    static String script(int host, Set<Block> blocks, IntFunction<String> address) {
        return script(host, blocks, Map.of(), address);
    }

    /**
     * The {@code nft -f -} script for namespace {@code host}, given every block of the bed and the loss, in percent,
     * of each lossy host.
     *
     * @param address the IPv4 address of a host by number, the host side included
     */
    static String script(int host, Set<Block> blocks, Map<Integer, Double> lossPercent, IntFunction<String> address) {
        List<String> input = new ArrayList<>();
        List<String> output = new ArrayList<>();
        for (Block block : new TreeSet<>(blocks)) {
            if (block.to() == host) {
                input.add("ip saddr " + address.apply(block.from()) + " drop");
            } else if (block.from() == host && block.to() == NetworkBed.HOST_SIDE) {
                output.add("ip daddr " + address.apply(block.to()) + " drop");
            }
        }
        for (Map.Entry<Integer, Double> lossy : new TreeMap<>(lossPercent).entrySet()) {
            String share = "numgen random mod 10000 < " + Math.round(lossy.getValue() * 100) + " drop";
            if (lossy.getKey() == host) {
                input.add(share);
                output.add("ip daddr " + address.apply(NetworkBed.HOST_SIDE) + " " + share);
            } else {
                input.add("ip saddr " + address.apply(lossy.getKey()) + " " + share);
            }
        }
        StringBuilder script = new StringBuilder()
                .append("table inet ").append(TABLE).append('\n')
                .append("delete table inet ").append(TABLE).append('\n');
        if (input.isEmpty() && output.isEmpty()) {
            return script.toString();
        }
        script.append("table inet ").append(TABLE).append(" {\n");
        chain(script, "input", input);
        chain(script, "output", output);
        return script.append("}\n").toString();
    }

    /** Blocks that cut {@code group} from every other host (the host side included), both ways. */
    static Set<Block> isolating(Set<Integer> group, List<Integer> allHosts) {
        Set<Block> blocks = new TreeSet<>();
        for (int inside : group) {
            for (int outside : allHosts) {
                if (!group.contains(outside)) {
                    blocks.add(new Block(inside, outside));
                    blocks.add(new Block(outside, inside));
                }
            }
        }
        return blocks;
    }

    private static void chain(StringBuilder script, String hook, List<String> rules) {
        if (rules.isEmpty()) {
            return;
        }
        script.append("  chain ").append(hook).append(" {\n")
                .append("    type filter hook ").append(hook).append(" priority 0; policy accept;\n");
        for (String rule : rules) {
            script.append("    ").append(rule).append('\n');
        }
        script.append("  }\n");
    }
}
