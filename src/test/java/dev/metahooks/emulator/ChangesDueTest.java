package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.kube.Yaml;
import org.junit.jupiter.api.Test;

/** What Kubernetes still has to do by itself: a scenario on a real API server has not settled while one is left. */
class ChangesDueTest {
  private static ObjectNode object(String yaml) {
    return Yaml.objects(yaml).get(0);
  }

  @Test
  void aJobWithNoPodRunningAndNotFinishedIsDue() {
    assertThat(ChangesDue.any(object("{apiVersion: batch/v1, kind: Job, metadata: {name: j}}")))
        .as("new: the controller starts a Pod")
        .isTrue();
    assertThat(
            ChangesDue.any(
                object(
                    "{apiVersion: batch/v1, kind: Job, metadata: {name: j}, status: {failed: 1}}")))
        .as("after a failure: the next Pod, after the back-off")
        .isTrue();
    assertThat(
            ChangesDue.any(
                object(
                    "{apiVersion: batch/v1, kind: Job, metadata: {name: j}, status: {active: 1}}")))
        .as("a Pod runs: its end is someone else's doing")
        .isFalse();
    assertThat(
            ChangesDue.any(
                object(
                    "{apiVersion: batch/v1, kind: Job, metadata: {name: j}, status: {succeeded: 1,"
                        + " conditions: [{type: Complete, status: 'True'}]}}")))
        .isFalse();
    assertThat(
            ChangesDue.any(
                object(
                    "{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {suspend: true}}")))
        .isFalse();
  }

  @Test
  void aJobsEndedPodIsDueUntilTheJobControllerHasCountedIt() {
    String pod = "{apiVersion: v1, kind: Pod, metadata: {name: p%s}, status: {phase: Failed}}";
    assertThat(
            ChangesDue.any(
                object(String.format(pod, ", finalizers: [batch.kubernetes.io/job-tracking]"))))
        .isTrue();
    assertThat(ChangesDue.any(object(String.format(pod, "")))).isFalse();
  }

  @Test
  void aPendingPodIsDueUnlessTheSchedulerRefusedItForGood() {
    assertThat(ChangesDue.any(object("{apiVersion: v1, kind: Pod, metadata: {name: p}}"))).isTrue();
    assertThat(
            ChangesDue.any(
                object(
                    "{apiVersion: v1, kind: Pod, metadata: {name: p}, status: {phase: Pending,"
                        + " conditions: [{type: PodScheduled, status: 'False', reason: Unschedulable,"
                        + " message: '0/1 nodes are available: pod has unbound immediate"
                        + " PersistentVolumeClaims.'}]}}")))
        .as("waits for its claims only")
        .isTrue();
    assertThat(
            ChangesDue.any(
                object(
                    "{apiVersion: v1, kind: Pod, metadata: {name: p}, status: {phase: Pending,"
                        + " conditions: [{type: PodScheduled, status: 'False', reason: Unschedulable,"
                        + " message: '0/1 nodes are available: 1 node(s) didn''t match Pod''s node"
                        + " affinity.'}]}}")))
        .isFalse();
    assertThat(
            ChangesDue.any(
                object(
                    "{apiVersion: v1, kind: Pod, metadata: {name: p, deletionTimestamp:"
                        + " '2026-01-01T00:00:00Z'}, status: {phase: Pending}}")))
        .as("being deleted: Cluster waits for that itself")
        .isFalse();
    assertThat(
            ChangesDue.any(
                object(
                    "{apiVersion: v1, kind: Pod, metadata: {name: p}, status: {phase: Running}}")))
        .as("Running and not Ready: a scenario's choice, unless KWOK holds it back")
        .isFalse();
  }

  @Test
  void aWorkloadIsDueUntilItsStatusCatchesUpWithItsSpec() {
    String caughtUp =
        "{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: s, generation: 2}, spec:"
            + " {replicas: 3%s}, status: {observedGeneration: 2, replicas: 3, readyReplicas: %d,"
            + " currentRevision: s-1, updateRevision: s-%d}}";
    assertThat(ChangesDue.any(object(String.format(caughtUp, "", 3, 1)))).isFalse();
    assertThat(ChangesDue.any(object(String.format(caughtUp, "", 2, 1))))
        .as("a Pod not ready yet")
        .isTrue();
    assertThat(ChangesDue.any(object(String.format(caughtUp, "", 3, 2))))
        .as("RollingUpdate: Pods left on the old revision")
        .isTrue();
    assertThat(
            ChangesDue.any(
                object(String.format(caughtUp, ", updateStrategy: {type: OnDelete}", 3, 2))))
        .as("OnDelete: the old Pods wait for someone to delete them")
        .isFalse();
    assertThat(
            ChangesDue.any(
                object(
                    "{apiVersion: apps/v1, kind: Deployment, metadata: {name: d, generation: 3}, spec:"
                        + " {replicas: 1}, status: {observedGeneration: 2, replicas: 1,"
                        + " readyReplicas: 1, updatedReplicas: 1}}")))
        .as("a generation the controller has not seen")
        .isTrue();
  }
}
