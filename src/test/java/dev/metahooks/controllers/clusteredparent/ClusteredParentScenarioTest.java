package dev.metahooks.controllers.clusteredparent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testing.kube.Yaml;
import dev.metahooks.testsupport.Project;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * clustered-parent end to end: the real manifest (a DecoratorController on ClusterRoles that carry the
 * annotation default-service-account-binding, attaching a namespaced RoleBinding to a cluster-scoped object)
 * and the example ClusterRole, under the emulated Metacontroller. Mirrors Metacontroller's
 * examples/clusteredparent/test.sh: binding created, recreated after deletion, collected with the ClusterRole.
 */
class ClusteredParentScenarioTest {
  private static final String RBAC = "rbac.authorization.k8s.io/v1";
  private static final String CONTROLLER = "cluster-parent";

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/clustered-parent.yaml");
    cluster.createFile("manifests/examples/clustered-parent.yaml");
  }

  @AfterEach
  void settlesWithValidAttachments() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  @Test
  void bindsTheClusterRoleToTheDefaultServiceAccount() {
    mc.runUntilStable(10);

    ObjectNode binding = binding("my-clusterrole");
    assertThat(binding.get("roleRef"))
        .isEqualTo(
            Yaml.object(
                "{kind: ClusterRole, name: my-clusterrole, apiGroup: rbac.authorization.k8s.io}"));
    assertThat(binding.get("subjects"))
        .containsExactly(Yaml.object("{kind: ServiceAccount, name: default, namespace: default}"));
    assertThat(binding.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo("ClusterRole");
    assertThat(binding.at("/metadata/ownerReferences/0/uid").asText())
        .isEqualTo(cluster.get(RBAC, "ClusterRole", "my-clusterrole").at("/metadata/uid").asText());
  }

  @Test
  void aDeletedBindingIsCreatedAgain() {
    mc.runUntilStable(10);
    String uidBefore = binding("my-clusterrole").at("/metadata/uid").asText();

    cluster.delete(RBAC, "RoleBinding", "default", "my-clusterrole");
    mc.runUntilStable(10);

    assertThat(binding("my-clusterrole").at("/metadata/uid").asText()).isNotEqualTo(uidBefore);
  }

  @Test
  void deletingTheClusterRoleCollectsTheBinding() {
    mc.runUntilStable(10);

    cluster.delete(RBAC, "ClusterRole", "my-clusterrole");
    mc.runUntilStable(10);

    assertThat(cluster.find(RBAC, "ClusterRole", "my-clusterrole")).isEmpty();
    assertThat(cluster.list(RBAC, "RoleBinding")).isEmpty();
  }

  @Test
  void aClusterRoleWithoutTheAnnotationGetsNoBinding() {
    cluster.create(
        "{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, metadata: {name: plain}, rules: []}");

    mc.runUntilStable(10);

    assertThat(cluster.list(RBAC, "RoleBinding"))
        .extracting(b -> b.at("/metadata/name").asText())
        .containsExactly("my-clusterrole");
  }

  @Test
  void leavesTheClusterRoleItselfAlone() {
    ObjectNode before = cluster.get(RBAC, "ClusterRole", "my-clusterrole");

    mc.runUntilStable(10);

    assertThat(cluster.get(RBAC, "ClusterRole", "my-clusterrole")).isEqualTo(before);
  }

  private ObjectNode binding(String name) {
    return cluster.get(RBAC, "RoleBinding", "default", name);
  }
}
