package dev.metahooks.controllers.podnamelabel;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** {@link PodNameLabelScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
@Execution(ExecutionMode.CONCURRENT)
class PodNameLabelKubeIT extends PodNameLabelScenarioTest {
  @Override
  @Test
  @Disabled(
      "in memory only: the API server adds the node's topology.kubernetes.io/zone label to a bound Pod")
  void labelsTheAnnotatedPodWithItsOwnNameAndNothingElse() {}
}
