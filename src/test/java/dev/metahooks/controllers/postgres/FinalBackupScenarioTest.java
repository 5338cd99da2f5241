package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.plan.FinalBackups;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testsupport.Project;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A deletion whose final backup fails, under the emulated Metacontroller: the cluster and its children stay, the
 * parent says why and what to do, deletion protection still wins, and only the escape hatch with the cluster's own
 * uid lets the deletion go on. The final backup Job fails as the Job controller marks it (a {@code Failed}
 * condition, reason {@code BackoffLimitExceeded}); every other Job of the world stays running.
 */
class FinalBackupScenarioTest {
  private static final String API = "metahooks.dev/v1alpha1";
  private static final String KIND = "PostgresCluster";
  private static final String NS = "default";
  private static final String FINAL_BACKUP = "orders-final-backup";

  private Cluster cluster;
  private LocalHooks hooks;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    hooks =
        LocalHooks.start(
            PostgresClusterController.controller(PostgresEmulation.fixedSecrets(cluster)));
    mc = PostgresEmulation.metacontroller(cluster, hooks, Duration.ofSeconds(10));
    PostgresEmulation.giveStoreSecret(cluster, NS, "s3-creds", "orders");
    cluster.create(
        """
        apiVersion: metahooks.dev/v1alpha1
        kind: PostgresCluster
        metadata: {name: orders, namespace: default}
        spec:
          instances: 2
          deletionProtection: true
          backup:
            s3:
              bucket: pg-backups
              endpoint: http://minio.storage.svc:9000
              credentials: {secretName: s3-creds}
            finalBackup: true
        """);
    mc.runUntilStable(60);
    assertThat(parent().at("/status/phase").asText()).isEqualTo("Ready");
    // From now on Jobs do not complete by themselves, and the final backup fails.
    mc.world()
        .workloadsReady(false)
        .add("final backup fails", FinalBackupScenarioTest::failFinalBackup);
  }

  @AfterEach
  void tearDown() {
    hooks.close();
  }

  /**
   * The Job controller gives up on the final backup: a Failed condition with reason BackoffLimitExceeded
   * (k8s.io/api batch/v1/types.go, JobReasonBackoffLimitExceeded), the pods it counted as failed.
   */
  private static void failFinalBackup(Cluster cluster) {
    Optional<ObjectNode> finalBackup = cluster.find("batch/v1", "Job", NS, FINAL_BACKUP);
    if (finalBackup.isEmpty() || JobConditions.failed(finalBackup.get())) {
      return;
    }
    String now = DateTimeFormatter.ISO_INSTANT.format(cluster.now());
    cluster.updateStatus(
        "batch/v1",
        "Job",
        NS,
        FINAL_BACKUP,
        job -> {
          ObjectNode status = job.putObject("status").put("failed", 3).put("startTime", now);
          status
              .putArray("conditions")
              .addObject()
              .put("type", "Failed")
              .put("status", "True")
              .put("reason", "BackoffLimitExceeded")
              .put("lastTransitionTime", now);
        });
  }

  @Test
  void aFailedFinalBackupKeepsTheClusterUntilTheEscapeHatchNamesItsUid() {
    String uid = parent().at("/metadata/uid").asText();
    cluster.delete(API, KIND, NS, "orders");
    mc.runUntilStable(60);
    // Deletion protection first: no final backup is even started.
    assertThat(condition(parent(), "DeletionBlocked")).isEqualTo("True DeletionProtection");
    assertThat(cluster.find("batch/v1", "Job", NS, FINAL_BACKUP)).isEmpty();

    editSpec(spec -> spec.put("deletionProtection", false));
    mc.runUntilStable(60);
    assertThat(condition(cluster.get("batch/v1", "Job", NS, FINAL_BACKUP), "Failed"))
        .isEqualTo("True BackoffLimitExceeded");
    assertThat(condition(parent(), "DeletionBlocked")).isEqualTo("True FinalBackupFailed");
    assertThat(condition(parent(), "BackupsHealthy")).isEqualTo("False BackupFailed");
    assertThat(message(parent(), "DeletionBlocked"))
        .contains(
            "failed",
            "the store shows no complete base backup",
            "the cluster and its volumes are kept",
            "delete the Job to try again",
            "annotate the cluster metahooks.dev/delete-without-final-backup=<its metadata.uid>");
    assertThat(cluster.exists("apps/v1", "StatefulSet", NS, "orders")).isTrue();

    // Another incarnation's uid does nothing.
    annotate("3c9d0a52-0000-4000-8000-000000000000");
    mc.runUntilStable(60);
    assertThat(condition(parent(), "DeletionBlocked")).isEqualTo("True FinalBackupFailed");
    assertThat(message(parent(), "DeletionBlocked"))
        .contains("is set, but not to this cluster's uid " + uid + ", so it does nothing");
    assertThat(cluster.exists("apps/v1", "StatefulSet", NS, "orders")).isTrue();

    // The cluster's own uid: deleted without the final backup.
    annotate(uid);
    mc.runUntilStable(60);
    assertThat(cluster.find(API, KIND, NS, "orders")).isEmpty();
    assertThat(cluster.find("apps/v1", "StatefulSet", NS, "orders")).isEmpty();
  }

  @Test
  void givingUpTheFinalBackupInTheSpecLetsTheDeletionGoOn() {
    editSpec(spec -> spec.put("deletionProtection", false));
    cluster.delete(API, KIND, NS, "orders");
    mc.runUntilStable(60);
    assertThat(condition(parent(), "DeletionBlocked")).isEqualTo("True FinalBackupFailed");

    editSpec(spec -> spec.withObjectProperty("backup").put("finalBackup", false));
    mc.runUntilStable(60);
    assertThat(cluster.find(API, KIND, NS, "orders")).isEmpty();
    assertThat(cluster.find("apps/v1", "StatefulSet", NS, "orders")).isEmpty();
  }

  private void editSpec(Consumer<ObjectNode> change) {
    cluster.update(API, KIND, NS, "orders", p -> change.accept(p.withObjectProperty("spec")));
  }

  private void annotate(String value) {
    cluster.update(
        API,
        KIND,
        NS,
        "orders",
        p ->
            p.withObjectProperty("metadata")
                .withObjectProperty("annotations")
                .put(FinalBackups.SKIP_ANNOTATION, value));
  }

  private ObjectNode parent() {
    return cluster.get(API, KIND, NS, "orders");
  }

  /** {@code <status> <reason>} of the condition {@code type}, or {@code absent}. */
  private static String condition(JsonNode object, String type) {
    JsonNode condition = conditionOf(object, type);
    return condition.isMissingNode()
        ? "absent"
        : condition.path("status").asText() + " " + condition.path("reason").asText();
  }

  private static String message(JsonNode object, String type) {
    return conditionOf(object, type).path("message").asText("absent");
  }

  private static JsonNode conditionOf(JsonNode object, String type) {
    for (JsonNode condition : object.path("status").path("conditions")) {
      if (type.equals(condition.path("type").asText())) {
        return condition;
      }
    }
    return MissingNode.getInstance();
  }
}
