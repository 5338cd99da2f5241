package com.example.greeting;

import dev.metahooks.testing.GeneratedSchema;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The CRD's schema is the one generated from the Spec and Status records the controller reads and writes: change
 * a record, and {@code mvn test -Dtest=GreetingSchemaTest -Dschema.update=true} writes the schema into
 * k8s/greetings.example.com.yaml (read the diff before committing it).
 */
class GreetingSchemaTest {
  @Test
  void theCrdsSchemaIsGeneratedFromTheRecords() {
    GeneratedSchema.assertCrdHolds(Path.of("k8s/greetings.example.com.yaml"), "v1",
        GreetingController.PARENT.openApiV3Schema());
  }
}
