package dev.metahooks.controllers.globalconfigmap;

import dev.metahooks.testing.GeneratedSchema;
import dev.metahooks.testsupport.Resources;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The GlobalConfigMap CRD's schema (manifests/crds/globalconfigmaps.examples.metacontroller.io.yaml, after
 * Metacontroller's example) is the one generated from the records the controller reads its spec into and writes
 * its status from: the API server checks what the hook reads. {@code -Dschema.update=true} writes it.
 */
class GlobalConfigMapSchemaTest {
  private static final Path CRD =
      Resources.projectDir()
          .resolve("manifests/crds/globalconfigmaps.examples.metacontroller.io.yaml");

  @Test
  void theCrdsSchemaIsTheOneGeneratedFromTheRecords() {
    GeneratedSchema.assertCrdHolds(
        CRD, "v1alpha1", GlobalConfigMapController.PARENT.openApiV3Schema());
  }
}
