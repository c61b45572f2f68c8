package io.zaris.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zaris.protocol.OpCode;
import io.zaris.time.FakeTime;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class UserDirectoryTests {

    private final UserDirectory users = UserDirectory.of("shared", List.of(
            "# name access password",
            "",
            "app read-write two words",
            "reports READ-ONLY r3ad"));

    @Test
    void sharedPasswordLogsInAsTheDefaultUserWithNodeAccess() {
        assertThat(users.authenticate("default", bytes("shared"))).isEqualTo(new Principal("default", false, true));
    }

    @Test
    void namedUsersGetTheirAccessAndNoNodeAccess() {
        assertThat(users.authenticate("app", bytes("two words"))).isEqualTo(new Principal("app", false, false));
        assertThat(users.authenticate("reports", bytes("r3ad"))).isEqualTo(new Principal("reports", true, false));
        assertThat(users.namedUsers()).isEqualTo(2);
    }

    @Test
    void wrongPasswordsAndUnknownUsersAreRefused() {
        assertThat(users.authenticate("app", bytes("two"))).isNull();
        assertThat(users.authenticate("app", bytes("shared"))).isNull();
        assertThat(users.authenticate("nobody", bytes("shared"))).isNull();
        assertThat(users.authenticate("default", new byte[0])).isNull();
    }

    @Test
    void openDirectoryRequiresNoLogin() {
        assertThat(UserDirectory.open().isRequired()).isFalse();
        assertThat(users.isRequired()).isTrue();
    }

    @Test
    void malformedUsersFileLinesAreNamed() {
        assertThatThrownBy(() -> UserDirectory.of("s", List.of("app read-write")))
                .hasMessageContaining("line 1");
        assertThatThrownBy(() -> UserDirectory.of("s", List.of("ok read-only x", "app admin pw")))
                .hasMessageContaining("line 2").hasMessageContaining("admin");
        assertThatThrownBy(() -> UserDirectory.of("s", List.of("default read-write pw")))
                .hasMessageContaining("shared password");
        assertThatThrownBy(() -> UserDirectory.of("s", List.of("a read-write x", "a read-only y")))
                .hasMessageContaining("twice");
    }

    @Test
    void credentialsNeverShowTheirPassword() {
        assertThat(new Credentials("app", "hunter2").toString()).doesNotContain("hunter2");
    }

    @Test
    void accessFollowsThePrincipal() {
        Principal app = new Principal("app", false, false);
        Principal reports = new Principal("reports", true, false);
        assertThat(Access.refusal(null, OpCode.GET)).contains("authentication required");
        assertThat(Access.refusal(app, OpCode.PUT)).isNull();
        assertThat(Access.refusal(app, OpCode.REPLICATE)).contains("node-to-node");
        assertThat(Access.refusal(reports, OpCode.GET)).isNull();
        assertThat(Access.refusal(reports, OpCode.INCREMENT)).contains("read-only");
        assertThat(Access.refusal(Principal.UNAUTHENTICATED, OpCode.SNAPSHOT)).isNull();
    }

    @Test
    void loginSessionClosesAfterThreeFailuresAndThrottlesThePeer() {
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
        AuthFailureLimiter limiter = new AuthFailureLimiter(2, Duration.ofSeconds(10), 8, FakeTime.followingNanos(nanos::get));
        LoginSession session = new LoginSession(users, limiter, "10.1.1.1");
        assertThat(session.login("app", bytes("x"))).isEqualTo(new LoginSession.Rejected(false));
        assertThat(session.login("app", bytes("y"))).isEqualTo(new LoginSession.Rejected(false));
        // The peer used its burst: even the right password is not checked now.
        assertThat(session.login("app", bytes("two words"))).isEqualTo(new LoginSession.Throttled(Duration.ofSeconds(10), true));
        assertThat(session.isLoggedIn()).isFalse();

        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        LoginSession next = new LoginSession(users, limiter, "10.1.1.1");
        assertThat(next.login("app", bytes("two words"))).isEqualTo(new LoginSession.Accepted(new Principal("app", false, false)));
        assertThat(next.principal().name()).isEqualTo("app");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
