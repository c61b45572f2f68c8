package io.zaris.resp;

import io.zaris.model.Glob;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The configuration parameters {@code CONFIG GET} reports: a few read-only Redis names whose values Zaris can
 * state truthfully. Tools ask for them before they start; {@code redis-benchmark --cluster}, for one, asks
 * every master for {@code save} and {@code appendonly} and warns (and skips its own reset of them) when the
 * reply lacks either. Nothing here can be changed: {@code CONFIG SET} stays unsupported.
 *
 * <p>Pure: the values are a function of the node's memory figures, taken when the command runs.
 */
final class ConfigParameters {

    private ConfigParameters() {
    }

    /**
     * The parameters whose names match any of {@code patterns} (Redis glob, case-insensitive like Redis), as
     * name/value pairs in a fixed order, each at most once.
     */
    static List<RespReply> matching(List<byte[]> patterns, RespBackend.Memory memory) {
        List<RespReply> pairs = new ArrayList<>();
        for (Map.Entry<String, String> parameter : parameters(memory).entrySet()) {
            byte[] name = parameter.getKey().getBytes(StandardCharsets.US_ASCII);
            if (patterns.stream().anyMatch(pattern -> Glob.matches(lowerCase(pattern), name))) {
                pairs.add(RespReply.bulk(parameter.getKey()));
                pairs.add(RespReply.bulk(parameter.getValue()));
            }
        }
        return pairs;
    }

    private static Map<String, String> parameters(RespBackend.Memory memory) {
        Map<String, String> parameters = new LinkedHashMap<>();
        // Zaris keeps nothing on disk: no RDB snapshots, no append-only file.
        parameters.put("save", "");
        parameters.put("appendonly", "no");
        parameters.put("cluster-enabled", "yes");
        parameters.put("databases", "1");
        parameters.put("maxmemory", Long.toString(memory.maxBytes()));
        parameters.put("maxmemory-policy", memory.policy());
        return parameters;
    }

    private static byte[] lowerCase(byte[] pattern) {
        return new String(pattern, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
    }
}
