package io.zaris.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What the server process sets for itself before anything starts, and that an operator's -D options win. */
@Tag("unit")
class ServerProcessDefaultsTests {

    @Test
    void aNodeRunsOnIpv4WithItsOwnLoggingAndNoLeakDetector() {
        Properties properties = new Properties();
        ZarisServerMain.applyProcessDefaults(properties, false, false);
        assertThat(properties.getProperty("java.net.preferIPv4Stack")).isEqualTo("true");
        assertThat(properties.getProperty("logback.configurationFile")).isEqualTo("zaris-server-logback.xml");
        assertThat(properties.getProperty(ZarisServerMain.LEAK_DETECTION_PROPERTY)).isEqualTo("disabled");
    }

    @Test
    void theAdminCommandLogsWithItsOwnConfiguration() {
        Properties properties = new Properties();
        ZarisServerMain.applyProcessDefaults(properties, true, false);
        assertThat(properties.getProperty("logback.configurationFile")).isEqualTo("zaris-admin-logback.xml");
    }

    @Test
    void anOperatorsOptionsWinUnderEitherLeakDetectorName() {
        Properties explicit = new Properties();
        explicit.setProperty(ZarisServerMain.LEAK_DETECTION_PROPERTY, "paranoid");
        explicit.setProperty("java.net.preferIPv4Stack", "false");
        explicit.setProperty("logback.configurationFile", "mine.xml");
        ZarisServerMain.applyProcessDefaults(explicit, false, false);
        assertThat(explicit.getProperty(ZarisServerMain.LEAK_DETECTION_PROPERTY)).isEqualTo("paranoid");
        assertThat(explicit.getProperty("java.net.preferIPv4Stack")).isEqualTo("false");
        assertThat(explicit.getProperty("logback.configurationFile")).isEqualTo("mine.xml");

        Properties legacy = new Properties();
        legacy.setProperty(ZarisServerMain.LEGACY_LEAK_DETECTION_PROPERTY, "simple");
        ZarisServerMain.applyProcessDefaults(legacy, false, false);
        assertThat(legacy.getProperty(ZarisServerMain.LEAK_DETECTION_PROPERTY)).isNull();
    }
}
