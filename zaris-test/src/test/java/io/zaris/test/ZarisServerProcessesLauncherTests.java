package io.zaris.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which server a {@link ZarisCluster} of server processes runs: the annotation's jar, the property's, or the class path. */
class ZarisServerProcessesLauncherTests {

    @TempDir
    Path directory;

    @Test
    void theAnnotationsJarShouldWinOverTheProperty() throws IOException {
        Path annotated = Files.createFile(directory.resolve("annotated-server.jar"));
        Path property = Files.createFile(directory.resolve("property-server.jar"));

        assertThat(ZarisServerProcesses.launcher(annotated.toString(), property.toString(), "java", "cp"))
                .containsExactly("java", "-Xmx192m", "-XX:+UseSerialGC", "-jar", annotated.toString());
    }

    @Test
    void thePropertysJarShouldServeWhenTheAnnotationNamesNone() throws IOException {
        Path property = Files.createFile(directory.resolve("property-server.jar"));

        assertThat(ZarisServerProcesses.launcher("", property.toString(), "java", "cp"))
                .endsWith("-jar", property.toString());
    }

    @Test
    void withoutAJarTheServersMainClassShouldRunOnTheClassPath() {
        assertThat(ZarisServerProcesses.launcher("", "", "java", "a.jar:b.jar"))
                .endsWith("-cp", "a.jar:b.jar", "io.zaris.server.ZarisServerMain");
    }

    @Test
    void aJarThatIsNoFileShouldBeRefusedWithHowToBuildIt() {
        String missing = directory.resolve("missing.jar").toString();

        assertThatThrownBy(() -> ZarisServerProcesses.launcher("", missing, "java", "cp"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(missing).hasMessageContaining("zaris.test.server-jar")
                .hasMessageContaining("mvn -pl zaris-engine package");
    }
}
