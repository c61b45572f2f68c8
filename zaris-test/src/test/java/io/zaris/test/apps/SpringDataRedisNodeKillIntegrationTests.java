package io.zaris.test.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.model.ClusterView;
import io.zaris.model.NodeAddress;
import io.zaris.placement.SegmentMapper;
import io.zaris.test.ZarisCluster;
import io.zaris.test.ZarisServerProcesses;
import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring Boot application on Spring Data Redis ({@link CartApplication}: Lettuce in cluster mode, Boot's own
 * properties) keeps its visitors' carts in Zaris through the RESP ports of three server processes, over real HTTP
 * with a cookie per visitor, and through a {@code kill -9} of the node that owns the first visitor's cart. Every
 * item set before the kill reads back after it, and every cart takes new items.
 *
 * <p>The same cluster runs a second application, {@link SessionApplication}: Spring Session's Redis repository keeps
 * its visitors' HTTP sessions in Zaris, a login changes each session's id (which Spring Data Redis's cluster connection
 * turns into RENAME, or DUMP, RESTORE and DEL when the two keys fall into different slots), and every session, its
 * attributes and its new id survive a {@code kill -9} of the node that owns the first visitor's session.
 *
 * <p>Requests while the cluster fails over may be answered 500 (Lettuce's command fails with the connection); each
 * visitor tries its request again until it is answered, within a deadline. A cart that lost an item never reads
 * back whole, so the wait for it ends in the assertion's failure.
 */
@ZarisCluster(nodes = 3, launch = ZarisCluster.Launch.SERVER_PROCESSES, resp = true)
class SpringDataRedisNodeKillIntegrationTests {

    private static final int VISITORS = 8;
    private static final int ITEMS_BEFORE = 4;
    private static final Duration FAILOVER_DEADLINE = Duration.ofSeconds(90);

    @Test
    @Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
    void cartsShouldBeStoredReadAndKeptThroughAKillOfTheirNode(ZarisServerProcesses cluster) throws Exception {
        int killed = -1;
        try (ConfigurableApplicationContext app = startOn(cluster, CartApplication.class)) {
            URI base = baseOf(app);
            List<Visitor> visitors = new ArrayList<>();
            for (int v = 0; v < VISITORS; v++) {
                Visitor visitor = new Visitor(base);
                visitors.add(visitor);
                for (int i = 0; i < ITEMS_BEFORE; i++) {
                    assertThat(visitor.put("item-" + i, quantity(v, i)).statusCode()).isEqualTo(200);
                }
                assertThat(visitor.get().body()).isEqualTo(expectedCart(v, ITEMS_BEFORE));
            }

            String owner = ownerOf(cluster, "cart:" + visitors.get(0).cartId());
            killed = Integer.parseInt(owner.substring(1)) - 1;
            long killedAt = System.nanoTime();
            cluster.kill(killed);

            for (int v = 0; v < VISITORS; v++) {
                Visitor visitor = visitors.get(v);
                int number = v;
                await().atMost(FAILOVER_DEADLINE).pollInterval(Duration.ofMillis(250))
                        .until(() -> visitor.put("item-" + ITEMS_BEFORE, quantity(number, ITEMS_BEFORE)).statusCode() == 200);
                if (v == 0) {
                    System.out.printf("kill -9 of %s (the first cart's owner): its cart took a new item %d ms later%n",
                            owner, (System.nanoTime() - killedAt) / 1_000_000);
                }
                await().atMost(FAILOVER_DEADLINE).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                    HttpResponse<String> cart = visitor.get();
                    assertThat(cart.statusCode()).isEqualTo(200);
                    assertThat(cart.body()).as("visitor %d's cart after the kill", number)
                            .isEqualTo(expectedCart(number, ITEMS_BEFORE + 1));
                });
            }
        } finally {
            if (killed >= 0) {
                cluster.start(killed); // the cluster is shared: leave it whole
            }
        }
    }

    private static final int SESSION_VISITORS = 6;
    private static final String SESSION_KEY_PREFIX = "spring:session:sessions:";

    /**
     * Visitors count two visits in their sessions, log in (a new session id: the session's key is renamed, and the old
     * key must be gone, the new one carrying the session's expiry), and read their session back; then the node owning
     * the first visitor's session is killed. Every session must read back whole under its new id, and a second login
     * after the kill must rename it again on the surviving nodes.
     *
     * <p>A login after the kill is sent only once every visitor's session reads back (the cluster has failed over and
     * Lettuce has refreshed its topology): a login that failed half way (renamed, but the new cookie never sent) would
     * lose its session in Spring Session itself, whatever the store.
     */
    @Test
    @Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
    void sessionsShouldKeepTheirAttributesThroughAnIdChangeAndAKillOfTheirNode(ZarisServerProcesses cluster)
            throws Exception {
        awaitFullRedundancy(cluster); // the other test of this class may have just restarted a node
        int killed = -1;
        try (ConfigurableApplicationContext app = startOn(cluster, SessionApplication.class)) {
            URI base = baseOf(app);
            org.springframework.data.redis.core.StringRedisTemplate redis =
                    app.getBean(org.springframework.data.redis.core.StringRedisTemplate.class);
            List<SessionVisitor> visitors = new ArrayList<>();
            for (int v = 0; v < SESSION_VISITORS; v++) {
                SessionVisitor visitor = new SessionVisitor(base);
                visitors.add(visitor);
                assertThat(visitor.post("/visit").body()).isEqualTo("1");
                assertThat(visitor.post("/visit").body()).isEqualTo("2");
                String before = visitor.sessionId();
                HttpResponse<String> login = visitor.post("/login?user=user-" + v);
                assertThat(login.statusCode()).isEqualTo(200);
                String after = visitor.sessionId();
                assertThat(after).as("the login's new session id").isEqualTo(login.body()).isNotEqualTo(before);
                assertThat(redis.hasKey(SESSION_KEY_PREFIX + before)).as("the old session key").isFalse();
                assertThat(redis.getExpire(SESSION_KEY_PREFIX + after)).as("the renamed session's TTL in seconds")
                        .isBetween(1_700L, 1_800L);
                assertThat(visitor.get("/me").body()).isEqualTo("user-" + v + " 2");
            }

            String owner = ownerOf(cluster, SESSION_KEY_PREFIX + visitors.get(0).sessionId());
            killed = Integer.parseInt(owner.substring(1)) - 1;
            long killedAt = System.nanoTime();
            cluster.kill(killed);

            for (int v = 0; v < SESSION_VISITORS; v++) {
                SessionVisitor visitor = visitors.get(v);
                String expected = "user-" + v + " 2";
                int number = v;
                await().atMost(FAILOVER_DEADLINE).pollInterval(Duration.ofMillis(250))
                        .ignoreExceptionsInstanceOf(java.io.IOException.class).untilAsserted(() -> {
                    HttpResponse<String> me = visitor.get("/me");
                    assertThat(me.statusCode()).isEqualTo(200);
                    assertThat(me.body()).as("visitor %d's session after the kill", number)
                            .isEqualTo(expected);
                });
                if (v == 0) {
                    System.out.printf("kill -9 of %s (the first session's owner): the session read back %d ms later%n",
                            owner, (System.nanoTime() - killedAt) / 1_000_000);
                }
            }
            for (int v = 0; v < SESSION_VISITORS; v++) {
                SessionVisitor visitor = visitors.get(v);
                String before = visitor.sessionId();
                String user = "again-" + v;
                // a response cut short while the cluster still settles (the application's error page broke off) is
                // tried again like a 500; its headers, the new session cookie among them, have arrived
                await().atMost(FAILOVER_DEADLINE).pollInterval(Duration.ofMillis(250)).ignoreExceptionsInstanceOf(
                        java.io.IOException.class).until(() -> visitor.post("/login?user=" + user).statusCode() == 200);
                assertThat(visitor.sessionId()).isNotEqualTo(before);
                assertThat(redis.hasKey(SESSION_KEY_PREFIX + before)).as("the old session key").isFalse();
                assertThat(visitor.get("/me").body()).isEqualTo(user + " 2");
            }
        } finally {
            if (killed >= 0) {
                cluster.start(killed); // the cluster is shared: leave it whole
            }
        }
    }

    /** Starts {@code application} on Spring Data Redis's cluster client, pointed at the cluster's RESP ports. */
    private static ConfigurableApplicationContext startOn(ZarisServerProcesses cluster, Class<?> application) {
        return new SpringApplicationBuilder(application)
                .properties("server.port=0", "spring.main.banner-mode=off",
                        "spring.data.redis.cluster.nodes=" + joined(cluster.respSeeds()),
                        "spring.data.redis.timeout=2s",
                        "spring.data.redis.lettuce.cluster.refresh.adaptive=true",
                        "spring.data.redis.lettuce.cluster.refresh.period=1s",
                        // the Zaris starter is on this class path too: point it at the same cluster, not at one of its own
                        "zaris.client.seeds=" + joined(cluster.seeds()))
                .run();
    }

    private static URI baseOf(ConfigurableApplicationContext app) {
        return URI.create("http://127.0.0.1:" + app.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
    }

    /**
     * Waits until every partition is {@code HEALTHY} on its preferred primary and the map is the one the leader's
     * planner makes for every node: after the other test restarted a node, the rebalance that gives it partitions
     * again moves them in steps, with every partition healthy in between, and a move under way answers a write with
     * {@code TRYAGAIN}, which Lettuce hands to the application.
     */
    private static void awaitFullRedundancy(ZarisServerProcesses cluster) {
        await().atMost(FAILOVER_DEADLINE).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
            try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.create(cluster.seeds()))) {
                ClusterView view = client.clusterView();
                io.zaris.placement.PartitionMap map = view.partitionMap();
                io.zaris.placement.PartitionMap planned = io.zaris.placement.PartitionPlanner.plan(
                        view.addresses().keySet(), map.partitionCount(), map.replicationFactor(), map);
                for (int p = 0; p < map.partitionCount(); p++) {
                    if (view.runtimeMap().get(p).health() != io.zaris.model.PartitionHealth.HEALTHY
                            || !map.primaryOf(p).equals(view.runtimeMap().get(p).activeNode())
                            || !map.ownersOf(p).equals(planned.ownersOf(p))) {
                        return false;
                    }
                }
                return view.addresses().size() == cluster.size();
            }
        });
    }

    private static int quantity(int visitor, int item) {
        return visitor * 10 + item + 1;
    }

    private static String expectedCart(int visitor, int items) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < items; i++) {
            lines.append("item-").append(i).append('=').append(quantity(visitor, i)).append('\n');
        }
        return lines.toString();
    }

    /** The node id whose process owns the key now, from the cluster's map. */
    private static String ownerOf(ZarisServerProcesses cluster, String key) {
        try (ZarisClient client = ZarisClient.connect(ZarisClientOptions.create(cluster.seeds()))) {
            ClusterView view = client.clusterView();
            return view.runtimeOfSegment(new SegmentMapper(view.layout().segmentCount()).segmentOf(key)).activeNode();
        }
    }

    private static String joined(List<NodeAddress> addresses) {
        return addresses.stream().map(NodeAddress::toString).collect(Collectors.joining(","));
    }

    /** One browser of {@link SessionApplication}: its own cookie store, which holds its session cookie. */
    private static final class SessionVisitor {

        private final URI base;
        private final CookieManager cookies = new CookieManager();
        private final HttpClient http;

        SessionVisitor(URI base) {
            this.base = base;
            this.http = HttpClient.newBuilder().cookieHandler(cookies).connectTimeout(Duration.ofSeconds(5)).build();
        }

        HttpResponse<String> post(String path) throws IOException, InterruptedException {
            return http.send(HttpRequest.newBuilder(base.resolve(path)).POST(HttpRequest.BodyPublishers.noBody())
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> get(String path) throws IOException, InterruptedException {
            return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        /** The session id Spring Session's cookie carries (the cookie holds it Base64-encoded). */
        String sessionId() {
            String encoded = cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("SESSION"))
                    .map(HttpCookie::getValue).findFirst().orElseThrow();
            return new String(java.util.Base64.getDecoder().decode(encoded), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** One browser: its own cookie store, so its cart follows it from request to request. */
    private static final class Visitor {

        private final URI base;
        private final CookieManager cookies = new CookieManager();
        private final HttpClient http;

        Visitor(URI base) {
            this.base = base;
            this.http = HttpClient.newBuilder().cookieHandler(cookies).connectTimeout(Duration.ofSeconds(5)).build();
        }

        HttpResponse<String> put(String item, int quantity) throws IOException, InterruptedException {
            return http.send(HttpRequest.newBuilder(base.resolve("/cart/items/" + item + "?quantity=" + quantity))
                    .PUT(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> get() throws IOException, InterruptedException {
            return http.send(HttpRequest.newBuilder(base.resolve("/cart")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        String cartId() {
            return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(CartApplication.COOKIE))
                    .map(HttpCookie::getValue).findFirst().orElseThrow();
        }
    }
}
