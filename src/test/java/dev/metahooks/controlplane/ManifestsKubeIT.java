package dev.metahooks.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testing.ControlPlane;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every deployment file the project ships, applied to a real API server with server-side apply as a user would: the
 * hook server with its CRDs ({@code manifests}), the secure overlay, each component, every controller of
 * {@code metacontroller/}, the sample custom resources, the example project's and a generated project's manifests.
 * Every object must be accepted, and every CRD Established, so each CEL rule compiled and each default is valid.
 * On a control plane of its own: the samples are cluster-scoped objects that scenarios create under the same names.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ManifestsKubeIT {
  private static final Path PROJECT = Resources.projectDir();
  private static final Pattern APPLIED = Pattern.compile("(?m)^\\S+ serverside-applied$");
  static ControlPlane plane;

  @BeforeAll
  static void cluster() {
    plane = ControlPlane.startNew();
  }

  @AfterAll
  static void stop() {
    if (plane != null) {
      plane.close();
    }
  }

  @Test
  @Order(1)
  void theCrdsTheTestsNeedAreEstablished() {
    ProjectCluster.installCrds(plane);
    String established =
        plane
            .kubectl(
                "",
                "get",
                "crd",
                "-o",
                "jsonpath={range .items[*]}{.metadata.name}={.status.conditions[?(@.type==\"Established\")].status}{\"\\n\"}{end}")
            .ok();
    assertThat(established.lines()).isNotEmpty().allMatch(line -> line.endsWith("=True"));
  }

  /** The kustomizations as a user applies them, before any custom resource. */
  static Stream<String> kustomizations() {
    return Stream.of(
        "manifests", "manifests/overlays/secure", "metacontroller", "examples/greeting/k8s");
  }

  @ParameterizedTest
  @Order(2)
  @MethodSource("kustomizations")
  void everyObjectOfAKustomizationIsAccepted(String dir) {
    ProjectCluster.installCrds(plane);
    assertThat(apply(plane.kubectl("", "kustomize", PROJECT.resolve(dir).toString()).ok()))
        .isPositive();
  }

  @ParameterizedTest
  @Order(3)
  @MethodSource("components")
  void everyComponentIsAccepted(String component) throws IOException {
    Path dir = Files.createTempDirectory(PROJECT.resolve("target"), "component-");
    Files.writeString(
        dir.resolve("kustomization.yaml"),
        "resources:\n- "
            + dir.relativize(PROJECT.resolve("metacontroller"))
            + "\n- "
            + dir.relativize(PROJECT.resolve("manifests/base"))
            + "\ncomponents:\n- "
            + dir.relativize(PROJECT.resolve("manifests/components").resolve(component))
            + "\n");
    assertThat(apply(plane.kubectl("", "kustomize", dir.toString()).ok())).isPositive();
  }

  static Stream<String> components() throws IOException {
    try (Stream<Path> dirs = Files.list(PROJECT.resolve("manifests/components"))) {
      return dirs.map(dir -> dir.getFileName().toString()).sorted().toList().stream();
    }
  }

  @Test
  @Order(4)
  void theSampleCustomResourcesAreAccepted() {
    ProjectCluster.installCrds(plane);
    assertThat(
            apply(
                plane
                    .kubectl("", "kustomize", PROJECT.resolve("manifests/examples").toString())
                    .ok()))
        .isPositive();
    assertThat(apply(read(PROJECT.resolve("examples/greeting/k8s/sample.yaml")))).isPositive();
  }

  @Test
  @Order(5)
  void theManifestsOfAProjectGeneratedFromTheArchetypeAreAccepted() throws IOException {
    Path generated = generatedManifests();
    String objects = plane.kubectl("", "kustomize", generated.toString()).ok();
    assertThat(apply(objects)).isPositive();
    plane.kubectl("", "wait", "--for=condition=Established", "crd", "--all", "--timeout=60s").ok();
    assertThat(apply(read(generated.resolve("sample.yaml")))).isEqualTo(1);
  }

  /** Server-side apply of {@code yaml}; the number of objects applied. */
  private static int apply(String yaml) {
    String output =
        plane
            .kubectl(yaml, "apply", "--server-side", "--field-manager=metahooks-tests", "-f", "-")
            .ok();
    Matcher applied = APPLIED.matcher(output);
    int count = 0;
    while (applied.find()) {
      count++;
    }
    System.out.printf("applied %d objects%n", count);
    return count;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * The archetype's k8s/ templates rendered with the values of its own integration test's project, as
   * {@code mvn archetype:generate} writes them (file names with {@code __artifactId__}, and the Velocity values).
   */
  private static Path generatedManifests() throws IOException {
    Path archetype = PROJECT.resolve("archetype/src");
    Properties properties = new Properties();
    try (var in =
        Files.newInputStream(
            archetype.resolve("test/resources/projects/basic/archetype.properties"))) {
      properties.load(in);
    }
    Map<String, String> values =
        Map.of(
            "${artifactId}",
            properties.getProperty("artifactId"),
            "${apiGroup}",
            properties.getProperty("apiGroup"),
            "${kind}",
            properties.getProperty("kind"),
            "${kind.toLowerCase()}",
            properties.getProperty("kind").toLowerCase(java.util.Locale.ROOT));
    Path templates = archetype.resolve("main/resources/archetype-resources/k8s");
    Path target = Files.createTempDirectory(PROJECT.resolve("target"), "generated-k8s-");
    List<Path> files;
    try (Stream<Path> walk = Files.walk(templates)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    for (Path file : files) {
      String relative =
          templates
              .relativize(file)
              .toString()
              .replace("__artifactId__", values.get("${artifactId}"));
      String text = Files.readString(file);
      for (Map.Entry<String, String> value : values.entrySet()) {
        text = text.replace(value.getKey(), value.getValue());
      }
      Path out = target.resolve(relative);
      Files.createDirectories(out.getParent());
      Files.writeString(out, text);
    }
    return target;
  }
}
