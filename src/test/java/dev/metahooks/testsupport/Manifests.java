package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.kube.KubeYaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The deployment files of the project ({@code manifests/}, {@code metacontroller/}) as JSON trees, read and
 * rendered by the kit's {@link KubeYaml}, and what their kustomizations list.
 */
public final class Manifests {
  public static final Path MANIFESTS = Resources.projectDir().resolve("manifests");
  public static final Path CRDS = MANIFESTS.resolve("crds");
  public static final Path EXAMPLES = MANIFESTS.resolve("examples");
  public static final Path METACONTROLLER = Resources.projectDir().resolve("metacontroller");

  private Manifests() {}

  /** Every non-empty document of a YAML file ({@link KubeYaml#read}). */
  public static List<JsonNode> read(Path file) {
    return KubeYaml.read(file);
  }

  /** Every non-empty document of a YAML text ({@link KubeYaml#parse}). */
  public static List<JsonNode> parse(String yaml) {
    return KubeYaml.parse(yaml);
  }

  /** The objects {@code kubectl kustomize <dir>} renders ({@link KubeYaml#kustomize}). */
  public static List<JsonNode> render(Path dir) {
    return KubeYaml.kustomize(dir);
  }

  /** The {@code resources} a directory's kustomization.yaml lists, as written there. */
  public static List<String> listedResources(Path dir) {
    List<JsonNode> documents = read(dir.resolve("kustomization.yaml"));
    List<String> listed = new ArrayList<>();
    for (JsonNode resource : documents.get(0).path("resources")) {
      listed.add(resource.asText());
    }
    return listed;
  }

  /** The YAML files directly in a directory, other than its kustomization, sorted by name. */
  public static List<Path> yamlFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(f -> f.getFileName().toString().matches(".*\\.ya?ml"))
          .filter(f -> !f.getFileName().toString().matches("kustomization\\.ya?ml"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
