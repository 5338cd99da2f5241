package dev.metahooks.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testing.kube.KubeYaml;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratedSchemaTest {
  private static final String CRD =
      """
      # A CRD of two versions; this comment stays.
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: things.example.com
      spec:
        group: example.com
        names: {kind: Thing, plural: things}
        scope: Namespaced
        versions:
        - name: v1
          served: true
          storage: false
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec: {type: object}

        - name: v2
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              # hand-written, to be replaced
              type: object
          subresources:
            status: {}
      """;

  private static JsonNode generated() throws Exception {
    return JsonTrees.MAPPER.readTree(
        """
        {"type": "object", "required": ["spec"], "properties": {"spec": {"type": "object", "required": ["who"],
         "properties": {"who": {"type": "string", "minLength": 1, "description": "Who: to greet"}}}}}""");
  }

  @Test
  void failsNamingTheFlagWhileTheCrdDiffers(@TempDir Path dir) throws Exception {
    Path crd = Files.writeString(dir.resolve("crd.yaml"), CRD);

    assertThatThrownBy(() -> GeneratedSchema.assertCrdHolds(crd, "v2", generated(), false))
        .hasMessageContaining("-Dschema.update=true");
    assertThat(Files.readString(crd)).isEqualTo(CRD);
  }

  @Test
  void writesOnlyThatVersionsSchemaAndKeepsTheRest(@TempDir Path dir) throws Exception {
    Path crd = Files.writeString(dir.resolve("crd.yaml"), CRD);

    GeneratedSchema.assertCrdHolds(crd, "v2", generated(), true);

    GeneratedSchema.assertCrdHolds(crd, "v2", generated(), false);
    String written = Files.readString(crd);
    assertThat(written)
        .startsWith("# A CRD of two versions; this comment stays.\n")
        .contains("    subresources:\n      status: {}\n")
        .doesNotContain("hand-written");
    JsonNode versions = KubeYaml.read(crd).get(0).at("/spec/versions");
    assertThat(versions.at("/0/schema/openAPIV3Schema/properties/spec").toString())
        .isEqualTo("{\"type\":\"object\"}");
    assertThat(versions.at("/1/subresources/status").isObject()).isTrue();
  }
}
