package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.api.Controller;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testing.GoldenFixtures;
import dev.metahooks.testing.kube.Crds;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.Resources;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden fixtures of every built-in controller, through the testing kit as a user's project runs its own
 * ({@link GoldenFixtures}): {@code fixtures/<controller>/<hook>/<case>.request.json} must be answered with
 * {@code <case>.response.json}, exactly, in-process, through the offline CLI and over HTTP, and every child must
 * pass the strict schema check. The same files are the README's {@code curl} examples.
 *
 * <p>To write the expected answer of a new fixture, run with {@code -Dfixtures.update=true}, then read the
 * file it wrote before committing it: an answer is only golden once a person has checked it.
 */
class GoldenFixturesTest {
  static final Path FIXTURES = Resources.path("fixtures");

  @TestFactory
  Stream<DynamicNode> fixtures() {
    // The project's CRDs, and the third-party ones its hooks may render (the Prometheus Operator's
    // PodMonitor).
    Crds crds =
        Crds.from(Manifests.CRDS, Resources.path("crds/podmonitors.monitoring.coreos.com.yaml"));
    return GoldenFixtures.of(Catalog.controllers(FixedSources.INSTANCE))
        .in(FIXTURES)
        .crds(crds)
        .tests();
  }

  /** Each controller documents itself with at least ten fixtures, for each hook it serves but customize. */
  @Test
  void everyControllerHasTenFixtures() {
    for (Controller controller : Catalog.controllers()) {
      long count = Resources.find(FIXTURES.resolve(controller.name()), ".request.json").size();
      assertThat(count).as("fixtures of %s", controller.name()).isGreaterThanOrEqualTo(10);
    }
  }
}
