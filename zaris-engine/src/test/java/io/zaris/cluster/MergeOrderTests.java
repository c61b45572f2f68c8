package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class MergeOrderTests {

    private final Address a = new UUID(0, 1);
    private final Address b = new UUID(0, 2);
    private final Address c = new UUID(0, 3);

    @Test
    void theMajoritysViewComesFirstInItsOwnOrderSoItsCoordinatorStaysCoordinator() {
        // by JGroups' default the returning "a" would coordinate (see the last test)
        MergeOrder order = new MergeOrder(() -> List.of(c, b), List::of);

        assertThat(order.getNewMembership(subviews(List.of(c, b), List.of(a)))).containsExactly(c, b, a);
    }

    @Test
    void aNamedLeaderComesFirstAndTheRestKeepsJGroupsOrder() {
        MergeOrder order = new MergeOrder(() -> List.of(b), List::of);

        assertThat(order.getNewMembership(subviews(List.of(c, b), List.of(a)))).containsExactly(b, a, c);
    }

    @Test
    void withoutAPreferenceTheMergeIsJGroupsDefault() {
        MergeOrder order = new MergeOrder(List::of, List::of);

        // JGroups lists the subgroups' coordinators first, by address: the returning "a" coordinates
        assertThat(order.getNewMembership(subviews(List.of(c, b), List.of(a)))).containsExactly(a, c, b);
    }

    @Test
    void aMergeLeaderWithoutItsLeaseListsItselfLastSoItDoesNotCoordinateAgain() {
        // "a" led before a pause; its newest cluster view names itself, so it prefers nobody, and by JGroups' default
        // it would coordinate (see above): the members would wait a lease to confirm it while their leases lapse
        MergeOrder order = new MergeOrder(List::of, () -> List.of(a));

        assertThat(order.getNewMembership(subviews(List.of(c, b), List.of(a)))).containsExactly(c, b, a);
    }

    @Test
    void aMemberBothPreferredAndListedLastComesFirst() {
        assertThat(MergeOrder.ordered(List.of(a), List.of(a), List.of(b, a, c))).containsExactly(a, b, c);
    }

    @Test
    void aPreferredMemberOutsideTheMergeIsLeftOutAndNoMemberIsListedTwice() {
        Address gone = new UUID(0, 9);

        assertThat(MergeOrder.ordered(List.of(gone, c, c), List.of(), List.of(a, b, c))).containsExactly(c, a, b);
    }

    private static Collection<Collection<Address>> subviews(List<Address> first, List<Address> second) {
        Collection<Collection<Address>> subviews = new ArrayList<>();
        subviews.add(first);
        subviews.add(second);
        return subviews;
    }
}
