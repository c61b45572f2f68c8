package io.zaris.client;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.zaris.time.FakeTime;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ConnectFailureLogTests {

    private final Logger logger = (Logger) LoggerFactory.getLogger(ConnectFailureLogTests.class);
    private final ListAppender<ILoggingEvent> captured = new ListAppender<>();
    private final FakeTime time = new FakeTime();
    private final ConnectFailureLog failures = new ConnectFailureLog(logger, time);

    @BeforeEach
    void capture() {
        logger.setLevel(Level.DEBUG);
        captured.start();
        logger.addAppender(captured);
    }

    @AfterEach
    void release() {
        logger.detachAppender(captured);
    }

    @Test
    void aNodeThatStaysDownIsToldOncePerQuietPeriodWithTheAttemptsInBetween() {
        failures.failed("n4", "connection refused");
        for (int i = 0; i < 5; i++) {
            time.advance(Duration.ofSeconds(1));
            failures.failed("n4", "connection refused");
        }
        time.advance(ConnectFailureLog.QUIET);
        failures.failed("n4", "connection refused");

        assertThat(warnings()).containsExactly(
                "cannot connect to node n4: connection refused",
                "cannot connect to node n4: connection refused (5 more failed attempts in the last 10 s were not logged)");
        assertThat(captured.list).filteredOn(event -> event.getLevel() == Level.DEBUG).hasSize(5);
    }

    @Test
    void eachNodeIsToldApartAndAConnectionResetsItsNode() {
        failures.failed("n4", "refused");
        failures.failed("n5", "timed out");
        failures.connected("n4");
        failures.failed("n4", "refused");
        failures.failed("n5", "timed out");

        assertThat(warnings()).containsExactly(
                "cannot connect to node n4: refused",
                "cannot connect to node n5: timed out",
                "cannot connect to node n4: refused");
    }

    @Test
    void aNodeTheMapNoLongerNamesIsForgotten() {
        failures.failed("n4", "refused");
        failures.retainOnly(Set.of("n1", "n2"));
        failures.failed("n4", "refused");

        assertThat(warnings()).hasSize(2);
    }

    private List<String> warnings() {
        return captured.list.stream().filter(event -> event.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
    }
}
