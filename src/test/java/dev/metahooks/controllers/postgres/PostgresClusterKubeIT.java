package dev.metahooks.controllers.postgres;

import dev.metahooks.testing.OnKubeApiServer;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link PostgresClusterScenarioTest}'s scenarios with a real API server, its controllers and KWOK's nodes as the
 * store; Patroni is the same simulation, writing to the server.
 */
@ExtendWith(OnKubeApiServer.class)
class PostgresClusterKubeIT extends PostgresClusterScenarioTest {
  @Override
  @Test
  @Disabled(
      "in memory only: the server refuses the simulated Failed status of a "
          + "switchover Job (Failed=True needs FailureTarget=True and a startTime)")
  void aSwitchoverJobThatFailsStopsTheRolloutBeforeThePrimaryUntilItIsDeleted() {}

  @Override
  @Test
  @Disabled(
      "in memory only: the CRD's CEL rule refuses the shrinking storage.size before any hook sees it")
  void aChangeTheClusterCannotTakeFreezesEveryChildUntilReverted() {}

  @Override
  @Test
  @Disabled(
      "in memory only: the disruption controller writes the PodDisruptionBudget's status as pods come and go")
  void underTheRestartMethodAParameterChangeRollsThePodsAndTheStatusFollowsTheFailover() {}

  @Override
  @Test
  @Disabled(
      "in memory only: the CRD's CEL rule refuses the label before any hook sees it (the hook's "
          + "check is the second line)")
  void aPodLabelTheOperatorSelectsByIsRefusedAndMovesNothing() {}

  @Override
  @Test
  @Disabled(
      "in memory only: the CRD's CEL rule refuses storage.wal added to a cluster that exists before "
          + "any hook sees it (the hook's check is the second line)")
  void aWalVolumeAddedToAClusterThatExistsIsRefusedAndMovesNothing() {}
}
