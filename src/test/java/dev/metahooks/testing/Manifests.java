package dev.metahooks.testing;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The deployment files of the project ({@code manifests/}, {@code metacontroller/}) as JSON trees: YAML files
 * read document by document, and kustomizations rendered by {@code kubectl kustomize} exactly as
 * {@code kubectl apply -k} would see them. YAML anchors and aliases are not expanded by the reader; render
 * through kustomize to read files that use them.
 */
public final class Manifests {
  public static final Path MANIFESTS = Resources.projectDir().resolve("manifests");
  public static final Path CRDS = MANIFESTS.resolve("crds");
  public static final Path EXAMPLES = MANIFESTS.resolve("examples");
  public static final Path METACONTROLLER = Resources.projectDir().resolve("metacontroller");

  private static final YAMLMapper YAML = YAMLMapper.builder()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .build();
  private static final long KUBECTL_TIMEOUT_SECONDS = 60;

  private Manifests() {}

  /** Every non-empty document of a YAML file. */
  public static List<JsonNode> read(Path file) {
    try {
      return parse(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** Every non-empty document of a YAML text. */
  public static List<JsonNode> parse(String yaml) {
    List<JsonNode> documents = new ArrayList<>();
    // One tree per document; a reader's readValues would instead unwrap a document that is a list.
    try (JsonParser parser = YAML.createParser(yaml)) {
      while (parser.nextToken() != null) {
        JsonNode document = YAML.readTree(parser);
        if (document != null && !document.isNull() && !document.isMissingNode()) {
          documents.add(document);
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("not valid YAML: " + e.getMessage(), e);
    }
    return documents;
  }

  /**
   * The objects {@code kubectl kustomize <dir>} renders. Fails with kubectl's own message when it cannot
   * render, or when it warns (a deprecated field, for one): a kustomization must render cleanly.
   */
  public static List<JsonNode> render(Path dir) {
    Path stderr;
    try {
      stderr = Files.createTempFile("kustomize", ".stderr");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      Process process = new ProcessBuilder(kubectl(), "kustomize", dir.toString())
          .redirectError(stderr.toFile())
          .start();
      process.getOutputStream().close();
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(KUBECTL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("kubectl kustomize " + dir + " did not finish in " + KUBECTL_TIMEOUT_SECONDS + " s");
      }
      String errors = Files.readString(stderr).strip();
      if (process.exitValue() != 0) {
        throw new AssertionError("kubectl kustomize " + dir + " failed (exit " + process.exitValue() + "): " + errors);
      }
      if (errors.toLowerCase().contains("warning")) {
        throw new AssertionError("kubectl kustomize " + dir + " warned: " + errors);
      }
      return parse(new String(out, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new AssertionError("cannot run '" + kubectl() + "' (install kubectl, or set KUBECTL to its path): "
          + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      try {
        Files.deleteIfExists(stderr);
      } catch (IOException ignored) {
        // a leftover temporary file is harmless
      }
    }
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
      return files.filter(Files::isRegularFile)
          .filter(f -> f.getFileName().toString().matches(".*\\.ya?ml"))
          .filter(f -> !f.getFileName().toString().matches("kustomization\\.ya?ml"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String kubectl() {
    String configured = System.getenv("KUBECTL");
    return configured == null || configured.isBlank() ? "kubectl" : configured;
  }
}
