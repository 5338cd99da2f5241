package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.TestKinds;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes' garbage collector deletes a namespaced dependent none of whose owners resolves in its namespace
 * (pkg/controller/garbagecollector/garbagecollector.go, attemptToDeleteItem): a child a namespaced parent puts
 * in another namespace is collected as soon as it is created, and created again on the next sync.
 */
class ClusterInvalidOwnerTest {
  private static LocalHooks hooks;

  /** A ConfigMap in namespace {@code elsewhere}, not the parent's. */
  static CompositeResponse elsewhere(CompositeRequest request) {
    ObjectNode child = TestKinds.configMap(request.name() + "-data", "key", "value");
    child.withObject("/metadata").put("namespace", "elsewhere");
    return CompositeResponse.of(Json.object(), List.of(child));
  }

  @BeforeAll
  static void startHooks() {
    hooks =
        LocalHooks.start(
            Controller.composite("elsewhere").sync(ClusterInvalidOwnerTest::elsewhere).build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  private static String ownedBy(ObjectNode owner) {
    return "ownerReferences: [{apiVersion: %s, kind: %s, name: %s, uid: %s, controller: true}]"
        .formatted(Meta.apiVersion(owner), Meta.kind(owner), Meta.name(owner), Meta.uid(owner));
  }

  @Test
  void aDependentWhoseOwnerIsNotInItsNamespaceIsCollectedAtOnce() {
    Cluster cluster = TestKinds.cluster();
    ObjectNode thing =
        cluster.create("{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}}");
    cluster.create(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: here, " + ownedBy(thing) + "}}");
    cluster.create(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: there, namespace: other, "
            + ownedBy(thing)
            + "}}");
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: ClusterThing, metadata: {name: c, "
            + ownedBy(thing)
            + "}}");

    assertThat(cluster.exists("v1", "ConfigMap", "default", "here")).isTrue();
    assertThat(cluster.exists("v1", "ConfigMap", "other", "there")).isFalse();
    assertThat(cluster.writes().get(cluster.writes().size() - 2).toString())
        .isEqualTo("garbage-collector DELETE ConfigMap other/there");
    assertThat(cluster.find(TestKinds.API_VERSION, "ClusterThing", "c"))
        .as("a cluster-scoped dependent of a namespaced owner: unresolvable, not collected")
        .isPresent();
  }

  @Test
  void aChildInAnotherNamespaceIsCreatedAndCollectedOnEverySync() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc =
        new Metacontroller(cluster, hooks.baseUrl())
            .loadYaml(TestKinds.composite("elsewhere", "configmaps", "OnDelete"));
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}, spec: {}}");

    assertThatThrownBy(() -> mc.runUntilStable(6))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("did not settle")
        .hasMessageContaining(
            "metacontroller/elsewhere-controller CREATE ConfigMap elsewhere/a-data")
        .hasMessageContaining("garbage-collector DELETE ConfigMap elsewhere/a-data");
  }
}
