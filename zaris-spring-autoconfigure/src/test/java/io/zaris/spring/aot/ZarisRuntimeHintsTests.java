package io.zaris.spring.aot;

import static org.assertj.core.api.Assertions.assertThat;

import io.zaris.spring.ZarisAutoConfiguration;
import java.time.LocalDate;
import org.jgroups.protocols.TP;
import org.jgroups.protocols.TCP_NIO2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.stack.IpAddress;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.annotation.ImportRuntimeHints;

class ZarisRuntimeHintsTests {

    private final RuntimeHints hints = new RuntimeHints();

    ZarisRuntimeHintsTests() {
        new ZarisRuntimeHints().registerHints(hints, getClass().getClassLoader());
    }

    @Test
    void jgroupsIdTablesAndMessagesShouldBeResources() {
        assertThat(RuntimeHintsPredicates.resource().forResource("jg-magic-map.xml")).accepts(hints);
        assertThat(RuntimeHintsPredicates.resource().forResource("jg-protocol-ids.xml")).accepts(hints);
        assertThat(RuntimeHintsPredicates.resource().forResource("JGROUPS_VERSION.properties")).accepts(hints);
        assertThat(RuntimeHintsPredicates.resource().forBundle("jg-messages")).accepts(hints);
    }

    @Test
    void everyClassOfTheIdTablesShouldBeCreatableByReflection() {
        assertThat(ZarisRuntimeHints.classNamesIn(getClass().getClassLoader(), ZarisRuntimeHints.MAGIC_MAP))
                .hasSizeGreaterThan(20).contains(IpAddress.class.getName())
                .allSatisfy(name -> assertThat(RuntimeHintsPredicates.reflection()
                        .onType(TypeReference.of(name)).withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS))
                        .accepts(hints));
    }

    @Test
    void theStacksProtocolsAndTheirSuperclassesShouldHaveTheirFieldsAndConstructors() throws Exception {
        for (String name : ZarisRuntimeHints.STACK_PROTOCOLS) {
            Class<?> protocol = Class.forName(name);   // a misspelt protocol fails here
            assertThat(RuntimeHintsPredicates.reflection().onType(protocol)
                    .withMemberCategories(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS,
                            MemberCategory.ACCESS_DECLARED_FIELDS)).as(name).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onType(TP.class)
                .withMemberCategory(MemberCategory.ACCESS_DECLARED_FIELDS)).as("TCP_NIO2's superclass").accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(TCP_NIO2.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(GMS.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(ZarisRuntimeHints.CLUSTER_SECRET_TOKEN)))
                .accepts(hints);
    }

    @Test
    void commonJdkValueTypesShouldBeSerializable() {
        assertThat(RuntimeHintsPredicates.serialization().onType(String.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.serialization().onType(java.util.HashMap.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.serialization().onType(TypeReference.of("java.time.Ser")))
                .as("the serial proxy of %s", LocalDate.class).accepts(hints);
    }

    @Test
    void theAutoConfigurationShouldImportTheHints() {
        assertThat(ZarisAutoConfiguration.class.getAnnotation(ImportRuntimeHints.class).value())
                .containsExactly(ZarisRuntimeHints.class);
    }
}
