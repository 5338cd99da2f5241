package ${package};

import dev.metahooks.testing.GoldenFixtures;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Every src/test/resources/fixtures/${artifactId}/sync/<case>.request.json is answered with <case>.response.json, in
 * process, through the offline CLI and over HTTP; every child passes the Kubernetes schema check. New case: write
 * the request, run `mvn test -Dfixtures.update=true`, read the response it wrote, commit both.
 */
class ${kind}FixturesTest {
  @TestFactory
  Stream<DynamicNode> fixtures() {
    return GoldenFixtures.of(${kind}Controller.controller())
        .in(Path.of("src/test/resources/fixtures"))
        .crds(Path.of("k8s/crd.yaml"))
        .tests();
  }
}
