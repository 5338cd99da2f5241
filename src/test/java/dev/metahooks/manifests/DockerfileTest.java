package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The Dockerfile, read rather than built: the build stage produces what the runtime stage copies (checked
 * against service.xml), the runtime runs as the non-root user the Deployment names, on the port it names, and the
 * build context holds only what the build needs.
 */
class DockerfileTest {
  private static final Path PROJECT = Resources.projectDir();

  /** One instruction, continuation lines joined; {@code stage} counts FROM lines from 0. */
  record Instruction(int stage, String keyword, String arguments) {}

  static List<Instruction> instructions() throws IOException {
    List<Instruction> instructions = new ArrayList<>();
    StringBuilder pending = new StringBuilder();
    int stage = -1;
    for (String line : Files.readAllLines(PROJECT.resolve("Dockerfile"))) {
      String trimmed = line.strip();
      if (trimmed.startsWith("#") || (trimmed.isEmpty() && pending.isEmpty())) {
        continue;
      }
      if (trimmed.endsWith("\\")) {
        pending.append(trimmed, 0, trimmed.length() - 1).append(' ');
        continue;
      }
      pending.append(trimmed);
      String text = pending.toString().strip();
      pending.setLength(0);
      int space = text.indexOf(' ');
      String keyword = text.substring(0, space).toUpperCase();
      if (keyword.equals("FROM")) {
        stage++;
      }
      instructions.add(new Instruction(stage, keyword, text.substring(space + 1).strip()));
    }
    return instructions;
  }

  static List<Instruction> stage(int stage, String keyword) throws IOException {
    return instructions().stream()
        .filter(i -> i.stage() == stage && i.keyword().equals(keyword))
        .toList();
  }

  private static int lastStage() throws IOException {
    return instructions().get(instructions().size() - 1).stage();
  }

  @Test
  void buildsWithMavenAndRunsOnAJre() throws IOException {
    assertThat(stage(0, "FROM"))
        .singleElement()
        .extracting(Instruction::arguments)
        .isEqualTo("maven:3-eclipse-temurin-17 AS build");
    assertThat(lastStage()).isEqualTo(1);
    assertThat(stage(1, "FROM"))
        .singleElement()
        .extracting(Instruction::arguments)
        .asString()
        .startsWith("eclipse-temurin:17-jre");
  }

  @Test
  void fetchesDependenciesBeforeCopyingTheSources() throws IOException {
    List<String> build =
        instructions().stream()
            .filter(i -> i.stage() == 0)
            .map(i -> i.keyword() + " " + i.arguments())
            .toList();
    int pom = indexOf(build, s -> s.startsWith("COPY pom.xml"));
    int goOffline =
        indexOf(build, s -> s.startsWith("RUN mvn") && s.contains("dependency:go-offline"));
    int sources = indexOf(build, s -> s.startsWith("COPY ") && s.split("\\s+")[1].endsWith("src"));
    int packaging =
        indexOf(
            build,
            s ->
                s.startsWith("RUN mvn")
                    && s.contains(" package")
                    && s.contains("-Dmaven.test.skip=true"));
    assertThat(List.of(pom, goOffline, sources, packaging))
        .as("order in %s", build)
        .doesNotContain(-1)
        .isSorted();
  }

  @Test
  void copiesTheJarAndItsLibrariesThatTheBuildProduces() throws Exception {
    String workdir = stage(0, "WORKDIR").get(0).arguments();
    List<String[]> copies =
        stage(1, "COPY").stream().map(i -> i.arguments().split("\\s+")).toList();
    assertThat(copies).allSatisfy(c -> assertThat(c[0]).isEqualTo("--from=build"));
    assertThat(copies)
        .extracting(c -> c[1])
        .containsExactly(workdir + "/target/lib/", workdir + "/target/metahooks.jar");

    Document pom =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(PROJECT.resolve("service.xml").toFile());
    Element build = (Element) pom.getDocumentElement().getElementsByTagName("build").item(0);
    assertThat(text(build, "finalName")).as("target/<finalName>.jar").isEqualTo("metahooks");
    // Copied dependencies in lib/, and beside them the logging provider's registration, a jar of
    // its own that the
    // runnable jar's Class-Path names (a directory there would stop the class-data archive,
    // ClassDataArchiveIT).
    assertThat(texts(build, "outputDirectory"))
        .as("outputs of copy-dependencies and of the logging jar")
        .containsExactly("${project.build.directory}/lib", "${project.build.directory}/lib");
    assertThat(text(build, "classpathPrefix")).as("the jar's Class-Path").isEqualTo("lib/");
    assertThat(text(build, "Class-Path"))
        .as("the logging jar on the Class-Path")
        .isEqualTo("lib/" + text(build, "finalName") + "-" + text(build, "classifier") + ".jar");

    // The jar finds its libraries at lib/ beside itself.
    String jar = copies.get(1)[2];
    assertThat(copies.get(0)[2]).isEqualTo(jar.substring(0, jar.lastIndexOf('/')) + "/lib/");
  }

  @Test
  void runsTheJarWithContainerAwareJvmFlags() throws IOException {
    JsonNode entrypoint = JsonTrees.MAPPER.readTree(stage(1, "ENTRYPOINT").get(0).arguments());
    List<String> words = new ArrayList<>();
    entrypoint.forEach(w -> words.add(w.asText()));
    String jar = stage(1, "COPY").get(1).arguments().split("\\s+")[2];
    assertThat(words.get(0)).isEqualTo("java");
    assertThat(words.subList(words.size() - 2, words.size())).containsExactly("-jar", jar);
    assertThat(words).anyMatch(w -> w.startsWith("-XX:MaxRAMPercentage="));
    assertThat(words).contains("-XX:+ExitOnOutOfMemoryError");
    assertThat(stage(1, "CMD")).as("CMD would become arguments of the server").isEmpty();
  }

  /**
   * The class-data archive is made in the runtime stage, by the runtime's JVM, from a training run of the jar
   * the image runs, with the ENTRYPOINT's own JVM flags (an archive made with other flags or jars is ignored),
   * and the ENTRYPOINT maps that same file.
   */
  @Test
  void buildsTheClassDataArchiveThatTheEntrypointUses() throws IOException {
    List<String> entrypoint = new ArrayList<>();
    JsonTrees.MAPPER
        .readTree(stage(1, "ENTRYPOINT").get(0).arguments())
        .forEach(w -> entrypoint.add(w.asText()));
    String archive =
        entrypoint.stream()
            .filter(w -> w.startsWith("-XX:SharedArchiveFile="))
            .findFirst()
            .map(w -> w.substring(w.indexOf('=') + 1))
            .orElseThrow(() -> new AssertionError("no archive: " + entrypoint));
    String jar = entrypoint.get(entrypoint.size() - 1);

    List<Instruction> runs =
        stage(1, "RUN").stream()
            .filter(r -> r.arguments().contains("-XX:ArchiveClassesAtExit="))
            .toList();
    assertThat(runs).as("one training run in the runtime stage").hasSize(1);
    String training = runs.get(0).arguments();
    assertThat(training)
        .contains("-XX:ArchiveClassesAtExit=" + archive + " ", "-jar " + jar + " train ");
    List<String> jvmFlags =
        entrypoint.subList(1, entrypoint.size() - 2).stream()
            .filter(w -> !w.startsWith("-XX:SharedArchiveFile="))
            .toList();
    for (String flag : jvmFlags) {
      assertThat(training)
          .as("the training run has the ENTRYPOINT's flag %s", flag)
          .contains(" " + flag + " ");
    }

    // Trained on the golden fixtures, bound from the build stage: nothing of them stays in the
    // image.
    java.util.regex.Matcher mount =
        java.util.regex.Pattern.compile("--mount=type=bind,from=build,source=(\\S+),target=(\\S+)")
            .matcher(training);
    assertThat(mount.find()).as("fixtures bound from the build stage in %s", training).isTrue();
    String workdir = stage(0, "WORKDIR").get(0).arguments();
    assertThat(mount.group(1)).isEqualTo(workdir + "/src/test/resources/fixtures");
    assertThat(training).contains(" train " + mount.group(2));
    assertThat(PROJECT.resolve("src/test/resources/fixtures/hello-world/sync")).isDirectory();

    // Made while still root (the user cannot write /app), readable by the user afterwards.
    List<String> runtime =
        instructions().stream().filter(i -> i.stage() == 1).map(Instruction::keyword).toList();
    int user = runtime.indexOf("USER");
    int made = -1;
    for (int i = 0; i < runtime.size(); i++) {
      if (instructions().stream()
          .filter(x -> x.stage() == 1)
          .toList()
          .get(i)
          .arguments()
          .contains("ArchiveClassesAtExit")) {
        made = i;
      }
    }
    assertThat(made).isBetween(0, user);
    assertThat(training).contains("chmod 0444 " + archive);
  }

  @Test
  void theBuildContextHoldsOnlyThePomAndTheSources() throws IOException {
    List<String> rules =
        Files.readAllLines(PROJECT.resolve(".dockerignore")).stream()
            .map(String::strip)
            .filter(l -> !l.isEmpty() && !l.startsWith("#"))
            .toList();
    for (Instruction copy : stage(0, "COPY")) {
      String source = copy.arguments().split("\\s+")[0];
      assertThat(inContext(rules, source)).as("%s is in the build context", source).isTrue();
    }
    assertThat(inContext(rules, "src/main/java/dev/metahooks/Main.java")).isTrue();
    for (String left :
        List.of(
            "target/metahooks.jar", ".git/config", "manifests/kustomization.yaml", "README.md")) {
      assertThat(inContext(rules, left)).as("%s is kept out of the build context", left).isFalse();
    }
  }

  /** The reactor reads every module's POM before it builds one: each is in the context and copied before go-offline. */
  @Test
  void everyModulesPomIsCopiedBeforeTheDependenciesAreFetched() throws Exception {
    List<String> rules =
        Files.readAllLines(PROJECT.resolve(".dockerignore")).stream()
            .map(String::strip)
            .filter(l -> !l.isEmpty() && !l.startsWith("#"))
            .toList();
    List<String> build =
        instructions().stream()
            .filter(i -> i.stage() == 0)
            .map(i -> i.keyword() + " " + i.arguments())
            .toList();
    int goOffline =
        indexOf(build, s -> s.startsWith("RUN mvn") && s.contains("dependency:go-offline"));
    List<String> copiedBefore =
        build.subList(0, goOffline).stream()
            .filter(s -> s.startsWith("COPY "))
            .flatMap(
                s -> {
                  List<String> words = List.of(s.split("\\s+"));
                  return words.subList(1, words.size() - 1).stream();
                })
            .toList();
    NodeList modules =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(PROJECT.resolve("pom.xml").toFile())
            .getElementsByTagName("module");
    assertThat(modules.getLength()).isGreaterThanOrEqualTo(3);
    for (int i = 0; i < modules.getLength(); i++) {
      String module = modules.item(i).getTextContent();
      String pom = module.endsWith(".xml") ? module : module + "/pom.xml";
      assertThat(inContext(rules, pom)).as("%s is in the build context", pom).isTrue();
      assertThat(copiedBefore).as("copied before go-offline").contains(pom);
    }
  }

  /** .dockerignore semantics, simplified: the last rule matching the path or one of its parents decides. */
  private static boolean inContext(List<String> rules, String path) {
    boolean included = true;
    for (String rule : rules) {
      boolean exception = rule.startsWith("!");
      String pattern = (exception ? rule.substring(1) : rule).replaceAll("/+$", "");
      var matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
      for (Path p = Path.of(path); p != null; p = p.getParent()) {
        if (matcher.matches(p)) {
          included = exception;
          break;
        }
      }
    }
    return included;
  }

  private static int indexOf(List<String> lines, Predicate<String> test) {
    for (int i = 0; i < lines.size(); i++) {
      if (test.test(lines.get(i))) {
        return i;
      }
    }
    return -1;
  }

  private static List<String> texts(Element parent, String tag) {
    NodeList found = parent.getElementsByTagName(tag);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < found.getLength(); i++) {
      texts.add(found.item(i).getTextContent().strip());
    }
    return texts;
  }

  private static String text(Element parent, String tag) {
    NodeList found = parent.getElementsByTagName(tag);
    assertThat(found.getLength()).as("<%s> elements in <build>", tag).isEqualTo(1);
    return found.item(0).getTextContent().strip();
  }
}
