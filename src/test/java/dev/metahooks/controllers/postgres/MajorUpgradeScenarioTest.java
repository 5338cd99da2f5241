package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.children.jobs.UpgradeJobs;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.Project;
import java.io.IOException;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Major upgrades in place under the emulated Metacontroller, from the docs' example at PostgreSQL 16: the hook's
 * decisions (the backup first, the window, the Job, the version the StatefulSet renders). The upgrade Job's effect
 * is its exit code only (MajorUpgradeScriptIT runs its script); the world completes Jobs, or holds the backup Job,
 * or fails the upgrade Job as the Job controller does under its podFailurePolicy.
 */
class MajorUpgradeScenarioTest {
  private static final String NS = "default";
  private static final String NAME = "orders";
  private static final String BACKUP_JOB = "orders-upgrade-backup-17";
  private static final String UPGRADE_JOB = "orders-upgrade-17";

  private Cluster cluster;
  private PostgresParent orders;
  private LocalHooks hooks;
  private Metacontroller mc;
  private boolean holdBackup;
  private int upgradeExitCode;
  private final List<String> upgradeJobsSeen = new ArrayList<>();
  private final Set<String> seenUids = new HashSet<>();

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    orders = new PostgresParent(cluster, NS, NAME);
    hooks =
        LocalHooks.start(
            PostgresClusterController.controller(PostgresEmulation.fixedSecrets(cluster)));
    mc = PostgresEmulation.metacontroller(cluster, hooks, Duration.ofSeconds(10));
    mc.world().add("jobs", this::runJobs);
    PostgresEmulation.giveStoreSecret(cluster, NS, "s3-creds", NAME);
  }

  @AfterEach
  void tearDown() {
    hooks.close();
  }

  /** The docs' example of a cluster asked to run PostgreSQL 17. */
  static ObjectNode docsExample() throws IOException {
    ObjectNode example =
        (ObjectNode)
            new YAMLMapper()
                .readTree(
                    MarkdownBlocks.first(
                        "docs/postgrescluster/upgrades.md", "Major upgrades", "yaml"));
    assertThat(example.at("/spec/postgresVersion").asInt()).isEqualTo(17);
    return example;
  }

  /** The example at 16, running; its windows replaced by {@code window} ({@code null}: none). */
  private void runningAt16(ObjectNode window) throws IOException {
    ObjectNode example = docsExample();
    ObjectNode spec = example.withObjectProperty("spec").put("postgresVersion", 16);
    if (window == null) {
      spec.withObjectProperty("updates").remove("maintenanceWindows");
    } else {
      spec.withObjectProperty("updates").putArray("maintenanceWindows").add(window);
    }
    cluster.create(example);
    mc.runUntilStable(60);
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    assertThat(orders.get().at("/status/postgresVersion").asInt()).isEqualTo(16);
  }

  @Test
  void anUpgradeWaitsForItsVerifiedBackupThenRunsAndTheStatefulSetMovesToTheNewVersion()
      throws IOException {
    runningAt16(null);
    holdBackup = true;
    orders.edit(spec -> spec.put("postgresVersion", 17));
    // The world's Job controller would complete the backup Job at once; held, it runs (rounds, not
    // settling).
    for (int i = 0; i < 10; i++) {
      mc.round();
    }
    JsonNode upgrade = orders.get().at("/status/majorUpgrade");
    assertThat(upgrade.path("phase").asText()).isEqualTo("WaitingForBackup");
    assertThat(upgrade.path("from").asInt()).isEqualTo(16);
    assertThat(upgrade.path("backupJob").asText()).isEqualTo(BACKUP_JOB);
    assertThat(cluster.exists("batch/v1", "Job", NS, BACKUP_JOB)).isTrue();
    assertThat(cluster.exists("batch/v1", "Job", NS, UPGRADE_JOB))
        .as("no upgrade before the backup")
        .isFalse();
    assertThat(pgVersion()).isEqualTo("16");
    assertThat(orders.condition("MajorUpgrade").path("status").asText()).isEqualTo("False");
    assertThat(orders.condition("SpecValid").path("status").asText()).isEqualTo("True");

    holdBackup = false;
    mc.runUntilStable(60);
    assertThat(upgradeJobsSeen).containsExactly(UPGRADE_JOB);
    ObjectNode job = cluster.get("batch/v1", "Job", NS, UPGRADE_JOB);
    KubeSchema.assertValid(job);
    assertThat(job.at("/spec/template/spec/containers/0/command/4").asText())
        .isEqualTo("pod/orders-0");
    upgrade = orders.get().at("/status/majorUpgrade");
    assertThat(upgrade.path("phase").asText()).isEqualTo("Succeeded");
    assertThat(upgrade.path("job").asText()).isEqualTo(UPGRADE_JOB);
    assertThat(orders.condition("MajorUpgrade").path("status").asText()).isEqualTo("True");
    assertThat(pgVersion()).isEqualTo("17");
    assertThat(orders.get().at("/status/postgresVersion").asInt()).isEqualTo(17);
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    assertThat(cluster.exists("rbac.authorization.k8s.io/v1", "Role", NS, "orders-upgrade"))
        .as("the exec right goes with the finished Job")
        .isFalse();
    PostgresEmulation.assertQuiet(mc, orders::get);
  }

  @Test
  void outsideItsWindowTheUpgradeWaitsAndRunsWhenTheWindowOpens() throws IOException {
    LocalTime now = LocalTime.ofInstant(cluster.now(), ZoneOffset.UTC);
    LocalTime opens = now.plusHours(2).withSecond(0).withNano(0);
    ObjectNode window =
        Json.object().put("start", opens.toString()).put("end", opens.plusHours(1).toString());
    runningAt16(window);
    orders.edit(spec -> spec.put("postgresVersion", 17));
    mc.runUntilStable(60);
    JsonNode upgrade = orders.get().at("/status/majorUpgrade");
    assertThat(upgrade.path("phase").asText()).isEqualTo("WaitingForWindow");
    assertThat(upgrade.path("waitingUntil").asText()).endsWith(opens + ":00Z");
    assertThat(cluster.exists("batch/v1", "Job", NS, BACKUP_JOB))
        .as("the backup is taken before the wait")
        .isTrue();
    assertThat(upgradeJobsSeen).isEmpty();
    assertThat(pgVersion()).isEqualTo("16");

    cluster.advance(Duration.ofHours(2));
    mc.runUntilStable(60);
    assertThat(upgradeJobsSeen).containsExactly(UPGRADE_JOB);
    assertThat(orders.get().at("/status/majorUpgrade/phase").asText()).isEqualTo("Succeeded");
    assertThat(pgVersion()).isEqualTo("17");
  }

  @Test
  void aFailedUpgradeLeavesTheOldVersionRunningWithTheReasonAndIsNotRetriedUntilItsJobIsDeleted()
      throws IOException {
    runningAt16(null);
    upgradeExitCode = 10;
    orders.edit(spec -> spec.put("postgresVersion", 17));
    mc.runUntilStable(60);
    JsonNode upgrade = orders.get().at("/status/majorUpgrade");
    assertThat(upgrade.path("phase").asText()).isEqualTo("Failed");
    assertThat(upgrade.path("message").asText())
        .isEqualTo(
            "Spilo's upgrade refused or rolled back; the cluster stays "
                + "on PostgreSQL 16. Read the log of Job orders-upgrade-17's pod, then delete the Job to try again");
    JsonNode condition = orders.condition("MajorUpgrade");
    assertThat(condition.path("status").asText()).isEqualTo("False");
    assertThat(condition.path("reason").asText()).isEqualTo("Failed");
    assertThat(pgVersion()).isEqualTo("16");
    assertThat(orders.get().at("/status/postgresVersion").asInt()).isEqualTo(16);
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    for (int i = 0; i < 5; i++) {
      mc.round();
    }
    assertThat(upgradeJobsSeen).as("never retried by itself").hasSize(1);

    upgradeExitCode = 0;
    cluster.delete("batch/v1", "Job", NS, UPGRADE_JOB);
    mc.runUntilStable(60);
    assertThat(upgradeJobsSeen).hasSize(2);
    assertThat(orders.get().at("/status/majorUpgrade/phase").asText()).isEqualTo("Succeeded");
    assertThat(pgVersion()).isEqualTo("17");
  }

  @Test
  void aDecreaseIsRefusedAndMovesNothing() throws IOException {
    runningAt16(null);
    // The CRD's transition rule refuses it first; an object older than the rule (or CEL off)
    // reaches the hook.
    cluster.update(
        "metahooks.dev/v1alpha1",
        "PostgresCluster",
        NS,
        NAME,
        parent -> parent.withObjectProperty("spec").put("postgresVersion", 15));
    mc.runUntilStable(60);
    JsonNode specValid = orders.condition("SpecValid");
    assertThat(specValid.path("status").asText()).isEqualTo("False");
    assertThat(specValid.path("message").asText())
        .isEqualTo(
            "spec.postgresVersion: cannot decrease from 16 to 15: an "
                + "upgrade in place only goes up (restore a backup into a new cluster of the older version instead)");
    assertThat(pgVersion()).isEqualTo("16");
    assertThat(orders.get().at("/status").has("majorUpgrade")).isFalse();
    assertThat(upgradeJobsSeen).isEmpty();
  }

  // ---- the Jobs, as the Job controller finishes them

  private void runJobs(Cluster c) {
    for (ObjectNode job : c.list("batch/v1", "Job", NS)) {
      String name = job.at("/metadata/name").asText();
      if (name.equals(BACKUP_JOB) && holdBackup) {
        job.set("status", Json.object().put("active", 1));
        c.updateStatus(job);
      }
      boolean upgradeJob =
          UpgradeJobs.COMPONENT.equals(job.at("/metadata/labels").path(Labels.COMPONENT).asText());
      String uid = job.at("/metadata/uid").asText();
      if (upgradeJob && seenUids.add(uid)) {
        upgradeJobsSeen.add(name);
        if (upgradeExitCode != 0) {
          ObjectNode status = Json.object().put("failed", 1);
          status
              .putArray("conditions")
              .addObject()
              .put("type", "Failed")
              .put("status", "True")
              .put("reason", "PodFailurePolicy")
              .put(
                  "message",
                  "Container upgrade for pod default/"
                      + name
                      + "-x7k2q failed with exit code "
                      + upgradeExitCode
                      + " matching FailJob rule at index 0");
          job.set("status", status);
          c.updateStatus(job);
        }
      }
    }
  }

  private String pgVersion() {
    ObjectNode set = cluster.get("apps/v1", "StatefulSet", NS, NAME);
    for (JsonNode env : set.at("/spec/template/spec/containers/0/env")) {
      if (env.path("name").asText().equals("PGVERSION")) {
        return env.path("value").asText();
      }
    }
    throw new AssertionError("no PGVERSION");
  }
}
