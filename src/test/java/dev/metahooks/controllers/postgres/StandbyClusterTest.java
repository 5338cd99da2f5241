package dev.metahooks.controllers.postgres;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.spec.SpecReaderTest;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.testing.kube.CrdSchema;
import dev.metahooks.testing.kube.KubeSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * spec.standby: what a standby renders (Spilo's STANDBY_* variables, the source's passwords, no users Job and no
 * backups of its own), what is refused, and the promotion by removing it, played in the emulator.
 */
public class StandbyClusterTest {
  static final String SOURCE_SUPERUSER = "source-superuser-password";
  static final String SOURCE_REPLICATION = "source-replication-password";

  /** The docs' yaml blocks of the Standby clusters section: the whole example, then the streaming one. */
  static List<ObjectNode> docsExamples() throws IOException {
    List<ObjectNode> examples = new ArrayList<>();
    for (String block :
        MarkdownBlocks.blocks("docs/postgrescluster/standby.md", "Standby clusters", "yaml")) {
      examples.add((ObjectNode) new YAMLMapper().readTree(block));
    }
    return examples;
  }

  static ObjectNode secret(String name, String password) {
    ObjectNode secret = Json.object().put("apiVersion", "v1").put("kind", "Secret");
    secret
        .putObject("metadata")
        .put("name", name)
        .put("namespace", ObservedRequests.NAMESPACE)
        .put("uid", name + "-uid");
    secret
        .putObject("data")
        .put(
            "password",
            Base64.getEncoder().encodeToString(password.getBytes(StandardCharsets.UTF_8)));
    return secret;
  }

  /** A world of the docs' archive example with the source's Secrets in the namespace. */
  public static ObservedRequests archiveStandby() throws IOException {
    ObservedRequests world =
        new ObservedRequests(
            "orders-dr", (ObjectNode) docsExamples().get(0).get("spec").deepCopy());
    world.hookVersion = "v2";
    sourceSecrets(world);
    return world;
  }

  public static void sourceSecrets(ObservedRequests world) {
    world.relatedSecrets.put("orders-superuser", secret("orders-superuser", SOURCE_SUPERUSER));
    world.relatedSecrets.put(
        "orders-replication", secret("orders-replication", SOURCE_REPLICATION));
  }

  public static Map<String, JsonNode> env(JsonNode sts) {
    Map<String, JsonNode> env = new TreeMap<>();
    for (JsonNode container : sts.at("/spec/template/spec/containers")) {
      if (Spilo.CONTAINER.equals(container.path("name").asText())) {
        container
            .path("env")
            .forEach(
                e ->
                    env.put(
                        e.path("name").asText(),
                        e.has("value") ? e.get("value") : e.get("valueFrom")));
      }
    }
    return env;
  }

  static String password(ObservedRequests world, String secret) {
    return new String(
        Base64.getDecoder()
            .decode(world.children.get("Secret/" + secret).at("/data/password").asText()),
        StandardCharsets.UTF_8);
  }

  static List<String> jobs(ObservedRequests world) {
    return world.children.keySet().stream().filter(key -> key.startsWith("Job/")).toList();
  }

  @Test
  void theArchiveExampleRendersSpilosStandbyVariablesAndCopiesTheSourcesPasswords()
      throws IOException {
    ObservedRequests world = archiveStandby();
    world.edit(
        spec ->
            spec.putArray("users")
                .addObject()
                .put("name", "shop")
                .putArray("databases")
                .add("shop"));
    JsonNode answer = world.sync();
    assertThat(TlsWorlds.condition(answer, "SpecValid").path("status").asText()).isEqualTo("True");
    JsonNode sts = world.children.get("StatefulSet/orders-dr");
    KubeSchema.assertValid((ObjectNode) sts);
    Map<String, JsonNode> env = env(sts);
    assertThat(env.get("STANDBY_SCOPE").asText()).isEqualTo("orders");
    assertThat(env.get("STANDBY_WALE_S3_PREFIX").asText())
        .isEqualTo("s3://pg-backups/shop/orders/0f6a3e8e-6c1f-4a43-9b1e-7d2c5a9e4b11");
    assertThat(env.get("STANDBY_WALE_S3_ENDPOINT").asText())
        .isEqualTo("https+path://minio.example:9000");
    assertThat(env.get("STANDBY_AWS_ENDPOINT").asText()).isEqualTo("https://minio.example:9000");
    assertThat(env.get("STANDBY_AWS_REGION").asText()).isEqualTo("eu-west-1");
    assertThat(env.get("STANDBY_AWS_ACCESS_KEY_ID"))
        .isEqualTo(
            json("{\"secretKeyRef\":{\"name\":\"s3-creds\",\"key\":\"AWS_ACCESS_KEY_ID\"}}"));
    assertThat(env).doesNotContainKeys("STANDBY_HOST", "CLONE_METHOD", "USE_WALG_BACKUP");
    assertThat(password(world, "orders-dr-superuser")).isEqualTo(SOURCE_SUPERUSER);
    assertThat(password(world, "orders-dr-replication")).isEqualTo(SOURCE_REPLICATION);
    assertThat(jobs(world))
        .as("a parameters Job, no users Job")
        .singleElement()
        .asString()
        .startsWith("Job/orders-dr-parameters-");
    assertThat(world.children.get(jobs(world).get(0)).toString()).doesNotContain("standby_cluster");
    assertThat(TlsWorlds.condition(answer, "UsersReady").path("message").asText())
        .contains("source");
    assertThat(answer.at("/status/standby"))
        .isEqualTo(
            json(
                "{\"phase\":\"Bootstrapping\",\"source\":\"orders\","
                    + "\"method\":\"archive\",\"location\":\"s3://pg-backups/shop/orders/0f6a3e8e-6c1f-4a43-9b1e-7d2c5a9e4b11\"}"));
  }

  @Test
  void theStreamingExampleRendersHostAndPortAndTheCrdTakesBothExamples() throws IOException {
    ObjectNode streaming = (ObjectNode) docsExamples().get(1).get("spec");
    ObservedRequests world = new ObservedRequests("orders-dr", streaming.deepCopy());
    sourceSecrets(world);
    world.sync();
    Map<String, JsonNode> env = env(world.children.get("StatefulSet/orders-dr"));
    assertThat(env.get("STANDBY_HOST").asText()).isEqualTo("orders-rw.shop.svc");
    assertThat(env.get("STANDBY_PORT").asText()).isEqualTo("5432");
    assertThat(env.keySet().stream().filter(n -> n.startsWith("STANDBY_")))
        .containsExactly("STANDBY_HOST", "STANDBY_PORT", "STANDBY_SCOPE");

    CrdSchema crd =
        CrdSchema.of(
            PostgresManifestsTest.yaml("manifests/crds/postgresclusters.metahooks.dev.yaml"),
            "v1alpha1");
    ObjectNode archive = docsExamples().get(0);
    assertThat(crd.validate(archive)).isEmpty();
    ObjectNode parent = archive.deepCopy();
    parent.set("spec", streaming);
    assertThat(crd.validate(parent)).isEmpty();
  }

  @Test
  void theCustomizeHookRelatesOnlyTheSecretsGivenToTheStandby() throws IOException {
    ObservedRequests world = archiveStandby();
    world.edit(
        spec ->
            spec.withObjectProperty("standby")
                .putObject("credentials")
                .put("replicationSecret", "dr-repl"));
    assertThat(
            PostgresClusterController.customize(
                    dev.metahooks.api.CustomizeRequest.read(TlsWorlds.customize(world)))
                .relatedResources())
        .anySatisfy(
            rule -> {
              assertThat(rule.resource()).isEqualTo("secrets");
              assertThat(rule.names()).isNull();
              assertThat(rule.labelSelector()).isEqualTo(SecretMarks.selector("orders-dr"));
            });
  }

  @Test
  void refusedCombinationsAreNamed() {
    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(s -> s.putObject("standby").put("cluster", "orders"))))
        .containsExactly("spec.standby");
    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(
                    s ->
                        s.putObject("standby")
                            .put("cluster", "orders")
                            .put("host", "h")
                            .put("tls", true)
                            .putObject("s3")
                            .put("bucket", "pg-backups")
                            .put("region", "eu"))))
        .containsExactlyInAnyOrder("spec.standby", "spec.standby.tls");
    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(
                    s ->
                        s.putObject("standby")
                            .put("cluster", "orders")
                            .putObject("s3")
                            .put("bucket", "pg-backups")
                            .put("region", "eu"))))
        .isEmpty();
    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(
                    s ->
                        s.putObject("standby")
                            .put("cluster", "orders")
                            .put("port", 5432)
                            .putObject("s3")
                            .put("bucket", "pg-backups")
                            .put("region", "eu"))))
        .containsExactly("spec.standby.port");
    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(
                    s -> {
                      s.putObject("standby").put("cluster", "orders").put("host", "orders-rw");
                      s.putObject("bootstrap")
                          .putObject("clone")
                          .put("cluster", "orders")
                          .putObject("live");
                    })))
        .contains("spec.standby");
    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(
                    s -> {
                      s.putObject("standby").put("cluster", "orders").put("host", "orders-rw");
                      s.putObject("storage").putObject("wal").put("size", "1Gi");
                    })))
        .containsExactly("spec.standby");
    // Its own backups never go into the archive it follows; a prefix of its own is fine.
    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(
                    s -> {
                      s.putObject("standby")
                          .put("cluster", "orders")
                          .putObject("s3")
                          .put("bucket", "pg-backups")
                          .put("region", "eu");
                      s.putObject("backup")
                          .putObject("s3")
                          .put("bucket", "pg-backups")
                          .put("region", "eu")
                          .put("prefix", "shop/orders");
                    })))
        .containsExactly("spec.backup.s3.prefix");
    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(
                    s -> {
                      s.putObject("standby")
                          .put("cluster", "orders")
                          .putObject("s3")
                          .put("bucket", "pg-backups")
                          .put("region", "eu");
                      s.putObject("backup")
                          .putObject("s3")
                          .put("bucket", "pg-backups")
                          .put("region", "eu");
                    })))
        .isEmpty();
  }

  @Test
  void withoutTheSourcesSecretsNothingIsCreatedAndTheMissingSecretIsNamed() throws IOException {
    ObservedRequests world = archiveStandby();
    world.relatedSecrets.remove("orders-replication");
    JsonNode answer = world.sync();
    JsonNode valid = TlsWorlds.condition(answer, "SpecValid");
    assertThat(valid.path("status").asText()).isEqualTo("False");
    assertThat(valid.path("message").asText())
        .startsWith(
            "spec.standby.credentials.replicationSecret: Secret "
                + "orders-replication (key password) is missing or not given to this cluster");
    assertThat(world.children).isEmpty();
    sourceSecrets(world);
    world.sync();
    assertThat(password(world, "orders-dr-replication")).isEqualTo(SOURCE_REPLICATION);
    world.relatedSecrets.clear();
    assertThat(TlsWorlds.condition(world.sync(), "SpecValid").path("status").asText())
        .as("once the cluster's own Secrets exist the source's are no longer needed")
        .isEqualTo("True");
    assertThat(password(world, "orders-dr-superuser")).isEqualTo(SOURCE_SUPERUSER);
  }

  @Test
  void ownBackupsWaitForThePromotionWhichRemovingTheStandbySendsThroughTheParametersJob()
      throws IOException {
    ObservedRequests world = archiveStandby();
    world.edit(
        spec -> {
          spec.putArray("users").addObject().put("name", "shop").putArray("databases").add("shop");
          spec.putObject("backup").set("s3", spec.at("/standby/s3").deepCopy());
          ((ObjectNode) spec.at("/backup/s3")).put("prefix", "shop/orders-dr");
          spec.withObjectProperty("backup").putArray("onDemand").addObject().put("name", "first");
        });
    world.sync();
    world.runAllReady();
    world
        .pods
        .get("orders-dr-0")
        .withObjectProperty("metadata")
        .withObjectProperty("annotations")
        .put(
            "status",
            "{\"role\":\"standby_leader\",\"state\":\"running\",\"xlog_location\":50331648}");
    JsonNode following = world.sync();
    assertThat(env(world.children.get("StatefulSet/orders-dr")))
        .as("no archiving of its own while it follows")
        .doesNotContainKeys("USE_WALG_BACKUP", "WALE_S3_PREFIX");
    assertThat(jobs(world)).singleElement().asString().startsWith("Job/orders-dr-parameters-");
    assertThat(following.at("/status/standby/leaderRole").asText()).isEqualTo("standby_leader");
    assertThat(following.at("/status/standby/walPosition").asLong()).isEqualTo(50331648L);
    assertThat(following.at("/status").has("backup")).isFalse();
    world.finishUsersJob(true);
    world.sync();

    // Promotion: the standby removed.
    world.edit(spec -> spec.remove("standby"));
    JsonNode promoting = world.sync();
    assertThat(promoting.at("/status/standby/phase").asText()).isEqualTo("Promoting");
    List<String> jobs = jobs(world);
    assertThat(jobs)
        .as("the promotion's parameters Job, still no users or backup Job")
        .singleElement()
        .asString()
        .startsWith("Job/orders-dr-parameters-");
    String patch =
        world.children.get(jobs.get(0)).at("/spec/template/spec/containers/0/env").toString();
    assertThat(patch).contains("\\\"standby_cluster\\\":null");
    assertThat(
            env(world.children.get("StatefulSet/orders-dr")).keySet().stream()
                .filter(n -> n.startsWith("STANDBY_") || n.equals("USE_WALG_BACKUP")))
        .isEmpty();
    assertThat(world.sync().at("/status/standby/phase").asText())
        .as("until the Job completes")
        .isEqualTo("Promoting");

    world.finishUsersJob(true);
    JsonNode promoted = world.sync();
    assertThat(promoted.at("/status/standby").toString()).startsWith("{\"phase\":\"Promoted\"");
    assertThat(jobs(world))
        .anyMatch(job -> job.startsWith("Job/orders-dr-users-"))
        .contains("Job/orders-dr.backup-first")
        .contains(jobs.get(0));
    assertThat(env(world.children.get("StatefulSet/orders-dr")).get("WALE_S3_PREFIX").asText())
        .isEqualTo("s3://pg-backups/shop/orders-dr");
    assertThat(world.sync().at("/status/standby/phase").asText())
        .as("the promotion's Job stays: the same patch")
        .isEqualTo("Promoted");
    assertThat(jobs(world)).contains(jobs.get(0));
  }

  @Test
  void aStandbyCannotBeAddedToARunningClusterNorChangedWhileItFollows() throws IOException {
    ObservedRequests running = TlsWorlds.running();
    sourceSecrets(running);
    Map<String, JsonNode> before = new TreeMap<>(running.children);
    running.edit(
        spec ->
            spec.putObject("standby").put("cluster", "orders-old").put("host", "orders-old-rw"));
    running.relatedSecrets.put("orders-old-superuser", secret("orders-old-superuser", "x"));
    running.relatedSecrets.put("orders-old-replication", secret("orders-old-replication", "y"));
    JsonNode valid = TlsWorlds.condition(running.sync(), "SpecValid");
    assertThat(valid.path("message").asText())
        .startsWith("spec.standby: can only be set when the cluster is created");
    assertThat(running.children).isEqualTo(before);

    ObservedRequests standby = archiveStandby();
    standby.sync();
    standby.runAllReady();
    standby.sync();
    Map<String, JsonNode> following = new TreeMap<>(standby.children);
    standby.edit(spec -> ((ObjectNode) spec.at("/standby/s3")).put("prefix", "shop/elsewhere"));
    assertThat(TlsWorlds.condition(standby.sync(), "SpecValid").path("message").asText())
        .startsWith("spec.standby: cannot change while the cluster follows its source");
    assertThat(standby.children).isEqualTo(following);
  }

  /** Patroni's member data in the standby leader's {@code status} annotation. */
  private static void replaying(ObservedRequests world, String memberData) {
    world
        .pods
        .get("orders-dr-0")
        .withObjectProperty("metadata")
        .withObjectProperty("annotations")
        .put("status", memberData);
  }

  @Test
  void theStandbySaysFollowingOnlyOnceItsStandbyLeaderReplays() throws IOException {
    ObservedRequests world = archiveStandby();
    assertThat(world.sync().at("/status/standby/phase").asText())
        .as("no pod yet")
        .isEqualTo("Bootstrapping");
    world.runAllReady();
    assertThat(world.sync().at("/status/standby/phase").asText())
        .as("pods, no member data")
        .isEqualTo("Bootstrapping");
    // Patroni 4 says how the standby leader replicates: not yet, while it restores its base backup.
    replaying(
        world,
        "{\"role\":\"standby_leader\",\"state\":\"running\",\"xlog_location\":50331648,"
            + "\"version\":\"4.0.4\"}");
    assertThat(world.sync().at("/status/standby/phase").asText()).isEqualTo("Bootstrapping");
    replaying(world, "{\"role\":\"standby_leader\",\"state\":\"starting\",\"version\":\"4.0.4\"}");
    assertThat(world.sync().at("/status/standby/phase").asText()).isEqualTo("Bootstrapping");
    replaying(
        world,
        "{\"role\":\"standby_leader\",\"state\":\"running\",\"xlog_location\":50331648,"
            + "\"replication_state\":\"in archive recovery\",\"version\":\"4.0.4\"}");
    JsonNode following = world.sync().at("/status/standby");
    assertThat(following.path("phase").asText()).isEqualTo("Following");
    assertThat(following.path("leaderRole").asText()).isEqualTo("standby_leader");
    assertThat(following.path("walPosition").asLong()).isEqualTo(50331648L);
  }

  @Test
  void aPromotionIntoThePrefixTheSourceStillArchivesToIsRefusedUntilTheSourceStops()
      throws IOException {
    ObservedRequests world = archiveStandby();
    world.sync();
    world.runAllReady();
    world.sync();
    ObjectNode source =
        Json.object().put("apiVersion", "metahooks.dev/v1alpha1").put("kind", "PostgresCluster");
    source
        .putObject("metadata")
        .put("name", "orders")
        .put("namespace", ObservedRequests.NAMESPACE)
        .put("creationTimestamp", "2025-01-01T00:00:00Z");
    source.putObject("spec").putObject("backup").set("s3", world.spec.at("/standby/s3").deepCopy());
    world.otherClusters.put("orders", source);
    Map<String, JsonNode> following = new TreeMap<>(world.children);
    world.edit(
        spec -> {
          spec.putObject("backup").set("s3", spec.at("/standby/s3").deepCopy());
          ((ObjectNode) spec.at("/backup/s3")).put("prefix", "shop/orders");
          spec.remove("standby");
        });
    JsonNode valid = TlsWorlds.condition(world.sync(), "SpecValid");
    assertThat(valid.path("status").asText()).isEqualTo("False");
    assertThat(valid.path("message").asText())
        .contains(
            "spec.backup.s3.prefix: s3://pg-backups/shop/orders overlaps "
                + "where PostgresCluster orders keeps its backups");
    assertThat(world.children).as("still a standby: nothing promoted").isEqualTo(following);
    replaying(
        world, "{\"role\":\"standby_leader\",\"state\":\"running\",\"xlog_location\":50331648}");
    assertThat(world.call(false).at("/status/standby/phase").asText()).isEqualTo("Following");

    ((ObjectNode) source.get("spec")).remove("backup");
    JsonNode promoting = world.sync();
    assertThat(TlsWorlds.condition(promoting, "SpecValid").path("status").asText())
        .isEqualTo("True");
    assertThat(promoting.at("/status/standby/phase").asText()).isEqualTo("Promoting");
  }
}
