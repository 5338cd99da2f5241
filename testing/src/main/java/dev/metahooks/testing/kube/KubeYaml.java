package dev.metahooks.testing.kube;

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

/**
 * Kubernetes YAML as JSON trees: files read document by document (a duplicate key is an error, as for the API
 * server), and kustomizations rendered by {@code kubectl kustomize} exactly as {@code kubectl apply -k} would see
 * them, with no cluster. YAML anchors and aliases are not expanded by the reader; render through kustomize to read
 * files that use them.
 *
 * <pre>{@code
 * for (JsonNode object : KubeYaml.kustomize(Path.of("k8s"))) { ... }
 * }</pre>
 */
public final class KubeYaml {
  private static final YAMLMapper YAML =
      YAMLMapper.builder().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();
  private static final long KUBECTL_TIMEOUT_SECONDS = 60;

  private KubeYaml() {}

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
   * The objects {@code kubectl kustomize <dir>} renders ({@code KUBECTL} names the binary, {@code kubectl} by
   * default). Fails with kubectl's own message when it cannot render, or when it warns (a deprecated field, for
   * one): a kustomization must render cleanly.
   */
  public static List<JsonNode> kustomize(Path dir) {
    Path stderr;
    try {
      stderr = Files.createTempFile("kustomize", ".stderr");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      Process process =
          new ProcessBuilder(kubectl(), "kustomize", dir.toString())
              .redirectError(stderr.toFile())
              .start();
      process.getOutputStream().close();
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(KUBECTL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(
            "kubectl kustomize " + dir + " did not finish in " + KUBECTL_TIMEOUT_SECONDS + " s");
      }
      String errors = Files.readString(stderr).strip();
      if (process.exitValue() != 0) {
        throw new AssertionError(
            "kubectl kustomize " + dir + " failed (exit " + process.exitValue() + "): " + errors);
      }
      if (errors.toLowerCase().contains("warning")) {
        throw new AssertionError("kubectl kustomize " + dir + " warned: " + errors);
      }
      return parse(new String(out, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new AssertionError(
          "cannot run '"
              + kubectl()
              + "' (install kubectl, or set KUBECTL to its path): "
              + e.getMessage(),
          e);
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

  private static String kubectl() {
    String configured = System.getenv("KUBECTL");
    return configured == null || configured.isBlank() ? "kubectl" : configured;
  }
}
