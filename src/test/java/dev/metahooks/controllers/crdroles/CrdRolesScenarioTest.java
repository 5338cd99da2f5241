package dev.metahooks.controllers.crdroles;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testsupport.Project;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * crd-roles end to end: the real manifest (a DecoratorController on CustomResourceDefinitions that carry the
 * annotation enable-default-roles, attaching cluster-scoped ClusterRoles) and the example CRD, under the
 * emulated Metacontroller. Mirrors Metacontroller's examples/crd-roles/test.sh and goes on to CRDs that opt in
 * later, do not opt in, or are deleted.
 */
class CrdRolesScenarioTest {
  private static final String CRD_API = "apiextensions.k8s.io/v1";
  private static final String CRD = "CustomResourceDefinition";
  private static final String RBAC = "rbac.authorization.k8s.io/v1";
  private static final String CONTROLLER = "crd-role-controller";

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/crd-roles.yaml");
    cluster.createFile("manifests/examples/crd-roles.yaml");
  }

  @AfterEach
  void settlesWithValidAttachments() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  @Test
  void givesTheOptedInCrdAReaderRole() {
    mc.runUntilStable(10);

    ObjectNode role = cluster.get(RBAC, "ClusterRole", "my-tests.ctl.rlg.io-reader");
    // No rules, and no empty list the API server would not store (a real one shows the nil list as
    // null).
    assertThat(role.path("rules").isMissingNode() || role.get("rules").isNull())
        .as("rules: %s", role.get("rules"))
        .isTrue();
    assertThat(role.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo(CRD);
    assertThat(role.at("/metadata/ownerReferences/0/name").asText())
        .isEqualTo("my-tests.ctl.rlg.io");
    assertThat(
            role.at("/metadata/annotations/metacontroller.k8s.io~1decorator-controller").asText())
        .isEqualTo(CONTROLLER);
  }

  @Test
  void leavesTheCrdItselfAlone() {
    ObjectNode before = cluster.get(CRD_API, CRD, "my-tests.ctl.rlg.io");

    mc.runUntilStable(10);

    ObjectNode after = cluster.get(CRD_API, CRD, "my-tests.ctl.rlg.io");
    assertThat(after.get("metadata")).isEqualTo(before.get("metadata"));
    assertThat(after.get("spec")).isEqualTo(before.get("spec"));
  }

  @Test
  void aCrdWithoutTheAnnotationGetsNoRole() {
    cluster.create(crd("others", false));

    mc.runUntilStable(10);

    assertThat(roleNames()).containsExactly("my-tests.ctl.rlg.io-reader");
  }

  @Test
  void aCrdAnnotatedLaterGetsItsRole() {
    cluster.create(crd("others", false));
    mc.runUntilStable(10);

    cluster.update(
        CRD_API,
        CRD,
        "",
        "others.ctl.rlg.io",
        crd -> crd.withObject("/metadata/annotations").put("enable-default-roles", "yes"));
    mc.runUntilStable(10);

    assertThat(roleNames())
        .containsExactly("my-tests.ctl.rlg.io-reader", "others.ctl.rlg.io-reader");
  }

  @Test
  void deletingTheCrdCollectsItsRole() {
    cluster.create(crd("others", true));
    mc.runUntilStable(10);

    cluster.delete(CRD_API, CRD, "my-tests.ctl.rlg.io");
    mc.runUntilStable(10);

    assertThat(roleNames()).containsExactly("others.ctl.rlg.io-reader");
  }

  @Test
  void aDeletedRoleIsCreatedAgain() {
    mc.runUntilStable(10);
    String uidBefore =
        cluster.get(RBAC, "ClusterRole", "my-tests.ctl.rlg.io-reader").at("/metadata/uid").asText();

    cluster.delete(RBAC, "ClusterRole", "my-tests.ctl.rlg.io-reader");
    mc.runUntilStable(10);

    assertThat(
            cluster
                .get(RBAC, "ClusterRole", "my-tests.ctl.rlg.io-reader")
                .at("/metadata/uid")
                .asText())
        .isNotEqualTo(uidBefore);
  }

  /** A schemaless cluster-scoped CRD {@code <plural>.ctl.rlg.io}, with or without the opt-in annotation. */
  private static String crd(String plural, boolean optIn) {
    return """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata:
          name: %1$s.ctl.rlg.io
          annotations: %2$s
        spec:
          group: ctl.rlg.io
          scope: Cluster
          names: {plural: %1$s, singular: %1$s-item, kind: %1$sKind}
          versions:
          - name: v1
            served: true
            storage: true
            schema: {openAPIV3Schema: {x-kubernetes-preserve-unknown-fields: true}}
        """
        .formatted(plural, optIn ? "{enable-default-roles: \"yes\"}" : "{}");
  }

  private List<String> roleNames() {
    return cluster.list(RBAC, "ClusterRole").stream()
        .map(role -> role.at("/metadata/name").asText())
        .toList();
  }
}
