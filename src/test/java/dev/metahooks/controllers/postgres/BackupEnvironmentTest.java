package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.children.pod.StatefulSets;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.controllers.postgres.spec.SpecReaderTest;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Spilo environment of spec.backup and spec.bootstrap.clone, checked against the variables Spilo reads (the
 * list in src/test/resources/spilo/backup-variables.tsv, each with the place in Spilo's sources) and against how
 * Spilo derives from them what WAL-G gets; WAL-G itself cannot run here.
 */
public class BackupEnvironmentTest {
  /** Spilo's own parse of WALE_S3_ENDPOINT (configure_spilo.py write_wale_environment). */
  private static final Pattern SPILO_ENDPOINT = Pattern.compile("^(\\w+)\\+(\\w+)(://.+)$");

  static Map<String, String> spiloVariables() throws IOException {
    Map<String, String> variables = new LinkedHashMap<>();
    for (String line : Files.readAllLines(Resources.path("spilo/backup-variables.tsv"))) {
      if (!line.startsWith("#") && !line.isBlank()) {
        String[] fields = line.split("\t");
        assertThat(fields).as(line).hasSize(3);
        variables.put(fields[0], fields[1]);
      }
    }
    return variables;
  }

  public static ObjectNode withBackup(ObjectNode spec) {
    ObjectNode backup = spec.putObject("backup");
    backup
        .putObject("s3")
        .put("bucket", "pg-backups")
        .put("endpoint", "https://minio.example:9000")
        .put("region", "eu-west-1")
        .putObject("credentials")
        .put("secretName", "s3-creds");
    backup.put("schedule", "15 3 * * *").putObject("retention").put("baseBackups", 7);
    return spec;
  }

  static Map<String, JsonNode> env(ObjectNode spec) {
    ObjectNode parent = SpecReaderTest.parent("orders", s -> s.setAll(spec));
    SpecReader.Result read = SpecReader.read(parent);
    assertThat(read.problems()).isEmpty();
    Map<String, JsonNode> env = new LinkedHashMap<>();
    StatefulSets.env("orders", read.spec(), Json.object())
        .forEach(e -> env.put(e.path("name").asText(), e));
    return env;
  }

  static Map<String, JsonNode> added(ObjectNode spec) {
    Map<String, JsonNode> env = env(spec);
    env(Json.object()).keySet().forEach(env::remove);
    return env;
  }

  private static String value(Map<String, JsonNode> env, String name) {
    assertThat(env).containsKey(name);
    return env.get(name).path("value").asText();
  }

  @Test
  void everyVariableSetForBackupsAndClonesIsOneSpiloReadsAndTheDocsExplain() throws IOException {
    Map<String, String> spilo = spiloVariables();
    String docs = MarkdownBlocks.page("docs/postgrescluster/backups-and-restore.md");
    List<ObjectNode> specs =
        List.of(
            withBackup(Json.object()),
            cloneSpec(c -> c.put("timestamp", "2026-11-30T11:00:00+01:00")),
            cloneSpec(c -> c.putObject("live")),
            awsSpec(),
            BackupEncryptionTest.libsodiumAndKms(),
            BackupEncryptionTest.pgpWithPassphrase(),
            BackupEncryptionTest.encryptedClone(),
            BackupEncryptionTest.pgpClone());
    Set<String> rendered = new java.util.TreeSet<>();
    for (ObjectNode spec : specs) {
      rendered.addAll(added(spec).keySet());
    }
    assertThat(spilo.keySet()).containsAll(rendered);
    assertThat(rendered).as("the list names only what is rendered").containsAll(spilo.keySet());
    for (String name : rendered) {
      assertThat(docs)
          .as("docs/postgrescluster/backups-and-restore.md explains %s", name)
          .contains("`" + name + "`");
    }
  }

  @Test
  void theStoreReachesWalGAsSpiloDerivesIt() {
    Map<String, JsonNode> env = added(withBackup(Json.object()));
    assertThat(env.keySet())
        .containsExactly(
            "USE_WALG_BACKUP",
            "USE_WALG_RESTORE",
            "WALE_S3_PREFIX",
            "AWS_ENDPOINT",
            "WALE_S3_ENDPOINT",
            "AWS_REGION",
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "BACKUP_SCHEDULE",
            "BACKUP_NUM_TO_RETAIN",
            "WALG_PREVENT_WAL_OVERWRITE");
    // Two writers of one archive fail to archive instead of overwriting each other's WAL.
    assertThat(value(env, "WALG_PREVENT_WAL_OVERWRITE")).isEqualTo("true");
    // The default prefix of a parent without uid (as here) is <namespace>/<name>; Spilo copies
    // WALE_S3_PREFIX to WALG_S3_PREFIX and adds nothing.
    assertThat(value(env, "WALE_S3_PREFIX")).isEqualTo("s3://pg-backups/shop/orders");
    assertThat(value(env, "BACKUP_SCHEDULE")).isEqualTo("15 3 * * *");
    assertThat(value(env, "BACKUP_NUM_TO_RETAIN")).isEqualTo("7");
    // With an endpoint Spilo keeps AWS_REGION only under USE_WALG_BACKUP=true, and reads the
    // addressing style
    // from WALE_S3_ENDPOINT exactly as this regular expression does.
    assertThat(value(env, "USE_WALG_BACKUP")).isEqualTo("true");
    Matcher endpoint = SPILO_ENDPOINT.matcher(value(env, "WALE_S3_ENDPOINT"));
    assertThat(endpoint.matches()).isTrue();
    assertThat(endpoint.group(2)).isEqualTo("path");
    assertThat(endpoint.group(1) + endpoint.group(3)).isEqualTo(value(env, "AWS_ENDPOINT"));
    // Credentials only from the user's Secret, never as a value.
    for (String name : List.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")) {
      assertThat(env.get(name).has("value")).isFalse();
      assertThat(env.get(name).at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("s3-creds");
      assertThat(env.get(name).at("/valueFrom/secretKeyRef/key").asText()).isEqualTo(name);
    }

    ObjectNode virtualHost = withBackup(Json.object());
    ((ObjectNode) virtualHost.at("/backup/s3"))
        .put("forcePathStyle", false)
        .put("endpoint", "http://ceph.example");
    Matcher vhost = SPILO_ENDPOINT.matcher(value(added(virtualHost), "WALE_S3_ENDPOINT"));
    assertThat(vhost.matches()).isTrue();
    assertThat(vhost.group(2)).isEqualTo("virtualhost");
    assertThat(vhost.group(1) + vhost.group(3)).isEqualTo("http://ceph.example:80");
  }

  @Test
  void awsS3WithoutEndpointOrCredentialsUsesTheRegionAndThePodsIdentity() {
    Map<String, JsonNode> env = added(awsSpec());
    assertThat(env.keySet())
        .containsExactly(
            "USE_WALG_BACKUP",
            "USE_WALG_RESTORE",
            "WALE_S3_PREFIX",
            "AWS_REGION",
            "BACKUP_SCHEDULE",
            "BACKUP_NUM_TO_RETAIN",
            "WALG_PREVENT_WAL_OVERWRITE");
    assertThat(value(env, "WALE_S3_PREFIX")).isEqualTo("s3://acme-db/prod/orders");
  }

  @Test
  void aCloneFromBackupsRecoversToThePointInTimeInUtcAndALiveCloneReadsTheReplicationSecret() {
    Map<String, JsonNode> env =
        added(cloneSpec(c -> c.put("timestamp", "2026-11-30T11:00:00+01:00")));
    assertThat(value(env, "CLONE_METHOD")).isEqualTo("CLONE_WITH_WALE");
    assertThat(value(env, "CLONE_SCOPE")).isEqualTo("orders-old");
    assertThat(value(env, "CLONE_WALE_S3_PREFIX")).isEqualTo("s3://pg-backups/shop/orders-old");
    assertThat(value(env, "CLONE_TARGET_TIME")).isEqualTo("2026-11-30 10:00:00+00:00");
    assertThat(env.get("CLONE_AWS_SECRET_ACCESS_KEY").at("/valueFrom/secretKeyRef/name").asText())
        .isEqualTo("s3-creds");
    // The clone writes its own WAL to its own prefix, never to the source's.
    assertThat(value(env, "WALE_S3_PREFIX")).isEqualTo("s3://pg-backups/shop/orders");

    Map<String, JsonNode> live = added(cloneSpec(c -> c.putObject("live")));
    assertThat(
            live.keySet().stream().filter(n -> n.startsWith("CLONE_")).collect(Collectors.toList()))
        .containsExactly(
            "CLONE_METHOD",
            "CLONE_SCOPE",
            "CLONE_HOST",
            "CLONE_PORT",
            "CLONE_USER",
            "CLONE_PASSWORD");
    assertThat(value(live, "CLONE_METHOD")).isEqualTo("CLONE_WITH_BASEBACKUP");
    assertThat(value(live, "CLONE_HOST")).isEqualTo("orders-old-rw.shop.svc");
    assertThat(live.get("CLONE_PASSWORD").at("/valueFrom/secretKeyRef/name").asText())
        .isEqualTo("orders-old-replication");
  }

  @Test
  void wrongBackupFieldsAreNamed() {
    SpecReader.Result read =
        SpecReaderTest.read(
            spec -> {
              ObjectNode backup = spec.putObject("backup");
              backup.putObject("s3").put("bucket", "Bad_Bucket").put("prefix", "a/../b");
              backup.put("schedule", "every day");
              backup.putArray("onDemand").addObject().put("name", "x").put("method", "logical");
              backup.withArray("onDemand").addObject().put("name", "x");
              spec.putObject("bootstrap")
                  .putObject("clone")
                  .put("cluster", "src")
                  .put("timestamp", "yesterday");
            });
    assertThat(SpecReaderTest.fields(read))
        .containsExactlyInAnyOrder(
            "spec.backup.s3.bucket",
            "spec.backup.s3.prefix",
            "spec.backup.s3.region",
            "spec.backup.schedule",
            "spec.backup.onDemand",
            "spec.backup.onDemand[1].name",
            "spec.bootstrap.clone.timestamp");
  }

  static ObjectNode cloneSpec(Consumer<ObjectNode> clone) {
    ObjectNode spec = withBackup(Json.object());
    ObjectNode source = spec.putObject("bootstrap").putObject("clone").put("cluster", "orders-old");
    clone.accept(source);
    return spec;
  }

  private static ObjectNode awsSpec() {
    ObjectNode spec = Json.object();
    spec.putObject("backup")
        .putObject("s3")
        .put("bucket", "acme-db")
        .put("prefix", "prod/orders")
        .put("region", "eu-central-1");
    return spec;
  }
}
