package dev.metahooks.testing.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The CustomResourceDefinitions of a project, read from the YAML files (or directories of them) it names: what
 * the emulator's API server serves beside the built-in kinds, and the schemas custom objects are held to.
 */
public final class Crds {
  private final List<ObjectNode> crds;

  private Crds(List<ObjectNode> crds) {
    this.crds = List.copyOf(crds);
  }

  /** No CRDs. */
  public static Crds none() {
    return new Crds(List.of());
  }

  /** Every CRD in these YAML files and in the {@code .yaml}/{@code .yml} files of these directories. */
  public static Crds from(Path... filesOrDirectories) {
    List<ObjectNode> found = new ArrayList<>();
    for (Path path : filesOrDirectories) {
      for (Path file : yamlFiles(path)) {
        Yaml.file(file.toString()).stream()
            .filter(o -> "CustomResourceDefinition".equals(o.path("kind").asText()))
            .forEach(found::add);
      }
    }
    return new Crds(found);
  }

  public List<ObjectNode> all() {
    return crds;
  }

  /** The CRD serving this group/version and kind. */
  public Optional<ObjectNode> crdOf(String apiVersion, String kind) {
    int slash = apiVersion.indexOf('/');
    if (slash < 0) {
      return Optional.empty(); // the core group has no CRDs
    }
    String group = apiVersion.substring(0, slash);
    String version = apiVersion.substring(slash + 1);
    for (ObjectNode crd : crds) {
      JsonNode spec = crd.path("spec");
      if (spec.path("group").asText().equals(group)
          && spec.path("names").path("kind").asText().equals(kind)) {
        for (JsonNode v : spec.path("versions")) {
          if (v.path("name").asText().equals(version) && v.path("served").asBoolean(false)) {
            return Optional.of(crd);
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Whether a CRD serves this object's apiVersion and kind. */
  public boolean knows(JsonNode object) {
    return crdOf(object.path("apiVersion").asText(), object.path("kind").asText()).isPresent();
  }

  /** The schema of a kind, from its CRD; the version must be served. */
  public CrdSchema schemaOf(String apiVersion, String kind) {
    ObjectNode crd =
        crdOf(apiVersion, kind)
            .orElseThrow(
                () ->
                    new IllegalArgumentException("no CRD given serves " + apiVersion + " " + kind));
    return CrdSchema.of(crd, apiVersion.substring(apiVersion.indexOf('/') + 1));
  }

  /** The schema of this object's kind. */
  public CrdSchema schemaOf(JsonNode object) {
    return schemaOf(object.path("apiVersion").asText(), object.path("kind").asText());
  }

  private static List<Path> yamlFiles(Path path) {
    if (!Files.isDirectory(path)) {
      return List.of(path);
    }
    try (Stream<Path> files = Files.list(path)) {
      return files
          .filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
