package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.server.internal.BuildInfo;
import dev.metahooks.testsupport.Resources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * After package: the jar has its sources and javadoc jars beside it (the javadoc built with doclint, warnings
 * failing the build), and every published module attaches the same two, configured once in the root pom.
 */
class SourcesAndJavadocJarsIT {
  private static final Path JAR =
      Path.of(System.getProperty("metahooks.jar", "target/metahooks.jar"));

  private static List<String> entries(Path jar) throws Exception {
    try (JarFile file = new JarFile(jar.toFile())) {
      return file.stream().map(java.util.zip.ZipEntry::getName).toList();
    }
  }

  @Test
  void theJarHasItsSourcesAndJavadocBesideIt() throws Exception {
    Path dir = JAR.getParent();
    assertThat(entries(dir.resolve("metahooks-sources.jar")))
        .contains(
            "dev/metahooks/BuiltInControllers.java", "dev/metahooks/controllers/Catalog.java");
    assertThat(entries(dir.resolve("metahooks-javadoc.jar")))
        .contains("dev/metahooks/BuiltInControllers.html", "index.html");
  }

  @Test
  void theLibraryHasItsSourcesAndJavadocBesideIt() throws Exception {
    Path dir = Resources.projectDir().resolve("library/target");
    String version = BuildInfo.version();
    assertThat(entries(dir.resolve("metahooks-library-" + version + "-sources.jar")))
        .contains(
            "dev/metahooks/api/Controller.java", "dev/metahooks/server/config/ServerConfig.java");
    assertThat(entries(dir.resolve("metahooks-library-" + version + "-javadoc.jar")))
        .contains(
            "dev/metahooks/api/Controller.html",
            "dev/metahooks/api/package-summary.html",
            "index.html");
  }

  /** Each module that users depend on attaches both, configured once in the root pom. */
  @Test
  void everyPublishedModuleAttachesTheSameTwoConfiguredOnce() throws Exception {
    String root = Files.readString(Resources.projectDir().resolve("pom.xml"));
    for (String line :
        List.of(
            "<artifactId>maven-source-plugin</artifactId>",
            "<goal>jar-no-fork</goal>",
            "<artifactId>maven-javadoc-plugin</artifactId>",
            "<doclint>all,-missing</doclint>",
            "<failOnWarnings>true</failOnWarnings>")) {
      assertThat(root).contains(line);
    }
    for (String module : List.of("library/pom.xml", "testing/pom.xml", "service.xml")) {
      String pom = Files.readString(Resources.projectDir().resolve(module));
      assertThat(pom)
          .as(module)
          .contains(
              "<artifactId>maven-source-plugin</artifactId>",
              "<artifactId>maven-javadoc-plugin</artifactId>");
    }
  }
}
