package dev.metahooks.controllers.globalconfigmap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.testing.Resources;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The GlobalConfigMap CRD's schema, written by hand after Metacontroller's example
 * (manifests/crds/globalconfigmaps.examples.metacontroller.io.yaml), is the one generated from the records the
 * controller reads its spec into and writes its status from: the API server checks what the hook reads.
 */
class GlobalConfigMapSchemaTest {
  private static final Path CRD = Resources.projectDir()
      .resolve("manifests/crds/globalconfigmaps.examples.metacontroller.io.yaml");

  @Test
  void theHandWrittenCrdsSchemaIsTheOneGeneratedFromTheRecords() throws IOException {
    JsonNode handWritten = new YAMLMapper().readTree(CRD.toFile()).at("/spec/versions/0/schema/openAPIV3Schema");

    assertThat(handWritten.isObject()).isTrue();
    assertThat(GlobalConfigMapController.PARENT.openApiV3Schema()).isEqualTo(handWritten);
  }
}
