package io.zaris.resp;

import io.zaris.security.OutboundLimits;
import io.zaris.security.SecurityOptions;
import java.util.Objects;

/**
 * What the RESP listener needs of its node's security: the users and login limiter, the outbound bounds
 * for slow readers, and callbacks for the node's counters.
 */
public record RespSecurity(SecurityOptions security, OutboundLimits outboundLimits, Runnable onFailedLogin,
                           Runnable onSlowReaderClosed) {

    public RespSecurity {
        Objects.requireNonNull(security);
        Objects.requireNonNull(outboundLimits);
        Objects.requireNonNull(onFailedLogin);
        Objects.requireNonNull(onSlowReaderClosed);
    }

    /** No authentication, default outbound bounds, nothing counted. */
    public static RespSecurity none() {
        return new RespSecurity(SecurityOptions.none(), OutboundLimits.defaults(), () -> { }, () -> { });
    }
}
