package io.zaris.resp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Commands are found by the bytes of their name in any letter case, as Redis finds them; other names are not. */
@Tag("unit")
class CommandTableTests {

    @Test
    void everyCommandIsFoundInLowerUpperAndMixedCase() {
        for (CommandTable.Spec spec : CommandTable.COMMANDS.values()) {
            String name = spec.name();
            StringBuilder mixed = new StringBuilder();
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                mixed.append(i % 2 == 0 ? Character.toUpperCase(c) : c);
            }
            for (String variant : List.of(name, name.toUpperCase(Locale.ROOT), mixed.toString())) {
                assertThat(CommandTable.lookup(variant.getBytes(StandardCharsets.US_ASCII))).as(variant).isSameAs(spec);
            }
        }
    }

    @Test
    void unknownNamesPrefixesAndLongerNamesAreNotFound() {
        for (String name : List.of("", "ge", "gett", "GET ", "se t", "nosuchcommand", "sett")) {
            assertThat(CommandTable.lookup(name.getBytes(StandardCharsets.US_ASCII))).as(name).isNull();
        }
        // Only ASCII letters fold: 'G' with its high bit set is not 'g'.
        assertThat(CommandTable.lookup(new byte[] {(byte) ('G' | 0x80), 'E', 'T'})).isNull();
    }
}
