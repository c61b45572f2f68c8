package io.zaris.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The reports of members that stopped following their coordinator, on a fake clock in nanos. */
@Tag("unit")
class DesertionReportsTests {

    private static final long SECOND = 1_000_000_000L;

    private final DesertionReports<String> reports = new DesertionReports<>(Duration.ofMillis(2500));

    @Test
    void aReportCountsUntilItIsAsOldAsTheFreshnessWindow() {
        reports.reported("c", 10 * SECOND);

        assertThat(reports.freshReporters(List.of("a", "b", "c"), 12 * SECOND)).containsExactly("c");
        assertThat(reports.freshReporters(List.of("a", "b", "c"), 12 * SECOND + SECOND / 2)).isEmpty();
    }

    @Test
    void aRepeatedReportIsFreshAgain() {
        reports.reported("c", 10 * SECOND);
        reports.reported("c", 12 * SECOND);

        assertThat(reports.freshReporters(List.of("a", "b", "c"), 14 * SECOND)).containsExactly("c");
    }

    @Test
    void onlyMembersOfTheGivenViewAreCountedInItsOrder() {
        reports.reported("e", SECOND);
        reports.reported("d", SECOND);
        reports.reported("c", SECOND);

        assertThat(reports.freshReporters(List.of("a", "c", "d"), 2 * SECOND)).containsExactly("c", "d");
    }

    @Test
    void aViewChangeForgetsEveryReport() {
        reports.reported("c", SECOND);

        reports.viewChanged();

        assertThat(reports.freshReporters(List.of("a", "b", "c"), SECOND)).isEmpty();
    }

    @Test
    void reportersMakeAMajorityWithThisNodeOnlyWhenTheyAreMoreThanHalfWithIt() {
        assertThat(DesertionReports.majorityWithSelf(List.of(), 3)).isFalse();
        assertThat(DesertionReports.majorityWithSelf(List.of("c"), 3)).isTrue();
        assertThat(DesertionReports.majorityWithSelf(List.of("c"), 5)).isFalse();
        assertThat(DesertionReports.majorityWithSelf(List.of("c", "d"), 5)).isTrue();
        assertThat(DesertionReports.majorityWithSelf(List.of("c"), 4)).isFalse();
    }
}
