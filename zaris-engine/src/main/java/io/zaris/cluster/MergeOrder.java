package io.zaris.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.jgroups.Address;
import org.jgroups.protocols.pbcast.GMS;

/**
 * Orders the members of a merged membership view so the cluster's leader stays its coordinator. JGroups' default
 * lists the subgroups' coordinators first, by address, so a node back from a pause or a cut often became coordinator, and with it
 * Zaris' leader: members confirm a new leader only a lease after they last answered the old one, so every owner
 * lease in the cluster could lapse in between (1.3-2.5 s without a write anywhere after a 15 s SIGSTOP).
 *
 * <p>The merge is computed by one subgroup's coordinator, the merge leader, which lists first the members its
 * member asks for ({@link #preferred}): its own view in order when that view holds a majority (its coordinator
 * leads the cluster), or else the leader the newest cluster view it holds names. The rest follow in JGroups'
 * default order, except the members its member asks to list last ({@link #last}: itself while its owner lease does
 * not hold, see {@link MergePreference}), which end the list. Only the order changes, never who is a member, and leadership still needs a majority's
 * confirmation, so a wrong preference costs what the default did, never safety.
 *
 * <p>Called on a JGroups thread; the preference is read through a supplier of an immutable list.
 */
final class MergeOrder extends GMS.DefaultMembershipPolicy {

    private final Supplier<List<Address>> preferred;
    private final Supplier<List<Address>> last;

    MergeOrder(Supplier<List<Address>> preferred, Supplier<List<Address>> last) {
        this.preferred = preferred;
        this.last = last;
    }

    @Override
    public List<Address> getNewMembership(Collection<Collection<Address>> subviews) {
        return ordered(preferred.get(), last.get(), super.getNewMembership(subviews));
    }

    /**
     * {@code merged} with those of {@code preferred} it holds first, in {@code preferred}'s order, and those of
     * {@code last} it holds (and {@code preferred} does not name) at the end. Pure.
     */
    static List<Address> ordered(List<Address> preferred, List<Address> last, List<Address> merged) {
        Set<Address> result = new LinkedHashSet<>();
        for (Address member : preferred) {
            if (merged.contains(member)) {
                result.add(member);
            }
        }
        for (Address member : merged) {
            if (!last.contains(member)) {
                result.add(member);
            }
        }
        result.addAll(merged);
        return new ArrayList<>(result);
    }
}
