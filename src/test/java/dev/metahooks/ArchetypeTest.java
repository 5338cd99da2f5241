package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The archetype (archetype/) makes the example project (examples/greeting, which CI builds and tests) for a kind of
 * one's own: its templates, given the example's names, are the example's files, so the two cannot drift apart. Its
 * version is the root's, and the generate command of docs/writing-a-controller.md is the one CI runs. That the
 * generated project builds is shown by the archetype's own integration test and by CI.
 */
class ArchetypeTest {
  private static final Path PROJECT = Resources.projectDir();
  private static final Path TEMPLATES =
      PROJECT.resolve("archetype/src/main/resources/archetype-resources");
  private static final Path EXAMPLE = PROJECT.resolve("examples/greeting");

  /** The example's value of each template expression; longer expressions first, as they contain shorter ones. */
  private static final Map<String, String> EXAMPLE_VALUES = exampleValues();

  /** Files of the generated project that the example does not have, and the other way round. */
  private static final Set<String> ARCHETYPE_ONLY = Set.of("README.md");

  private static final Set<String> EXAMPLE_ONLY =
      Set.of(
          "src/test/resources/fixtures/greeting/sync/03-french.request.json",
          "src/test/resources/fixtures/greeting/sync/03-french.response.json");

  private static Map<String, String> exampleValues() {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("${kind.toLowerCase()}", "greeting");
    values.put("${kind}", "Greeting");
    values.put("${artifactId}", "greeting");
    values.put("${groupId}", "com.example");
    values.put("${package}", "com.example.greeting");
    values.put("${apiGroup}", "example.com");
    values.put("${version}", "1.0.0");
    // The example names its CRD's file after the CRD and its system properties after itself.
    values.put("crd.yaml", "greetings.example.com.yaml");
    values.put("controller.version", "greeting.version");
    return values;
  }

  private static String render(String template) {
    String text = template;
    for (Map.Entry<String, String> value : EXAMPLE_VALUES.entrySet()) {
      text = text.replace(value.getKey(), value.getValue());
    }
    return text;
  }

  /** Where the example keeps the file the template at {@code relative} generates. */
  private static String examplePath(String relative) {
    String path =
        render(relative.replace("__kind__", "${kind}").replace("__artifactId__", "${artifactId}"));
    for (String sources : List.of("src/main/java/", "src/test/java/")) {
      if (path.startsWith(sources)) {
        path =
            sources + "com/example/greeting/" + path.substring(sources.length()); // packaged="true"
      }
    }
    return path;
  }

  private static Set<String> files(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      // What a build of the example wrote is not the example's.
      return files
          .filter(Files::isRegularFile)
          .map(f -> root.relativize(f).toString())
          .filter(f -> !f.startsWith("target/"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  /** A pom's text without its first comment, which says what the project is. */
  private static String withoutHeader(String pom) {
    return pom.replaceFirst("(?s)<!--.*?-->\n", "");
  }

  @Test
  void theTemplatesGiveTheExamplesFilesForTheExamplesNames() throws IOException {
    Set<String> generated = new TreeSet<>();
    for (String template : files(TEMPLATES)) {
      if (ARCHETYPE_ONLY.contains(template)) {
        continue;
      }
      String relative = examplePath(template);
      generated.add(relative);
      Path example = EXAMPLE.resolve(relative);
      assertThat(example).as("the example's file for the template %s", template).isRegularFile();
      String rendered = render(Files.readString(TEMPLATES.resolve(template)));
      String expected = Files.readString(example);
      if (template.equals("pom.xml")) {
        rendered = withoutHeader(rendered);
        expected = withoutHeader(expected);
      }
      assertThat(rendered)
          .as("template %s rendered with the example's names", template)
          .isEqualTo(expected);
    }
    Set<String> missing = new TreeSet<>(files(EXAMPLE));
    missing.removeAll(generated);
    assertThat(missing).as("files of the example that no template makes").isEqualTo(EXAMPLE_ONLY);
  }

  @Test
  void everyTemplateIsInTheDescriptorsFileSets() throws IOException {
    String descriptor =
        Files.readString(
            PROJECT.resolve("archetype/src/main/resources/META-INF/maven/archetype-metadata.xml"));
    List<String> directories =
        Pattern.compile("<directory>([^<]*)</directory>")
            .matcher(descriptor)
            .results()
            .map(m -> m.group(1))
            .toList();
    List<String> rootFiles =
        Pattern.compile("<include>([^*<][^<]*)</include>")
            .matcher(descriptor)
            .results()
            .map(m -> m.group(1))
            .toList();
    for (String template : files(TEMPLATES)) {
      boolean inADirectory =
          directories.stream().anyMatch(d -> !d.isEmpty() && template.startsWith(d + "/"));
      assertThat(inADirectory || rootFiles.contains(template) || template.equals("pom.xml"))
          .as("%s is generated (a fileSet of archetype-metadata.xml holds it)", template)
          .isTrue();
    }
  }

  /**
   * The generated project's README names each of its files (a Java source by its class, {@code ${kind}ServerIT};
   * any other by its path, {@code k8s/server/deployment.yaml}), so that a file added to the archetype is added to
   * the README's list of what a change touches; and every path it names is a file of the project.
   */
  @Test
  void theGeneratedReadmeNamesEveryFileOfTheProject() throws IOException {
    String readme = Files.readString(TEMPLATES.resolve("README.md"));
    Set<String> templates = files(TEMPLATES);
    Set<String> unnamed = new TreeSet<>();
    for (String template : templates) {
      String name = readmeName(template);
      if (!template.equals("README.md") && !readme.contains("`" + name + "`")) {
        unnamed.add(name);
      }
    }
    assertThat(unnamed).as("files of the generated project its README does not name").isEmpty();

    Set<String> named = new TreeSet<>();
    Matcher path = Pattern.compile("`([^`<>\\s]+\\.(?:yaml|json|xml))`").matcher(readme);
    while (path.find()) {
      named.add(path.group(1));
    }
    named.removeAll(templates.stream().map(ArchetypeTest::readmeName).toList());
    assertThat(named).as("paths the README names that the project does not have").isEmpty();
  }

  /** How the README names a template's file: a class by its name, any other file by its path. */
  private static String readmeName(String template) {
    String path =
        template.replace("__kind__", "${kind}").replace("__artifactId__", "${artifactId}");
    return path.endsWith(".java")
        ? path.substring(path.lastIndexOf('/') + 1, path.length() - ".java".length())
        : path;
  }

  @Test
  void theArchetypeHasTheRootsVersionAndItsProjectAsksForIt() throws IOException {
    String rootVersion = version(Files.readString(PROJECT.resolve("pom.xml")), "metahooks-parent");
    assertThat(
            version(Files.readString(PROJECT.resolve("archetype/pom.xml")), "metahooks-archetype"))
        .isEqualTo(rootVersion);
    Matcher generated =
        Pattern.compile("<metahooks.version>([^<]+)</")
            .matcher(Files.readString(TEMPLATES.resolve("pom.xml")));
    assertThat(generated.find()).isTrue();
    assertThat(generated.group(1)).isEqualTo(rootVersion);
  }

  @Test
  void ciRunsTheGuidesGenerateCommand() throws IOException {
    String guide = MarkdownBlocks.page("docs/writing-a-controller.md");
    String ci = Files.readString(PROJECT.resolve(".ci/run"));
    String guideArguments = generateArguments(guide, "mvn -B archetype:generate");
    assertThat(guideArguments)
        .contains(
            "-DarchetypeArtifactId=metahooks-archetype",
            "-DarchetypeVersion="
                + version(Files.readString(PROJECT.resolve("pom.xml")), "metahooks-parent"));
    assertThat(generateArguments(ci, "maven-archetype-plugin:3.4.0:generate"))
        .isEqualTo(guideArguments);
    assertThat(Files.readString(PROJECT.resolve("archetype/pom.xml")))
        .contains("<archetype.version>3.4.0</archetype.version>");
    assertThat(guide).contains("cd hello && mvn -B verify");
    assertThat(ci).contains("cd hello && mvn -B -o verify");
  }

  /** The arguments after {@code command}, up to the end of its shell command (continuation lines joined). */
  private static String generateArguments(String text, String command) {
    int start = text.indexOf(command);
    assertThat(start).as("'%s' in the text", command).isNotNegative();
    StringBuilder arguments = new StringBuilder();
    for (String line : text.substring(start + command.length()).split("\n")) {
      String trimmed = line.strip();
      boolean continues = trimmed.endsWith("\\");
      arguments
          .append(' ')
          .append(continues ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
      if (!continues) {
        break;
      }
    }
    String joined = arguments.toString();
    int next = joined.indexOf("&&"); // the next command of the same line
    return (next < 0 ? joined : joined.substring(0, next)).replaceAll("\\s+", " ").strip();
  }

  private static String version(String pom, String artifactId) {
    Matcher m =
        Pattern.compile("<artifactId>" + artifactId + "</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(pom);
    assertThat(m.find()).as("version of %s", artifactId).isTrue();
    return m.group(1);
  }
}
