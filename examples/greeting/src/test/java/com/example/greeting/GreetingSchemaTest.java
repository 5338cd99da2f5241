package com.example.greeting;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.kube.KubeYaml;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The CRD's schema is the one generated from the Spec and Status records the controller reads and writes: change
 * a record, and this test prints the schema to paste into k8s/greetings.example.com.yaml.
 */
class GreetingSchemaTest {
  @Test
  void theCrdsSchemaIsGeneratedFromTheRecords() {
    JsonNode crd = KubeYaml.read(Path.of("k8s/greetings.example.com.yaml")).get(0);

    assertThat(crd.at("/spec/versions/0/schema/openAPIV3Schema"))
        .isEqualTo(GreetingController.PARENT.openApiV3Schema());
  }
}
