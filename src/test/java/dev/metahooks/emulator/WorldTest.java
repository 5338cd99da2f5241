package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testsupport.TestKinds;
import org.junit.jupiter.api.Test;

/** The simulated kubelet and workload controllers. */
class WorldTest {
  private final Cluster cluster = TestKinds.cluster();

  private ObjectNode pod(String name) {
    return cluster.get("v1", "Pod", "default", name);
  }

  @Test
  void podsBecomeReadyOnTheNextStepAndStayThere() {
    cluster.create(
        "{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: i}]}}");
    World world = World.standard();

    world.step(cluster);
    ObjectNode pod = pod("p");
    assertThat(pod.at("/status/phase").asText()).isEqualTo("Running");
    assertThat(pod.at("/status/conditions").toString())
        .contains("{\"type\":\"Ready\",\"status\":\"True\"}");
    assertThat(pod.at("/status/containerStatuses/0/ready").asBoolean()).isTrue();

    int writes = cluster.writes().size();
    cluster.advance(java.time.Duration.ofMinutes(1));
    world.step(cluster);
    assertThat(cluster.writes()).as("no churn once there").hasSize(writes);
  }

  @Test
  void aPolicyDecidesPerPodAndFinishedPodsStayFinished() {
    cluster.create(
        "{apiVersion: v1, kind: Pod, metadata: {name: ok}, spec: {containers: [{name: c, image: i}]}}");
    cluster.create(
        "{apiVersion: v1, kind: Pod, metadata: {name: bad}, spec: {containers: [{name: c, image: i}]}}");
    World world =
        World.standard()
            .pods(
                PodPolicy.pendingFor(
                    1,
                    pod ->
                        PodPolicy.name(pod).equals("bad") ? PodState.FAILED : PodState.SUCCEEDED));

    world.step(cluster);
    assertThat(pod("ok").at("/status/phase").asText()).isEqualTo("Pending");
    world.step(cluster);
    assertThat(pod("ok").at("/status/phase").asText()).isEqualTo("Succeeded");
    assertThat(pod("ok").at("/status/containerStatuses/0/state/terminated/exitCode").asInt())
        .isZero();
    assertThat(pod("bad").at("/status/phase").asText()).isEqualTo("Failed");

    world.pods(PodPolicy.ready()).step(cluster);
    assertThat(pod("ok").at("/status/phase").asText()).isEqualTo("Succeeded");
  }

  @Test
  void workloadStatusFollowsTheSpec() {
    String selected = "selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}}";
    cluster.create(
        "{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: s}, spec: {replicas: 3, "
            + selected
            + "}}");
    cluster.create(
        "{apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: r}, spec: {replicas: 0, "
            + selected
            + "}}");
    cluster.create(
        "{apiVersion: apps/v1, kind: DaemonSet, metadata: {name: d}, spec: {" + selected + "}}");
    cluster.create(
        "{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {completions: 2}}");

    World.standard().nodes(2).step(cluster);

    ObjectNode statefulSet = cluster.get("apps/v1", "StatefulSet", "default", "s");
    assertThat(statefulSet.at("/status/readyReplicas").asInt()).isEqualTo(3);
    assertThat(statefulSet.at("/status/observedGeneration").asLong()).isEqualTo(1);
    assertThat(cluster.get("apps/v1", "ReplicaSet", "default", "r").at("/status").toString())
        .isEqualTo("{\"observedGeneration\":1,\"replicas\":0}");
    ObjectNode daemonSet = cluster.get("apps/v1", "DaemonSet", "default", "d");
    assertThat(daemonSet.at("/status/desiredNumberScheduled").asInt()).isEqualTo(2);
    assertThat(daemonSet.at("/status/numberReady").asInt()).isEqualTo(2);
    assertThat(cluster.get("batch/v1", "Job", "default", "j").at("/status/succeeded").asInt())
        .isEqualTo(2);

    World.standard().workloadsReady(false).step(cluster);
    assertThat(
            cluster.get("apps/v1", "DaemonSet", "default", "d").at("/status/numberReady").asInt())
        .isZero();
  }

  @Test
  void customSimulationsRunUnderTheirName() {
    World world =
        World.none()
            .add(
                "operator",
                c -> c.create("{apiVersion: v1, kind: Namespace, metadata: {name: n}}"));
    world.step(cluster);
    assertThat(cluster.writes())
        .singleElement()
        .extracting(Write::actor)
        .isEqualTo("world/operator");
  }
}
