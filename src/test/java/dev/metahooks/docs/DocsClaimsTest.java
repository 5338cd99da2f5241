package dev.metahooks.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.kube.KubeYaml;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the landing pages claim is what the repository holds: the Kubernetes version the manifests need, the
 * Metacontroller versions its manifests need, a start page that neither promises what exists nor applies into a
 * namespace it did not create, and a README short enough to be a landing page, naming tests that exist.
 */
class DocsClaimsTest {
  private static final Path PROJECT = Resources.projectDir();
  private static final String START = "docs/postgrescluster/README.md";
  private static final Pattern KUBERNETES =
      Pattern.compile("Kubernetes (1\\.\\d+) or (?:later|newer)");

  /**
   * 1.30 when the hook server's Deployment stops with the preStop {@code sleep} action: the feature gate
   * PodLifecycleSleepAction is alpha and off in 1.29, beta and on from 1.30 (kubernetes/website,
   * content/en/docs/reference/command-line-tools-reference/feature-gates/PodLifecycleSleepAction.md, lines 8-15);
   * 1.29 otherwise, for the PostgresCluster CRD's CEL quantity library (the CRD's own comment).
   */
  private static String kubernetesTheManifestsNeed() {
    boolean sleeps =
        KubeYaml.read(PROJECT.resolve("manifests/base/deployment.yaml")).stream()
            .flatMap(deployment -> containers(deployment).stream())
            .anyMatch(container -> container.at("/lifecycle/preStop").has("sleep"));
    return sleeps ? "1.30" : "1.29";
  }

  private static List<JsonNode> containers(JsonNode deployment) {
    List<JsonNode> containers = new ArrayList<>();
    deployment.at("/spec/template/spec/containers").forEach(containers::add);
    return containers;
  }

  @Test
  void everyKubernetesVersionClaimedIsTheOneTheManifestsNeed() {
    String needed = kubernetesTheManifestsNeed();
    for (String page : List.of("README.md", START, "docs/deploy.md")) {
      Matcher claim = KUBERNETES.matcher(MarkdownBlocks.page(page));
      assertThat(claim.find()).as("%s names the Kubernetes version it needs", page).isTrue();
      do {
        assertThat(claim.group(1)).as("%s: %s", page, claim.group()).isEqualTo(needed);
      } while (claim.find());
    }
  }

  @Test
  void theReadmeNamesTheMetacontrollerVersionsTheManifestsNeed() throws IOException {
    String deploy = MarkdownBlocks.section(MarkdownBlocks.page("README.md"), "Deploy");
    boolean v2Hooks;
    try (Stream<Path> manifests = Files.list(PROJECT.resolve("metacontroller"))) {
      v2Hooks = manifests.anyMatch(file -> read(file).contains("version: v2"));
    }
    if (v2Hooks) {
      // The first release that honours a hook's version: v2, as the README says.
      assertThat(deploy).contains("Metacontroller v4.15.0 or later");
    }
    if (read(PROJECT.resolve("manifests/overlays/secure/endpoint-config.yaml"))
        .contains("endpointConfigs")) {
      // The first release whose controllers take endpointConfigs, as the README says.
      assertThat(deploy).contains("v4.16.0 or later with the secure overlay");
    }
  }

  @Test
  void theStartPagesOpeningPromisesNothingThatExistsForLater() {
    String page = MarkdownBlocks.page(START);
    String opening = page.substring(0, page.indexOf("\n## "));
    assertThat(opening).doesNotContainPattern("(?i)comes? later|not yet|day 1");
    for (String subject :
        List.of("backups-and-restore.md", "upgrades.md", "security.md", "operations.md")) {
      assertThat(opening)
          .as("the opening links %s, which exists", subject)
          .contains("](" + subject + ")");
      assertThat(PROJECT.resolve("docs/postgrescluster").resolve(subject)).isRegularFile();
    }
  }

  @Test
  void theStartPagesCommandsCreateEveryNamespaceTheyApplyInto() {
    String commands = MarkdownBlocks.first(START, "Install", "sh");
    List<String> created = new ArrayList<>();
    int namespaced = 0;
    for (String line : commands.split("\n")) {
      Matcher create = Pattern.compile("kubectl create namespace (\\S+)").matcher(line);
      if (create.find()) {
        created.add(create.group(1));
      }
      Matcher into =
          Pattern.compile("kubectl (?:apply|create|get)\\b.*?(?:-n|--namespace)[ =](\\S+)")
              .matcher(line);
      if (into.find()) {
        namespaced++;
        assertThat(created).as("created before: %s", line).contains(into.group(1));
      }
    }
    assertThat(namespaced).as("commands into a namespace").isPositive();
  }

  @Test
  void theReadmeIsALandingPageThatNamesTestsThatExist() throws IOException {
    String readme = MarkdownBlocks.page("README.md");
    assertThat(readme.split("\n")).as("README lines").hasSizeLessThanOrEqualTo(200);
    for (String line : readme.split("\n")) {
      if (line.startsWith("|")) {
        for (String cell : line.split("(?<!\\\\)\\|")) {
          assertThat(cell.length())
              .as("a table cell of the README: %s", cell)
              .isLessThanOrEqualTo(200);
        }
      }
    }
    Matcher test =
        Pattern.compile("`(\\w+(?:Test|IT))`")
            .matcher(MarkdownBlocks.section(readme, "Run it, test it"));
    int named = 0;
    while (test.find()) {
      named++;
      String file = test.group(1) + ".java";
      try (Stream<Path> sources = Files.walk(PROJECT.resolve("src/test/java"))) {
        assertThat(sources.anyMatch(source -> source.getFileName().toString().equals(file)))
            .as("the README names %s", test.group(1))
            .isTrue();
      }
    }
    assertThat(named).as("tests the README names as sensitive to load").isGreaterThanOrEqualTo(4);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
