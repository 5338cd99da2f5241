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
      "in memory only: the CRD's CEL rule refuses the label before any hook sees it (the hook's "
          + "check is the second line)")
  void aPodLabelTheOperatorSelectsByIsRefusedAndMovesNothing() {}

  @Override
  @Test
  @Disabled(
      "in memory only: the CRD's CEL rule refuses storage.wal added to a cluster that exists before "
          + "any hook sees it (the hook's check is the second line)")
  void aWalVolumeAddedToAClusterThatExistsIsRefusedAndMovesNothing() {}

  @Override
  @Test
  @Disabled(
      "in memory only: KWOK reports each pod Ready at once (no readiness probe delay), so the "
          + "StatefulSet controller replaces all three pods within one world step; the Patroni "
          + "simulation, acting between steps, never sees the leader gone while a replica runs, and "
          + "bootstraps orders-0 again instead of failing over")
  void underTheRestartMethodAParameterChangeRollsThePodsAndTheStatusFollowsTheFailover() {}
}
