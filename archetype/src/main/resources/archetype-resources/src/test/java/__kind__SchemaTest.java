package ${package};

import dev.metahooks.testing.GeneratedSchema;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The CRD's schema is the one generated from the Spec and Status records the controller reads and writes: change
 * a record, and {@code mvn test -Dtest=${kind}SchemaTest -Dschema.update=true} writes the schema into
 * k8s/crd.yaml (read the diff before committing it).
 */
class ${kind}SchemaTest {
  @Test
  void theCrdsSchemaIsGeneratedFromTheRecords() {
    GeneratedSchema.assertCrdHolds(Path.of("k8s/crd.yaml"), "v1",
        ${kind}Controller.PARENT.openApiV3Schema());
  }
}
