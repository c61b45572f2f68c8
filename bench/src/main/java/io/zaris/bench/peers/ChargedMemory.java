package io.zaris.bench.peers;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bytes a Zaris node charges against its memory budget for the entries it holds (replica copies included):
 * the {@code zaris_node_memory_used} gauge of its {@code /metrics} endpoint. It is the figure the budget's share of
 * the heap is sized against, where the heap after a full GC also holds what the budget does not count.
 */
final class ChargedMemory {

    private static final Pattern USED = Pattern.compile("(?m)^zaris_node_memory_used(?:_bytes)?(?:\\{[^}]*})?\\s+(\\S+)$");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private ChargedMemory() {
    }

    static long bytes(HttpClient http, int httpPort) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/metrics"))
                .timeout(TIMEOUT).GET().build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET /metrics on port " + httpPort + " answered " + response.statusCode());
        }
        return parse(response.body(), httpPort);
    }

    /** The gauge's value in a Prometheus text page (written as a double, e.g. {@code 1.2345E8}). */
    static long parse(String metrics, int httpPort) throws IOException {
        Matcher matcher = USED.matcher(metrics);
        if (!matcher.find()) {
            throw new IOException("no zaris_node_memory_used in the metrics of the node at port " + httpPort);
        }
        try {
            return Math.round(Double.parseDouble(matcher.group(1)));
        } catch (NumberFormatException e) {
            throw new IOException("zaris_node_memory_used of the node at port " + httpPort + " is not a number: "
                    + matcher.group(1), e);
        }
    }
}
