package io.proofline.deploy;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docker/jre-modules is the one list of the JDK modules of every jlinked Proofline runtime: every script that links one
 * (the Dockerfile's Maven stage, scripts/container-test.sh, the lab's service bundle) takes it from
 * scripts/jre-modules.sh and writes no list of its own, and every module in it exists in this JDK (jlink would refuse
 * a name it does not know). Whether jdeps finds more is checked where a jar is at hand: jre-modules.sh --check, which
 * the Dockerfile and container-test.sh run.
 */
class JreModulesTest {

    private static final List<Path> CONSUMERS = List.of(Path.of("docker", "Dockerfile"),
            Path.of("scripts", "container-test.sh"), Path.of("scripts", "lab", "service-bundle.sh"));

    @Test
    void everyRuntimeIsLinkedFromTheOneList() throws IOException {
        for (Path consumer : CONSUMERS) {
            String text = Files.readString(consumer);
            assertThat(text).as(consumer + " takes the modules from scripts/jre-modules.sh").contains("jre-modules.sh");
            for (String line : text.lines().toList()) {
                assertThat(line).as(consumer + ": a jlink module list written out")
                        .doesNotContainPattern("(--add-modules\\s+\"?|,)(java|jdk)\\.[a-z]");
            }
        }
    }

    @Test
    void everyListedModuleExistsInThisJdk() throws IOException {
        Set<String> jdk = ModuleLayer.boot().configuration().modules().stream().map(m -> m.name())
                .collect(Collectors.toSet());
        java.lang.module.ModuleFinder.ofSystem().findAll().forEach(m -> jdk.add(m.descriptor().name()));
        List<String> listed = Files.readAllLines(Path.of("docker", "jre-modules")).stream()
                .map(l -> l.replaceAll("#.*", "").strip()).filter(l -> !l.isEmpty()).toList();
        assertThat(listed).contains("java.base", "jdk.incubator.vector", "java.sql").doesNotHaveDuplicates();
        assertThat(jdk).containsAll(listed);
    }
}
