package io.zaris.spring.template;

import io.zaris.client.ZarisClient;
import io.zaris.placement.SegmentMapper;
import java.nio.charset.StandardCharsets;

/** Keys the template tests need placed by segment. */
final class SegmentKeys {

    private SegmentKeys() {
    }

    /** A key ("elsewhere-N") that falls into another segment than {@code key} under the client's cluster layout. */
    static String keyOfAnotherSegmentThan(ZarisClient client, String key) {
        SegmentMapper mapper = new SegmentMapper(client.clusterView().layout().segmentCount());
        int segment = mapper.segmentOf(key.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; ; i++) {
            String candidate = "elsewhere-" + i;
            if (mapper.segmentOf(candidate.getBytes(StandardCharsets.UTF_8)) != segment) {
                return candidate;
            }
        }
    }
}
