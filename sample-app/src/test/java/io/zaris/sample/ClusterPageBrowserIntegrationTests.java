package io.zaris.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The live cluster page in a real headless Chromium (the system's {@code chromium} and {@code chromedriver}):
 * it draws the three embedded nodes and every partition, its Stop button fails a node over (the node's
 * partitions turn DEGRADED on the nodes that took them over) and its Restart button heals the cluster (every
 * partition HEALTHY again). Screenshots of the three moments go to {@code target/cluster-page-*.png}. Skipped,
 * saying why, where no Chromium is installed.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.catalog.lookup-delay=100ms")
@Tag("in-process-cluster")
class ClusterPageBrowserIntegrationTests {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** Generous: detection, promotion and a loaded machine. */
    private static final Duration FAILOVER_BOUND = Duration.ofSeconds(90);
    /** Generous: restart, re-sync, heal cooldown and a loaded machine. */
    private static final Duration HEAL_BOUND = Duration.ofSeconds(180);
    /** The sample app's embedded cluster has the default 128 partitions. */
    private static final int PARTITIONS = 128;

    @LocalServerPort
    private int port;

    private ChromeDriver browser;

    @BeforeEach
    void startBrowser() {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "needs Debian's chromium and chromedriver (apt-get install chromium chromium-driver)");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile())
                .addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .build();
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void pageShouldDrawTheClusterAndShowAFailoverAndTheHealItControls() throws IOException {
        browser.get("http://localhost:" + port + "/cluster.html");

        // Another test may have restarted a node just before: wait until it leads partitions again.
        await().atMost(HEAL_BOUND).untilAsserted(() -> {
            Drawing drawing = drawing();
            assertThat(drawing.running()).containsOnlyKeys("node-1", "node-2", "node-3").doesNotContainValue(false);
            assertThat(drawing.partitionsLedBy(null)).hasSize(PARTITIONS);
            assertThat(drawing.healthOfAllChips()).containsExactly("HEALTHY");
            assertThat(drawing.partitionsLedBy("node-2")).isNotEmpty();
        });
        screenshot("1-loaded");
        Set<Integer> node2Primaries = drawing().partitionsLedBy("node-2");
        assertThat(node2Primaries).isNotEmpty();

        click("node-2", "stop");

        // node-2 is drawn stopped, and the partitions it led are led elsewhere, DEGRADED (one copy short).
        await().atMost(FAILOVER_BOUND).untilAsserted(() -> {
            Drawing drawing = drawing();
            assertThat(drawing.running()).containsEntry("node-2", false);
            assertThat(drawing.partitionsLedBy("node-2")).isEmpty();
            assertThat(drawing.chips()).filteredOn(chip -> node2Primaries.contains(chip.partition())
                    && chip.role().equals("primary")).hasSize(node2Primaries.size())
                    .allSatisfy(chip -> assertThat(chip.health()).isEqualTo("DEGRADED"));
            assertThat(drawing.failoversListed()).isPositive();
        });
        screenshot("2-failed-over");

        click("node-2", "restart");

        await().atMost(HEAL_BOUND).untilAsserted(() -> {
            Drawing drawing = drawing();
            assertThat(drawing.running()).containsEntry("node-2", true);
            assertThat(drawing.partitionsLedBy(null)).hasSize(PARTITIONS);
            assertThat(drawing.healthOfAllChips()).containsExactly("HEALTHY");
        });
        screenshot("3-healed");
    }

    /** One partition chip as drawn: the node box it is in, its partition, role and health. */
    record Chip(String node, int partition, String role, String health) {
    }

    /** What the page shows at one moment. */
    record Drawing(Map<String, Boolean> running, List<Chip> chips, long failoversListed) {

        Set<Integer> partitionsLedBy(String nodeId) {
            return chips.stream().filter(chip -> chip.role().equals("primary"))
                    .filter(chip -> nodeId == null || chip.node().equals(nodeId))
                    .map(Chip::partition).collect(Collectors.toCollection(TreeSet::new));
        }

        Set<String> healthOfAllChips() {
            return chips.stream().map(Chip::health).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /**
     * Reads the page in one script turn: the page redraws every second by replacing its elements, so element
     * handles kept across calls would go stale; a single script sees one whole drawing.
     */
    @SuppressWarnings("unchecked")
    private Drawing drawing() {
        Map<String, Object> read = (Map<String, Object>) browser.executeScript("""
                const nodes = {};
                document.querySelectorAll('.node').forEach(n => nodes[n.dataset.node] = n.dataset.running === 'true');
                const chips = Array.from(document.querySelectorAll('.chip[data-partition]')).map(c =>
                    [c.closest('.node').dataset.node, c.dataset.partition, c.dataset.role, c.dataset.health]);
                return { nodes: nodes, chips: chips,
                         failovers: document.querySelectorAll('#changes li.failover').length };
                """);
        List<Chip> chips = ((List<List<String>>) read.get("chips")).stream()
                .map(c -> new Chip(c.get(0), Integer.parseInt(c.get(1)), c.get(2), c.get(3))).toList();
        return new Drawing((Map<String, Boolean>) read.get("nodes"), chips, ((Number) read.get("failovers")).longValue());
    }

    /** Clicks a node's button once it offers {@code action}; retried while a redraw replaces the button. */
    private void click(String nodeId, String action) {
        await().atMost(FAILOVER_BOUND).ignoreExceptions().until(() -> {
            browser.findElement(By.cssSelector(".node[data-node='" + nodeId + "'] button[data-action='" + action + "']"))
                    .click();
            return true;
        });
    }

    private void screenshot(String name) throws IOException {
        Path file = Path.of("target", "cluster-page-" + name + ".png");
        Files.createDirectories(file.getParent());
        Files.write(file, browser.getScreenshotAs(OutputType.BYTES));
    }
}
