package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.TestKinds;
import java.util.List;
import org.junit.jupiter.api.Test;

/** StatefulSets that run Pods: ordinals, claims, scaling, rolling updates, status counted from the Pods. */
class StatefulSetPodsTest {
  /** Deleted Pods go at once here, so each step's Pods are exact; deletedPodsLinger… shows a real one. */
  private final Cluster cluster = TestKinds.cluster().profile(Profile.INTENDED);

  private final World world = World.standard().statefulSetPods(true);

  private void createSet(String extraSpec) {
    cluster.create(
        """
        {apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db},
         spec: {replicas: 3, serviceName: db-hl, selector: {matchLabels: {app: db}}, %s
                template: {metadata: {labels: {app: db, tier: data}}, spec: {containers: [{name: c, image: i:1}]}},
                volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce],
                  resources: {requests: {storage: 1Gi}}}}]}}
        """
            .formatted(extraSpec));
  }

  private List<String> podNames() {
    return cluster.list("v1", "Pod").stream().map(Meta::name).toList();
  }

  private List<String> claimNames() {
    return cluster.list("v1", "PersistentVolumeClaim").stream().map(Meta::name).toList();
  }

  private ObjectNode set() {
    return cluster.get("apps/v1", "StatefulSet", "default", "db");
  }

  private void steps(int count) {
    for (int i = 0; i < count; i++) {
      world.step(cluster);
    }
  }

  private void scale(int replicas) {
    cluster.update(
        "apps/v1",
        "StatefulSet",
        "default",
        "db",
        s -> s.withObject("/spec").put("replicas", replicas));
  }

  /**
   * The Priority admission plugin refuses a Pod naming a PriorityClass that does not exist: the set starts none
   * until the class is there, and counts none meanwhile.
   */
  @Test
  void aTemplateNamingAMissingPriorityClassStartsNoPodUntilTheClassExists() {
    cluster.create(
        """
        {apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db},
         spec: {replicas: 2, serviceName: db-hl, selector: {matchLabels: {app: db}},
                template: {metadata: {labels: {app: db}},
                           spec: {priorityClassName: database-critical, containers: [{name: c, image: i:1}]}}}}
        """);
    steps(4);
    assertThat(podNames()).isEmpty();
    assertThat(set().at("/status/replicas").asInt()).isZero();
    assertThat(
            org.assertj.core.api.Assertions.catchThrowableOfType(
                ApiException.class,
                () ->
                    cluster.create(
                        "{apiVersion: v1, kind: Pod, metadata: {name: db-0}, spec: {priorityClassName:"
                            + " database-critical, containers: [{name: c, image: i:1}]}}")))
        .hasMessage(
            "pods \"db-0\" is forbidden: no PriorityClass with name database-critical was found");

    cluster.create(
        "{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: database-critical},"
            + " value: 1000000}");
    steps(4);
    assertThat(podNames()).containsExactly("db-0", "db-1");
  }

  @Test
  void aSetCreatedAgainAfterAnOrphaningDeleteAdoptsThePodsAndReplacesNone() {
    createSet("");
    steps(8);
    List<String> uids = cluster.list("v1", "Pod").stream().map(Meta::uid).toList();
    assertThat(uids).hasSize(3);
    cluster.delete("apps/v1", "StatefulSet", "default", "db", Cluster.Propagation.ORPHAN);
    assertThat(cluster.list("v1", "Pod")).allMatch(pod -> Meta.controllerRef(pod) == null);
    // An orphan the selector does not match stays an orphan.
    cluster.create(
        "{apiVersion: v1, kind: Pod, metadata: {name: db-7, labels: {app: other}}, "
            + "spec: {containers: [{name: c, image: i:1}]}}");

    createSet("");
    steps(4);
    String setUid = Meta.uid(set());
    assertThat(
            cluster.list("v1", "Pod").stream()
                .filter(pod -> !Meta.name(pod).equals("db-7"))
                .map(Meta::uid))
        .containsExactlyElementsOf(uids);
    assertThat(cluster.list("v1", "Pod"))
        .allMatch(
            pod ->
                Meta.name(pod).equals("db-7")
                    ? Meta.controllerRef(pod) == null
                    : Meta.controllerRef(pod).path("uid").asText().equals(setUid));
    assertThat(set().at("/status/readyReplicas").asInt()).isEqualTo(3);
  }

  @Test
  void orderedReadyCreatesOnePodPerStepOnceTheLowerOnesAreReady() {
    createSet("");

    world.step(cluster);
    assertThat(podNames()).containsExactly("db-0");
    assertThat(set().at("/status/replicas").asInt()).isEqualTo(1);
    assertThat(set().at("/status/readyReplicas").isMissingNode()).isTrue();
    world.step(cluster);
    assertThat(podNames()).containsExactly("db-0", "db-1");
    steps(2);
    assertThat(podNames()).containsExactly("db-0", "db-1", "db-2");
    world.step(cluster);

    ObjectNode pod = cluster.get("v1", "Pod", "default", "db-1");
    assertThat(Meta.labels(pod))
        .containsEntry("app", "db")
        .containsEntry("tier", "data")
        .containsEntry(StatefulSetPods.POD_NAME_LABEL, "db-1")
        .containsEntry(StatefulSetPods.POD_INDEX_LABEL, "1")
        .containsKey(StatefulSetPods.REVISION_LABEL);
    assertThat(pod.at("/spec/hostname").asText()).isEqualTo("db-1");
    assertThat(pod.at("/spec/subdomain").asText()).isEqualTo("db-hl");
    assertThat(pod.at("/spec/volumes/0/persistentVolumeClaim/claimName").asText())
        .isEqualTo("data-db-1");
    assertThat(Meta.controllerRef(pod).path("uid").asText()).isEqualTo(Meta.uid(set()));
    assertThat(claimNames()).containsExactly("data-db-0", "data-db-1", "data-db-2");
    assertThat(
            cluster
                .get("v1", "PersistentVolumeClaim", "default", "data-db-2")
                .at("/status/phase")
                .asText())
        .isEqualTo("Bound");
    assertThat(Meta.labels(cluster.get("v1", "PersistentVolumeClaim", "default", "data-db-2")))
        .containsEntry("app", "db");
    ObjectNode status = set().path("status").deepCopy();
    assertThat(status.path("replicas").asInt()).isEqualTo(3);
    assertThat(status.path("readyReplicas").asInt()).isEqualTo(3);
    assertThat(status.path("currentReplicas").asInt()).isEqualTo(3);
    assertThat(status.path("updatedReplicas").asInt()).isEqualTo(3);
    assertThat(status.path("currentRevision").asText())
        .isEqualTo(status.path("updateRevision").asText());

    int writes = cluster.writes().size();
    world.step(cluster);
    assertThat(cluster.writes()).as("nothing moves once there").hasSize(writes);
    for (ObjectNode object : cluster.all()) {
      if (KubeSchema.knows(object)) {
        KubeSchema.assertValid(object);
      }
    }
  }

  @Test
  void scalingDownDeletesTheHighestPodsFirstAndKeepsTheirClaims() {
    createSet("");
    steps(4);

    scale(1);
    world.step(cluster);
    assertThat(podNames()).containsExactly("db-0", "db-1");
    world.step(cluster);
    assertThat(podNames()).containsExactly("db-0");
    assertThat(claimNames()).containsExactly("data-db-0", "data-db-1", "data-db-2");
    assertThat(set().at("/status/replicas").asInt()).isEqualTo(1);

    String claimUid = Meta.uid(cluster.get("v1", "PersistentVolumeClaim", "default", "data-db-2"));
    scale(3);
    steps(3);
    assertThat(podNames()).containsExactly("db-0", "db-1", "db-2");
    assertThat(Meta.uid(cluster.get("v1", "PersistentVolumeClaim", "default", "data-db-2")))
        .isEqualTo(claimUid);
  }

  @Test
  void whenScaledDeleteRemovesTheClaimsOfRemovedPodsAndWhenDeletedDeleteOwnsThem() {
    createSet("persistentVolumeClaimRetentionPolicy: {whenScaled: Delete, whenDeleted: Delete},");
    steps(4);

    scale(2);
    world.step(cluster);
    assertThat(podNames()).containsExactly("db-0", "db-1");
    assertThat(claimNames()).containsExactly("data-db-0", "data-db-1");

    cluster.delete("apps/v1", "StatefulSet", "default", "db");
    assertThat(podNames()).isEmpty();
    assertThat(claimNames()).isEmpty();
  }

  @Test
  void deletingTheSetKeepsClaimsUnderRetain() {
    createSet("");
    steps(4);
    cluster.delete("apps/v1", "StatefulSet", "default", "db");
    assertThat(podNames()).isEmpty();
    assertThat(claimNames()).containsExactly("data-db-0", "data-db-1", "data-db-2");
  }

  @Test
  void aTemplateChangeRollsThePodsHighestFirst() {
    createSet("");
    steps(4);
    String oldRevision = set().at("/status/currentRevision").asText();

    cluster.update(
        "apps/v1",
        "StatefulSet",
        "default",
        "db",
        s -> s.withObject("/spec/template/spec/containers/0").put("image", "i:2"));
    world.step(cluster);
    assertThat(podNames()).containsExactly("db-0", "db-1");
    assertThat(set().at("/status/currentRevision").asText()).isEqualTo(oldRevision);
    assertThat(set().at("/status/updateRevision").asText()).isNotEqualTo(oldRevision);
    world.step(cluster);
    assertThat(cluster.get("v1", "Pod", "default", "db-2").at("/spec/containers/0/image").asText())
        .isEqualTo("i:2");
    assertThat(set().at("/status/updatedReplicas").asInt()).isEqualTo(1);
    steps(5);
    assertThat(cluster.list("v1", "Pod"))
        .allSatisfy(
            pod -> assertThat(pod.at("/spec/containers/0/image").asText()).isEqualTo("i:2"));
    assertThat(set().at("/status/currentRevision").asText())
        .isEqualTo(set().at("/status/updateRevision").asText());
    assertThat(set().at("/status/updatedReplicas").asInt()).isEqualTo(3);
  }

  @Test
  void parallelCreatesEveryPodAtOnce() {
    createSet("podManagementPolicy: Parallel,");
    world.step(cluster);
    assertThat(podNames()).containsExactly("db-0", "db-1", "db-2");
    scale(0);
    world.step(cluster);
    assertThat(podNames()).isEmpty();
    assertThat(set().at("/status").toString())
        .contains("\"replicas\":0")
        .doesNotContain("readyReplicas");
  }

  @Test
  void deletedPodsLingerTerminatingForAStepOnARealApiServer() {
    cluster.profile(Profile.V4_17_2);
    createSet("");
    steps(4);

    scale(2);
    world.step(cluster);
    ObjectNode terminating = cluster.get("v1", "Pod", "default", "db-2");
    assertThat(terminating.at("/metadata/deletionTimestamp").asText()).isNotEmpty();
    assertThat(terminating.at("/metadata/deletionGracePeriodSeconds").asInt()).isEqualTo(30);
    world.step(cluster);
    assertThat(podNames())
        .as("seen Terminating by the kubelet")
        .containsExactly("db-0", "db-1", "db-2");
    world.step(cluster);
    assertThat(podNames()).containsExactly("db-0", "db-1");
  }
}
