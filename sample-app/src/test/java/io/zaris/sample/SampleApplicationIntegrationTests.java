package io.zaris.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Starts the whole application (web server, embedded three-node cluster, client) and talks to it over
 * real HTTP, so each request goes through the controller, the Zaris client and a node.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class SampleApplicationIntegrationTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    @LocalServerPort
    private int port;

    @Test
    void putThenGetShouldReturnTheValueWithTheVersionOfTheWrite() throws Exception {
        HttpResponse<String> put = send(request("/kv/greeting")
                .header("Content-Type", "text/plain")
                .PUT(HttpRequest.BodyPublishers.ofString("hello")));
        assertThat(put.statusCode()).isEqualTo(200);
        long version = Long.parseLong(jsonField(put.body(), "version"));
        assertThat(version).isPositive();

        HttpResponse<String> get = send(request("/kv/greeting").GET());

        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(jsonField(get.body(), "value")).isEqualTo("\"hello\"");
        assertThat(jsonField(get.body(), "version")).isEqualTo(Long.toString(version));
    }

    @Test
    void putWithFormBodyLikeCurlDashDShouldStoreTheRawText() throws Exception {
        HttpResponse<String> put = send(request("/kv/from-curl")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .PUT(HttpRequest.BodyPublishers.ofString("hi")));
        assertThat(put.statusCode()).isEqualTo(200);

        HttpResponse<String> get = send(request("/kv/from-curl").GET());

        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(jsonField(get.body(), "value")).isEqualTo("\"hi\"");
    }

    @Test
    void getOfMissingKeyShouldBeNotFound() throws Exception {
        assertThat(send(request("/kv/never-written").GET()).statusCode()).isEqualTo(404);
    }

    @Test
    void deleteShouldRemoveTheKeyAndReportWhetherItExisted() throws Exception {
        send(request("/kv/doomed").PUT(HttpRequest.BodyPublishers.ofString("bye")));

        assertThat(send(request("/kv/doomed").DELETE()).statusCode()).isEqualTo(204);
        assertThat(send(request("/kv/doomed").GET()).statusCode()).isEqualTo(404);
        assertThat(send(request("/kv/doomed").DELETE()).statusCode()).isEqualTo(404);
    }

    @Test
    void incrementShouldReturnTheNewValue() throws Exception {
        HttpResponse<String> first = send(request("/counters/visits/increment")
                .POST(HttpRequest.BodyPublishers.noBody()));
        HttpResponse<String> second = send(request("/counters/visits/increment?by=10")
                .POST(HttpRequest.BodyPublishers.noBody()));

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(jsonField(first.body(), "value")).isEqualTo("1");
        assertThat(jsonField(second.body(), "value")).isEqualTo("11");
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(TIMEOUT);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The raw JSON text of one top-level field of a flat object (strings keep their quotes). Enough for
     * these small answers without a JSON library in the test.
     */
    private static String jsonField(String json, String name) {
        String marker = "\"" + name + "\":";
        int start = json.indexOf(marker);
        assertThat(start).as("field %s in %s", name, json).isNotNegative();
        start += marker.length();
        int end = start;
        boolean inString = false;
        while (end < json.length()) {
            char c = json.charAt(end);
            if (c == '"' && json.charAt(end - 1) != '\\') {
                inString = !inString;
            } else if (!inString && (c == ',' || c == '}')) {
                break;
            }
            end++;
        }
        return json.substring(start, end).trim();
    }
}
