package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The pieces a user installs agree with each other: the modules have the root's version and dependency
 * versions, the example project asks for that version, and the Java of docs/writing-a-controller.md is the
 * example project's own code (examples/greeting, which CI builds and tests), so the guide cannot drift from it.
 */
class LibraryPackagingTest {
  private static final Path PROJECT = Resources.projectDir();

  /** The library, the kit and the service take their version and every dependency version from the root alone. */
  @Test
  void theModulesTakeTheRootsVersionAndDeclareNoVersionsOfTheirOwn() throws IOException {
    String rootVersion = version(Files.readString(PROJECT.resolve("pom.xml")), "metahooks-parent");
    for (String module : List.of("library/pom.xml", "testing/pom.xml", "service.xml")) {
      String pom = Files.readString(PROJECT.resolve(module));
      assertThat(version(pom, "metahooks-parent")).as(module).isEqualTo(rootVersion);
      assertThat(pom).as(module).doesNotContain("<properties>");
    }
  }

  /** A server of one's own does not get what only the command line needs: the YAML reader is optional there. */
  @Test
  void onlyTheCommandLineBringsTheYamlReader() throws IOException {
    String service = Files.readString(PROJECT.resolve("service.xml"));
    Matcher yaml =
        Pattern.compile(
                "<artifactId>jackson-dataformat-yaml</artifactId>(.*?)</dependency>",
                Pattern.DOTALL)
            .matcher(service);
    assertThat(yaml.find()).as("the service's YAML dependency").isTrue();
    assertThat(yaml.group(1)).contains("<optional>true</optional>");
    assertThat(Files.readString(PROJECT.resolve("library/pom.xml")))
        .doesNotContain("jackson-dataformat-yaml");
  }

  @Test
  void theExampleDependsOnThisVersionOfBothArtifacts() throws IOException {
    String example = Files.readString(PROJECT.resolve("examples/greeting/pom.xml"));
    assertThat(property(example, "metahooks.version"))
        .isEqualTo(version(Files.readString(PROJECT.resolve("pom.xml")), "metahooks-parent"));
    assertThat(example)
        .contains(
            "<artifactId>metahooks</artifactId>", "<artifactId>metahooks-testing</artifactId>");
  }

  @Test
  void theGuidesJavaIsTheExamplesCode() throws IOException {
    String guide = MarkdownBlocks.page("docs/writing-a-controller.md");
    String example = exampleSources();
    int lines = 0;
    for (String block : MarkdownBlocks.blocks(guide, "java")) {
      for (String line : block.split("\n")) {
        String code = line.replaceAll("\\s*//.*$", "").strip();
        if (code.isEmpty() || code.equals("...") || code.equals("}") || code.startsWith("try (")) {
          continue;
        }
        assertThat(example)
            .as("docs/writing-a-controller.md line in examples/greeting: %s", code)
            .contains(code);
        lines++;
      }
    }
    assertThat(lines).isGreaterThan(20);
  }

  private static String exampleSources() throws IOException {
    List<String> texts = new ArrayList<>();
    try (Stream<Path> files = Files.walk(PROJECT.resolve("examples/greeting"))) {
      files
          .filter(f -> f.toString().endsWith(".java"))
          .sorted()
          .forEach(
              f -> {
                try {
                  texts.add(Files.readString(f));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
    return String.join("\n", texts);
  }

  private static String version(String pom, String artifactId) {
    Matcher m =
        Pattern.compile("<artifactId>" + artifactId + "</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(pom);
    assertThat(m.find()).as("version of %s", artifactId).isTrue();
    return m.group(1);
  }

  private static String property(String pom, String name) {
    Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
    assertThat(m.find()).as("property %s", name).isTrue();
    return m.group(1);
  }
}
