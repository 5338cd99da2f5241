package dev.metahooks.controllers.daemonjob;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** {@link DaemonJobScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the store. */
@ExtendWith(OnKubeApiServer.class)
@Execution(ExecutionMode.CONCURRENT)
class DaemonJobKubeIT extends DaemonJobScenarioTest {
  @Override
  @Test
  @Disabled(
      "in memory only: it counts one node; the control plane has four, so the DaemonSet schedules four Pods")
  void completesOnceEveryNodeIsReadyThenDeletesTheDaemonSet() {}
}
