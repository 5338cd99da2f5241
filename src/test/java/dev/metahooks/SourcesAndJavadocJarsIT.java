package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testing.Resources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * After package: the jar has its sources and javadoc jars beside it (the javadoc built with doclint, warnings
 * failing the build), and the testing kit's pom attaches the same two, configured alike.
 */
class SourcesAndJavadocJarsIT {
  private static final Path JAR = Path.of(System.getProperty("metahooks.jar", "target/metahooks.jar"));

  private static List<String> entries(Path jar) throws Exception {
    try (JarFile file = new JarFile(jar.toFile())) {
      return file.stream().map(java.util.zip.ZipEntry::getName).toList();
    }
  }

  @Test
  void theJarHasItsSourcesAndJavadocBesideIt() throws Exception {
    Path dir = JAR.getParent();
    assertThat(entries(dir.resolve("metahooks-sources.jar")))
        .contains("dev/metahooks/api/Controller.java", "dev/metahooks/server/ServerConfig.java");
    assertThat(entries(dir.resolve("metahooks-javadoc.jar")))
        .contains("dev/metahooks/api/Controller.html", "dev/metahooks/api/package-summary.html", "index.html");
  }

  @Test
  void theKitsPomAttachesTheSameTwoConfiguredAlike() throws Exception {
    String root = Files.readString(Resources.projectDir().resolve("pom.xml"));
    String kit = Files.readString(Resources.projectDir().resolve("testing/pom.xml"));
    for (String line : List.of("<artifactId>maven-source-plugin</artifactId>", "<goal>jar-no-fork</goal>",
        "<artifactId>maven-javadoc-plugin</artifactId>", "<doclint>all,-missing</doclint>",
        "<failOnWarnings>true</failOnWarnings>")) {
      assertThat(root).contains(line);
      assertThat(kit).contains(line);
    }
  }
}
