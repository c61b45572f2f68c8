package io.zaris.spring.template;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.client.ListEnd;
import io.zaris.client.ScoredMember;
import io.zaris.client.ZarisClient;
import io.zaris.client.ZarisClientOptions;
import io.zaris.embedded.EmbeddedCluster;
import io.zaris.model.ClusterView;
import io.zaris.placement.PartitionLayout;
import io.zaris.placement.SegmentMapper;
import io.zaris.server.ZarisNode;
import io.zaris.spring.serialization.ClassAllowList;
import io.zaris.spring.serialization.JdkZarisSerializer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The template's collection operations ride out the loss of a node with the client's own retries: three nodes keeping
 * two copies (SYNC), collections on keys spread over every segment, then one node that is not the leader stopped. With
 * no retry in the test, every collection reads back whole and takes further writes, those whose owner was stopped
 * included.
 */
@Tag("in-process-cluster")
class ZarisTemplateCollectionFailoverIntegrationTests {

    private static final int KEYS = 40;

    @Test
    void collectionsShouldBeReadAndWrittenThroughTheStopOfTheirOwner() {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodes(3).replicationFactor(2)
                .layout(PartitionLayout.of(64, 8)).build().start();
                ZarisClient client = ZarisClient.connect(ZarisClientOptions.builder().seeds(cluster.seeds()).build())) {
            ZarisTemplate template = new ZarisTemplate(client, new JdkZarisSerializer(ClassAllowList.of(List.of()), null));
            for (int i = 0; i < KEYS; i++) {
                template.hashPut("cart:" + i, Map.of("apples", i, "pears", i + 1));
                template.listPush("jobs:" + i, ListEnd.TAIL, "job-a-" + i, "job-b-" + i);
                template.setAdd("tags:" + i, "red", "green");
                template.sortedSetAdd("board:" + i, Map.of("ada", (double) i, "alan", i + 0.5));
            }
            ClusterView view = cluster.leader().currentView();
            SegmentMapper mapper = new SegmentMapper(view.layout().segmentCount());
            String leader = cluster.leader().nodeId();
            String stopped = cluster.nodes().stream().map(ZarisNode::nodeId).filter(id -> !id.equals(leader))
                    .findFirst().orElseThrow();
            long ownedByStopped = IntStream.range(0, KEYS).filter(i -> stopped.equals(view
                    .runtimeOfSegment(mapper.segmentOf(("cart:" + i).getBytes(StandardCharsets.UTF_8))).activeNode()))
                    .count();
            assertThat(ownedByStopped).as("hashes whose owner is stopped").isPositive();

            cluster.stopNode(stopped);

            for (int i = 0; i < KEYS; i++) {
                assertThat(template.hashGetAll("cart:" + i, Integer.class))
                        .containsExactlyInAnyOrderEntriesOf(Map.of("apples", i, "pears", i + 1));
                assertThat(template.listRange("jobs:" + i, 0, -1, String.class))
                        .containsExactly("job-a-" + i, "job-b-" + i);
                assertThat(template.setMembers("tags:" + i)).containsExactlyInAnyOrder("red", "green");
                assertThat(template.sortedSetRange("board:" + i, 0, -1)).containsExactly(
                        new ScoredMember("ada", i), new ScoredMember("alan", i + 0.5));

                assertThat(template.hashIncrement("cart:" + i, "plums", 3)).isEqualTo(3);
                assertThat(template.listPop("jobs:" + i, ListEnd.HEAD, String.class)).contains("job-a-" + i);
                assertThat(template.setAdd("tags:" + i, "blue")).isEqualTo(1);
                assertThat(template.sortedSetIncrement("board:" + i, "ada", 1)).isEqualTo(i + 1.0);
            }
        }
    }
}
