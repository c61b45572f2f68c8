package io.zaris.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class GlobTests {

    @Test
    void matchesLikeRedisKeysPatterns() {
        assertThat(matches("*", "anything")).isTrue();
        assertThat(matches("h?llo", "hello")).isTrue();
        assertThat(matches("h?llo", "hllo")).isFalse();
        assertThat(matches("h*llo", "heeeello")).isTrue();
        assertThat(matches("h[ae]llo", "hallo")).isTrue();
        assertThat(matches("h[ae]llo", "hillo")).isFalse();
        assertThat(matches("h[^e]llo", "hallo")).isTrue();
        assertThat(matches("h[^e]llo", "hello")).isFalse();
        assertThat(matches("h[a-b]llo", "hbllo")).isTrue();
        assertThat(matches("user:\\*", "user:*")).isTrue();
        assertThat(matches("user:\\*", "user:1")).isFalse();
        assertThat(matches("{tag}*", "{tag}x")).isTrue();
        assertThat(matches("a*b*c", "axxbyyc")).isTrue();
        assertThat(matches("a*b*c", "axxbyy")).isFalse();
        assertThat(matches("[", "x")).isFalse();
    }

    private static boolean matches(String pattern, String text) {
        return Glob.matches(pattern.getBytes(StandardCharsets.UTF_8), text.getBytes(StandardCharsets.UTF_8));
    }
}
