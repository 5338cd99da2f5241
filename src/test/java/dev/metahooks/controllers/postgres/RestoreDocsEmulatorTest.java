package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testsupport.Project;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The examples of docs/postgrescluster/backups-and-restore.md's "Restore and recovery", applied under the emulated Metacontroller
 * against a source created by this version (its archive under its uid): as written, with the source's uid, they
 * are taken; without {@code prefix}, refused naming the source's archive.
 */
class RestoreDocsEmulatorTest {
  private static final String API = "metahooks.dev/v1alpha1";
  private static final String KIND = "PostgresCluster";
  private static final String NS = "shop";
  private static final String DOCS_UID = "0f6a3e8e-6c1f-4a43-9b1e-7d2c5a9e4b11";

  private Cluster cluster;
  private LocalHooks hooks;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    cluster.create(
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"shop\"}}");
    Sources sources = PostgresEmulation.fixedSecrets(cluster);
    hooks = LocalHooks.start(PostgresClusterController.controller(sources));
    mc = PostgresEmulation.metacontroller(cluster, hooks, Duration.ofSeconds(10));
    PostgresEmulation.giveStoreSecret(
        cluster, NS, "s3-creds", "orders", "orders-restored", "orders-copy", "orders-dr");
  }

  @AfterEach
  void tearDown() {
    hooks.close();
  }

  /** The section's yaml blocks, in order: clone, logical restore, standby, same-name restore. */
  static List<String> examples() throws IOException {
    return MarkdownBlocks.blocks(
        "docs/postgrescluster/backups-and-restore.md", "Restore and recovery", "yaml");
  }

  /** The source, created by this version, and its archive's prefix. */
  private String source() {
    cluster.create(
        """
        apiVersion: metahooks.dev/v1alpha1
        kind: PostgresCluster
        metadata: {name: orders, namespace: shop}
        spec:
          backup:
            s3: {bucket: pg-backups, endpoint: https://minio.example:9000, credentials: {secretName: s3-creds}}
        """);
    mc.runUntilStable(60);
    ObjectNode source = cluster.get(API, KIND, NS, "orders");
    String location = source.at("/status/backup/location").asText();
    assertThat(location)
        .isEqualTo("s3://pg-backups/shop/orders/" + source.at("/metadata/uid").asText());
    return location.substring("s3://pg-backups/".length());
  }

  private ObjectNode apply(String example, String prefix) throws IOException {
    ObjectNode manifest =
        (ObjectNode) new YAMLMapper().readTree(example.replace("shop/orders/" + DOCS_UID, prefix));
    cluster.create(manifest);
    mc.runUntilStable(60);
    return cluster.get(API, KIND, NS, manifest.at("/metadata/name").asText());
  }

  private static ObjectNode withoutPrefix(String example) throws IOException {
    ObjectNode manifest = (ObjectNode) new YAMLMapper().readTree(example);
    for (String store :
        List.of("/spec/bootstrap/clone/s3", "/spec/bootstrap/logical/s3", "/spec/standby/s3")) {
      if (manifest.at(store).isObject()) {
        ((ObjectNode) manifest.at(store)).remove("prefix");
      }
    }
    return manifest;
  }

  private void giveSourceSecretsTo(String standby) {
    for (String secret : List.of("orders-superuser", "orders-replication")) {
      cluster.update(
          "v1",
          "Secret",
          NS,
          secret,
          s ->
              s.withObjectProperty("metadata")
                  .withObjectProperty("labels")
                  .put(SecretMarks.label(standby), SecretMarks.GIVEN));
    }
  }

  @Test
  void theCloneTheLogicalRestoreAndTheStandbyOfTheDocsFindTheSourcesArchive() throws IOException {
    List<String> examples = examples();
    assertThat(examples).hasSize(4);
    String prefix = source();
    giveSourceSecretsTo("orders-dr");
    String[] variables = {"CLONE_WALE_S3_PREFIX", null, "STANDBY_WALE_S3_PREFIX"};
    for (int i = 0; i < 3; i++) {
      // Without prefix: refused, the source's archive named, nothing created.
      ObjectNode refused = withoutPrefix(examples.get(i));
      String name = refused.at("/metadata/name").asText();
      cluster.create(refused);
      mc.runUntilStable(60);
      assertThat(condition(cluster.get(API, KIND, NS, name), "SpecValid"))
          .as(name)
          .startsWith("False")
          .contains("prefix: " + prefix + " (its status.backup.location)");
      assertThat(cluster.exists("apps/v1", "StatefulSet", NS, name)).isFalse();
      cluster.delete(API, KIND, NS, name);
      mc.runUntilStable(60);

      ObjectNode applied = apply(examples.get(i), prefix);
      assertThat(condition(applied, "SpecValid")).as(name).startsWith("True");
      if (variables[i] != null) {
        assertThat(env(name))
            .as(name)
            .contains(
                "{\"name\":\"" + variables[i] + "\",\"value\":\"s3://pg-backups/" + prefix + "\"}");
      } else {
        assertThat(applied.at("/status/backup/logicalRestore").toString()).contains(prefix);
      }
    }
    assertThat(cluster.get(API, KIND, NS, "orders-dr").at("/status/standby/phase").asText())
        .as("no member replays in the emulator")
        .isEqualTo("Bootstrapping");
  }

  @Test
  void theSameNameRestoreOfTheDocsTakesTheArchiveOfTheDeletedCluster() throws IOException {
    String example = examples().get(3);
    String prefix = source();
    cluster.delete(API, KIND, NS, "orders");
    mc.runUntilStable(60);
    assertThat(cluster.find(API, KIND, NS, "orders")).isEmpty();

    ObjectNode refused = withoutPrefix(example);
    ((ObjectNode) refused.at("/spec/backup/s3")).put("prefix", "shop/orders-restored");
    cluster.create(refused);
    mc.runUntilStable(60);
    assertThat(condition(cluster.get(API, KIND, NS, "orders"), "SpecValid"))
        .startsWith("False")
        .contains("PostgresCluster orders is not in namespace shop");
    cluster.delete(API, KIND, NS, "orders");
    mc.runUntilStable(60);

    ObjectNode restored = apply(example, prefix);
    assertThat(condition(restored, "SpecValid")).startsWith("True");
    assertThat(env("orders"))
        .contains(
            "{\"name\":\"CLONE_WALE_S3_PREFIX\",\"value\":\"s3://pg-backups/" + prefix + "\"}");
    assertThat(restored.at("/status/backup/location").asText())
        .isEqualTo("s3://pg-backups/shop/orders/" + restored.at("/metadata/uid").asText())
        .isNotEqualTo("s3://pg-backups/" + prefix);
  }

  private String env(String name) {
    return cluster
        .get("apps/v1", "StatefulSet", NS, name)
        .at("/spec/template/spec/containers/0/env")
        .toString();
  }

  private static String condition(JsonNode parent, String type) {
    for (JsonNode condition : parent.path("status").path("conditions")) {
      if (type.equals(condition.path("type").asText())) {
        return condition.path("status").asText() + " " + condition.path("message").asText();
      }
    }
    return "absent";
  }
}
