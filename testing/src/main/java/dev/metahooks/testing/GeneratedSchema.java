package dev.metahooks.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.testing.kube.KubeYaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A committed CRD holds the schema generated from a typed parent ({@code TypedParent.openApiV3Schema()}): the check
 * of a project's schema test. Run with {@code -Dschema.update=true}, it writes the generated schema into the CRD
 * file instead (only the {@code openAPIV3Schema} block of that version is rewritten; comments and the rest stay),
 * then read the diff before committing it.
 *
 * <pre>{@code
 * @Test
 * void theCrdsSchemaIsGeneratedFromTheRecords() {
 *   GeneratedSchema.assertCrdHolds(Path.of("k8s/crd.yaml"), "v1", GreetingController.PARENT.openApiV3Schema());
 * }
 * }</pre>
 */
public final class GeneratedSchema {
  /** The system property that makes the check write the generated schema into the CRD file. */
  public static final String UPDATE_PROPERTY = "schema.update";

  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .build();
  private static final Pattern SCHEMA_LINE = Pattern.compile("^( *)openAPIV3Schema:\\s*$");

  private GeneratedSchema() {}

  /**
   * That the CRD in {@code crdFile} (its first document) has {@code generated} as the schema of {@code version};
   * with {@code -Dschema.update=true}, writes it there first.
   */
  public static void assertCrdHolds(Path crdFile, String version, JsonNode generated) {
    assertCrdHolds(crdFile, version, generated, Boolean.getBoolean(UPDATE_PROPERTY));
  }

  static void assertCrdHolds(Path crdFile, String version, JsonNode generated, boolean update) {
    if (update) {
      write(crdFile, version, generated);
    }
    assertThat(committed(crdFile, version))
        .as(
            "the schema of %s version %s is not the one generated from the records; run the test with -D%s=true"
                + " to write it, then read the diff",
            crdFile, version, UPDATE_PROPERTY)
        .isEqualTo(generated);
  }

  private static JsonNode committed(Path crdFile, String version) {
    return KubeYaml.read(crdFile)
        .get(0)
        .at("/spec/versions/" + versionIndex(crdFile, version) + "/schema/openAPIV3Schema");
  }

  private static int versionIndex(Path crdFile, String version) {
    JsonNode versions = KubeYaml.read(crdFile).get(0).path("spec").path("versions");
    for (int i = 0; i < versions.size(); i++) {
      if (versions.get(i).path("name").asText().equals(version)) {
        return i;
      }
    }
    throw new IllegalArgumentException(crdFile + " has no version " + version);
  }

  /** Replaces the lines of the version's openAPIV3Schema block (those indented deeper than its key) with the schema. */
  private static void write(Path crdFile, String version, JsonNode generated) {
    try {
      List<String> lines = new ArrayList<>(Files.readAllLines(crdFile));
      int seen = -1;
      int target = versionIndex(crdFile, version);
      for (int i = 0; i < lines.size(); i++) {
        Matcher key = SCHEMA_LINE.matcher(lines.get(i));
        if (key.matches() && ++seen == target) {
          int indent = key.group(1).length();
          int end = i + 1;
          while (end < lines.size()
              && (lines.get(end).isBlank() || indentOf(lines.get(end)) > indent)) {
            end++;
          }
          while (end > i + 1 && lines.get(end - 1).isBlank()) {
            end--; // a blank line after the block separates it from what follows
          }
          lines.subList(i + 1, end).clear();
          lines.addAll(i + 1, yaml(generated, " ".repeat(indent + 2)));
          Files.write(crdFile, lines);
          return;
        }
      }
      throw new IllegalArgumentException(
          crdFile + ": no block 'openAPIV3Schema:' for version " + version);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + crdFile, e);
    }
  }

  private static int indentOf(String line) {
    return line.length() - line.stripLeading().length();
  }

  private static List<String> yaml(JsonNode schema, String indent) {
    try {
      return YAML.writeValueAsString(schema).lines().map(line -> indent + line).toList();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
