package dev.metahooks.controllers.postgres;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.Write;
import dev.metahooks.testsupport.Project;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Backups under the emulated Metacontroller with the real manifest (the CronJob child type, the related
 * PostgresClusters): Jobs complete as the emulator's world completes them, Patroni labels the leader.
 */
class BackupEmulatorScenarioTest {
  private static final String API = "metahooks.dev/v1alpha1";
  private static final String KIND = "PostgresCluster";
  private static final String NS = "default";

  private Cluster cluster;
  private LocalHooks hooks;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    Sources sources = PostgresEmulation.fixedSecrets(cluster);
    hooks = LocalHooks.start(PostgresClusterController.controller(sources));
    mc = PostgresEmulation.metacontroller(cluster, hooks, Duration.ofSeconds(10));
    PostgresEmulation.giveStoreSecret(cluster, NS, "s3-creds", "orders", "orders-copy");
  }

  @AfterEach
  void tearDown() {
    hooks.close();
  }

  private static final String STORE =
      """
        s3:
          bucket: pg-backups
          endpoint: http://minio.storage.svc:9000
          credentials: {secretName: s3-creds}
      """;

  @Test
  void backupsAppearAndReportThenADeletionWaitsForTheFinalBackupAndFinishes() {
    cluster.create(
        """
        apiVersion: metahooks.dev/v1alpha1
        kind: PostgresCluster
        metadata: {name: orders, namespace: default}
        spec:
          instances: 2
          backup:
        """
            + STORE.indent(2)
            + """
            logical: {schedule: "30 2 * * *"}
            onDemand: [{name: before-upgrade}]
            finalBackup: true
        """);
    mc.runUntilStable(60);
    ObjectNode parent = cluster.get(API, KIND, NS, "orders");
    assertThat(cluster.exists("batch/v1", "CronJob", NS, "orders-logical")).isTrue();
    assertThat(cluster.exists("batch/v1", "Job", NS, "orders.backup-before-upgrade")).isTrue();
    assertThat(parent.at("/status/phase").asText()).isEqualTo("Ready");
    String uid = parent.at("/metadata/uid").asText();
    assertThat(uid).isNotEmpty();
    assertThat(parent.at("/status/backup/location").asText())
        .isEqualTo("s3://pg-backups/default/orders/" + uid);
    assertThat(parent.at("/status/backup/onDemand/0/phase").asText()).isEqualTo("Succeeded");
    assertThat(parent.at("/status/backup/lastSuccessful/name").asText())
        .isEqualTo("orders.backup-before-upgrade");
    assertThat(condition(parent, "BackupsHealthy")).isEqualTo("Unknown NotChecked");
    assertThat(cluster.get("v1", "ConfigMap", NS, "orders-backup-health").has("data")).isFalse();

    // The store check writes its report into the ConfigMap (its PATCH): the change of a child
    // starts a sync, the
    // hook reads the report, and Metacontroller's merge keeps the data that the hook's answer never
    // carries.
    ObjectNode report = StoreCheckReports.healthy(cluster.now());
    cluster.update(
        "v1",
        "ConfigMap",
        NS,
        "orders-backup-health",
        configMap -> configMap.set("data", report.deepCopy()));
    mc.runUntilStable(60);
    parent = cluster.get(API, KIND, NS, "orders");
    assertThat(condition(parent, "BackupsHealthy")).isEqualTo("True BackupsVerified");
    assertThat(condition(parent, "ContinuousArchiving")).isEqualTo("True Archiving");
    assertThat(parent.at("/status/backup/physical/lastBackup/name").asText())
        .isEqualTo("base_000000010000000000000028");
    assertThat(cluster.get("v1", "ConfigMap", NS, "orders-backup-health").get("data"))
        .isEqualTo(report);

    // A report that is not one: Unknown, with the reason, and the hook goes on answering.
    cluster.update(
        "v1",
        "ConfigMap",
        NS,
        "orders-backup-health",
        configMap -> ((ObjectNode) configMap.get("data")).put("checkedAt", "soon"));
    mc.runUntilStable(60);
    parent = cluster.get(API, KIND, NS, "orders");
    assertThat(condition(parent, "BackupsHealthy")).isEqualTo("Unknown ReportUnreadable");
    assertThat(parent.at("/status/phase").asText()).isEqualTo("Ready");

    // A second cluster cloned from the first's backups bootstraps with Spilo's clone variables,
    // from the archive
    // its status names.
    cluster.create(
        """
        apiVersion: metahooks.dev/v1alpha1
        kind: PostgresCluster
        metadata: {name: orders-copy, namespace: default}
        spec:
          bootstrap:
            clone:
              cluster: orders
              timestamp: "2026-12-01T10:00:00Z"
              s3:
                bucket: pg-backups
                endpoint: http://minio.storage.svc:9000
                credentials: {secretName: s3-creds}
                prefix: default/orders/%s
          backup:
        """
                .formatted(uid)
            + STORE.indent(2));
    mc.runUntilStable(60);
    ObjectNode copy = cluster.get(API, KIND, NS, "orders-copy");
    assertThat(copy.at("/status/phase").asText()).isEqualTo("Ready");
    assertThat(
            cluster
                .get("apps/v1", "StatefulSet", NS, "orders-copy")
                .at("/spec/template/spec/containers/0/env")
                .toString())
        .contains(
            "\"CLONE_WALE_S3_PREFIX\"",
            "s3://pg-backups/default/orders/" + uid + "\"",
            "\"CLONE_TARGET_TIME\"");

    long mark = cluster.lastSequence();
    cluster.delete(API, KIND, NS, "orders");
    mc.runUntilStable(60);
    assertThat(cluster.find(API, KIND, NS, "orders"))
        .as("deleted once the final backup completed")
        .isEmpty();
    assertThat(cluster.writesAfter(mark))
        .filteredOn(w -> w.object().equals("Job " + NS + "/orders-final-backup"))
        .extracting(Write::verb)
        .first()
        .isEqualTo(Write.Verb.CREATE);
    // The final backup Job was created while the StatefulSet still ran, before anything was
    // deleted.
    long created =
        cluster.writesAfter(mark).stream()
            .filter(w -> w.object().equals("Job " + NS + "/orders-final-backup"))
            .findFirst()
            .orElseThrow()
            .sequence();
    assertThat(cluster.writesAfter(mark))
        .filteredOn(w -> w.verb() == Write.Verb.DELETE && w.sequence() < created)
        .isEmpty();
    assertThat(cluster.find(API, KIND, NS, "orders-copy")).isPresent();
  }

  @Test
  void aStoreSecretNotGivenToTheClusterHoldsItInvalidUntilItsOwnerLabelsIt() {
    // s3-creds is given to orders and orders-copy only; ledger names it too.
    cluster.create(
        """
        apiVersion: metahooks.dev/v1alpha1
        kind: PostgresCluster
        metadata: {name: ledger, namespace: default}
        spec:
          backup:
        """
            + STORE.indent(2));
    mc.runUntilStable(60);
    ObjectNode refused = cluster.get(API, KIND, NS, "ledger");
    assertThat(refused.at("/status/phase").asText()).isEqualTo("Invalid");
    assertThat(refused.at("/status/conditions").toString())
        .contains(
            "Secret s3-creds (keys AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) is missing or not given to this "
                + "cluster",
            SecretMarks.label("ledger") + "=true");
    assertThat(cluster.find("apps/v1", "StatefulSet", NS, "ledger")).isEmpty();

    cluster.update(
        "v1",
        "Secret",
        NS,
        "s3-creds",
        secret ->
            secret
                .withObjectProperty("metadata")
                .withObjectProperty("labels")
                .put(SecretMarks.label("ledger"), SecretMarks.GIVEN));
    mc.runUntilStable(60);

    assertThat(cluster.get(API, KIND, NS, "ledger").at("/status/phase").asText())
        .isEqualTo("Ready");
    assertThat(
            cluster
                .get("apps/v1", "StatefulSet", NS, "ledger")
                .at("/spec/template/spec/containers/0/env")
                .toString())
        .contains("\"name\":\"s3-creds\"");
  }

  @Test
  void aClusterCreatedAgainUnderTheSameNameArchivesIntoANewArchiveAndTheOldOneIsLeftAsItWas() {
    String manifest =
        """
        apiVersion: metahooks.dev/v1alpha1
        kind: PostgresCluster
        metadata: {name: orders, namespace: default}
        spec:
          backup:
        """
            + STORE.indent(2)
            + """
            logical: {schedule: "30 2 * * *"}
        """;
    cluster.create(manifest);
    mc.runUntilStable(60);
    String first = cluster.get(API, KIND, NS, "orders").at("/status/backup/location").asText();
    assertThat(archiveOf("orders")).isEqualTo(first);

    cluster.delete(API, KIND, NS, "orders");
    mc.runUntilStable(60);
    assertThat(cluster.find(API, KIND, NS, "orders")).isEmpty();
    cluster.create(manifest);
    mc.runUntilStable(60);
    ObjectNode again = cluster.get(API, KIND, NS, "orders");
    String second = again.at("/status/backup/location").asText();
    assertThat(second)
        .isEqualTo("s3://pg-backups/default/orders/" + again.at("/metadata/uid").asText());
    assertThat(archiveOf("orders")).isEqualTo(second);
    // Neither archive holds the other: the new incarnation's WAL, base backups, retention and
    // logical dumps stay
    // out of the old one's objects.
    assertThat(second).isNotEqualTo(first).doesNotStartWith(first + "/");
    assertThat(first).doesNotStartWith(second + "/");
    assertThat(cluster.get("batch/v1", "CronJob", NS, "orders-logical").toString())
        .contains(second.substring("s3://pg-backups/".length()))
        .doesNotContain(first.substring("s3://pg-backups/".length()) + "\"");
  }

  @Test
  void aCloneThatLooksForItsSourceInThePrefixOfOldIsRefusedWithTheSourcesArchive() {
    cluster.create(
        """
        apiVersion: metahooks.dev/v1alpha1
        kind: PostgresCluster
        metadata: {name: orders, namespace: default}
        spec:
          backup:
        """
            + STORE.indent(2));
    mc.runUntilStable(60);
    String source = cluster.get(API, KIND, NS, "orders").at("/status/backup/location").asText();
    cluster.create(
        """
        apiVersion: metahooks.dev/v1alpha1
        kind: PostgresCluster
        metadata: {name: orders-copy, namespace: default}
        spec:
          bootstrap:
            clone: {cluster: orders}
          backup:
        """
            + STORE.indent(2));
    mc.runUntilStable(60);
    ObjectNode copy = cluster.get(API, KIND, NS, "orders-copy");
    assertThat(condition(copy, "SpecValid")).isEqualTo("False InvalidSpec");
    assertThat(copy.at("/status/conditions").toString())
        .contains("spec.bootstrap.clone.s3", source);
    assertThat(cluster.exists("apps/v1", "StatefulSet", NS, "orders-copy")).isFalse();

    // The source gone, a cluster of its name restores from its archive, named, and archives beside
    // it.
    cluster.delete(API, KIND, NS, "orders-copy");
    cluster.delete(API, KIND, NS, "orders");
    mc.runUntilStable(60);
    cluster.create(
        """
        apiVersion: metahooks.dev/v1alpha1
        kind: PostgresCluster
        metadata: {name: orders, namespace: default}
        spec:
          bootstrap:
            clone:
              cluster: orders
              s3:
                bucket: pg-backups
                endpoint: http://minio.storage.svc:9000
                credentials: {secretName: s3-creds}
                prefix: %s
          backup:
        """
                .formatted(source.substring("s3://pg-backups/".length()))
            + STORE.indent(2));
    mc.runUntilStable(60);
    ObjectNode restored = cluster.get(API, KIND, NS, "orders");
    assertThat(condition(restored, "SpecValid")).isEqualTo("True Valid");
    assertThat(
            cluster
                .get("apps/v1", "StatefulSet", NS, "orders")
                .at("/spec/template/spec/containers/0/env"))
        .contains(json("{\"name\":\"CLONE_WALE_S3_PREFIX\",\"value\":\"" + source + "\"}"));
    assertThat(archiveOf("orders"))
        .isEqualTo(restored.at("/status/backup/location").asText())
        .isNotEqualTo(source)
        .doesNotStartWith(source + "/");
  }

  private String archiveOf(String name) {
    for (JsonNode variable :
        cluster
            .get("apps/v1", "StatefulSet", NS, name)
            .at("/spec/template/spec/containers/0/env")) {
      if (variable.path("name").asText().equals("WALE_S3_PREFIX")) {
        return variable.path("value").asText();
      }
    }
    return "absent";
  }

  private static String condition(JsonNode parent, String type) {
    for (JsonNode condition : parent.path("status").path("conditions")) {
      if (type.equals(condition.path("type").asText())) {
        return condition.path("status").asText() + " " + condition.path("reason").asText();
      }
    }
    return "absent";
  }
}
