package dev.metahooks.controllers.postgres;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testsupport.Project;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl delete --cascade=foreground} of a protected PostgresCluster on Metacontroller v4.17.2: the
 * finalize hook keeps the cluster Terminating, but Metacontroller does not manage children while the garbage
 * collector's finalizer is there, so the collector deletes every child; then Metacontroller creates what the
 * finalize hook still returns. Only what is not a child (the data volumes) is untouched throughout.
 */
class ForegroundDeletionScenarioTest {
  private static final String API = "metahooks.dev/v1alpha1";
  private Cluster cluster;
  private LocalHooks hooks;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    hooks = LocalHooks.start(PostgresClusterController.controller(FixedSources.INSTANCE));
    mc = PostgresScenarios.haSample(cluster, hooks);
  }

  @AfterEach
  void tearDown() {
    hooks.close();
  }

  @Test
  void foregroundDeletionRemovesEveryChildOfAProtectedClusterAndKeepsOnlyTheVolumes() {
    List<String> claims = uids("v1", "PersistentVolumeClaim");
    assertThat(claims).hasSize(3);
    long start = cluster.lastSequence();

    cluster.delete(API, "PostgresCluster", "default", "orders", Cluster.Propagation.FOREGROUND);
    mc.runUntilStable(60);

    ObjectNode parent = cluster.get(API, "PostgresCluster", "default", "orders");
    assertThat(parent.at("/metadata/finalizers"))
        .as("the protection holds the object")
        .isEqualTo(json("[\"metacontroller.io/compositecontroller-postgrescluster\"]"));
    for (String[] kind :
        List.of(
            new String[] {"v1", "Secret"},
            new String[] {"v1", "Service"},
            new String[] {"apps/v1", "StatefulSet"},
            new String[] {"v1", "Pod"},
            new String[] {"v1", "ServiceAccount"},
            new String[] {"policy/v1", "PodDisruptionBudget"},
            new String[] {"batch/v1", "Job"})) {
      assertThat(cluster.list(kind[0], kind[1]))
          .as("%s deleted although protected", kind[1])
          .isEmpty();
    }
    assertThat(cluster.writesAfter(start))
        .filteredOn(w -> w.object().equals("Secret default/orders-superuser"))
        .extracting(w -> w.actor() + " " + w.verb())
        .containsExactly("garbage-collector DELETE");
    assertThat(uids("v1", "PersistentVolumeClaim"))
        .as("the data volumes are not children")
        .isEqualTo(claims);
    assertThat(parent.at("/status/conditions").toString())
        .as("the status still says the deletion is blocked")
        .contains("{\"type\":\"DeletionBlocked\",\"status\":\"True\"");
  }

  private List<String> uids(String apiVersion, String kind) {
    return cluster.list(apiVersion, kind).stream()
        .map(o -> o.at("/metadata/uid").asText())
        .toList();
  }
}
