package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What {@code kubectl kustomize manifests} renders, and small readers of Kubernetes fields for the tests. */
final class Rendered {
  private static List<JsonNode> server;

  private Rendered() {}

  /** The base kustomization, rendered once per test run. */
  static synchronized List<JsonNode> server() {
    if (server == null) {
      server = Manifests.render(Manifests.MANIFESTS);
    }
    return server;
  }

  /**
   * What a kustomization of one's own renders that has {@code resource} (a directory of the project, such as
   * {@code manifests}) among its resources and the component {@code manifests/components/<component>}.
   */
  static List<JsonNode> withComponent(String resource, String component) {
    try {
      Path dir =
          Files.createDirectories(Resources.projectDir().resolve("target/kustomize-" + component));
      Files.writeString(
          dir.resolve("kustomization.yaml"),
          """
          apiVersion: kustomize.config.k8s.io/v1beta1
          kind: Kustomization
          resources:
          - ../../%s
          components:
          - ../../manifests/components/%s
          """
              .formatted(resource, component));
      return Manifests.render(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The one object of this kind the base renders. */
  static JsonNode only(String kind) {
    List<JsonNode> found =
        server().stream().filter(o -> o.path("kind").asText().equals(kind)).toList();
    assertThat(found).as("%s objects rendered", kind).hasSize(1);
    return found.get(0);
  }

  static JsonNode deployment() {
    return only("Deployment");
  }

  static JsonNode podSpec() {
    return deployment().at("/spec/template/spec");
  }

  static JsonNode container() {
    JsonNode containers = podSpec().path("containers");
    assertThat(containers).as("containers").hasSize(1);
    return containers.get(0);
  }

  /** The container port a Service targetPort or probe port names (by number or by name). */
  static int containerPort(JsonNode port) {
    if (port.isInt()) {
      return port.intValue();
    }
    for (JsonNode p : container().path("ports")) {
      if (p.path("name").asText().equals(port.asText())) {
        return p.path("containerPort").intValue();
      }
    }
    throw new AssertionError("the container has no port named " + port);
  }

  /** Whether every matchLabels entry of a selector is among the labels (and it has no matchExpressions). */
  static boolean selects(JsonNode selector, JsonNode labels) {
    if (selector.path("matchLabels").isEmpty() || selector.has("matchExpressions")) {
      return false;
    }
    for (Map.Entry<String, JsonNode> entry : selector.path("matchLabels").properties()) {
      if (!entry.getValue().equals(labels.get(entry.getKey()))) {
        return false;
      }
    }
    return true;
  }

  private static final Pattern QUANTITY = Pattern.compile("([0-9.]+)(m|k|M|G|T|Ki|Mi|Gi|Ti)?");

  /** A Kubernetes quantity (cpu or memory) as a number of units: "250m" is 0.25, "512Mi" is 536870912. */
  static BigDecimal quantity(JsonNode value) {
    Matcher m = QUANTITY.matcher(value.asText());
    assertThat(m.matches()).as("quantity %s", value).isTrue();
    BigDecimal number = new BigDecimal(m.group(1));
    String suffix = m.group(2) == null ? "" : m.group(2);
    BigDecimal factor =
        switch (suffix) {
          case "m" -> new BigDecimal("0.001");
          case "k" -> BigDecimal.valueOf(1000L);
          case "M" -> BigDecimal.valueOf(1000L * 1000);
          case "G" -> BigDecimal.valueOf(1000L * 1000 * 1000);
          case "T" -> BigDecimal.valueOf(1000L * 1000 * 1000 * 1000);
          case "Ki" -> BigDecimal.valueOf(1L << 10);
          case "Mi" -> BigDecimal.valueOf(1L << 20);
          case "Gi" -> BigDecimal.valueOf(1L << 30);
          case "Ti" -> BigDecimal.valueOf(1L << 40);
          default -> BigDecimal.ONE;
        };
    return number.multiply(factor);
  }
}
