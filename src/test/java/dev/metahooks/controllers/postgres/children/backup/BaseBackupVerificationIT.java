package dev.metahooks.controllers.postgres.children.backup;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.S3Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A base backup Job's three steps as the hook renders them, run under the kubelet's rules against a real PostgreSQL
 * and a real S3 API (s3rver, the AWS CLI): {@code started}, then the push, then {@code verify}. The push is what
 * its {@code kubectl exec} runs in the Spilo container: Spilo's own {@code postgres_backup.sh} of tag 4.0-p3
 * (src/test/resources/spilo, unchanged) under the WAL-G environment the StatefulSet renders, with a stand-in
 * {@code wal-g} (src/test/resources/wal-g) that writes WAL-G's layout when it succeeds and fails as WAL-G does when
 * the store is unreachable or refuses the credentials. Spilo's script exits 0 either way; the verification, which is
 * the real one, is what tells.
 */
public class BaseBackupVerificationIT {
  private static final String BUCKET = "pg-base-backups";
  private static final String RENDERED_ENDPOINT = "http://minio.storage.svc:9000";

  /** What Spilo's configure_spilo.py writes into the WAL-G envdir (configure_spilo.py:837-857, s3_names and walg_names). */
  private static final Set<String> ENVDIR =
      Set.of(
          "WALE_S3_PREFIX",
          "WALG_S3_PREFIX",
          "AWS_ACCESS_KEY_ID",
          "AWS_SECRET_ACCESS_KEY",
          "WALE_S3_ENDPOINT",
          "AWS_ENDPOINT",
          "AWS_REGION",
          "USE_WALG_BACKUP",
          "USE_WALG_RESTORE",
          "WALG_PREVENT_WAL_OVERWRITE",
          "BACKUP_NUM_TO_RETAIN");

  private static S3Server s3;
  private static PostgresServer server;
  private static Path walg;

  @TempDir Path run;
  @TempDir Path pgdata;

  @BeforeAll
  static void start() throws IOException {
    server = PostgresServer.shared();
    s3 = S3Server.start(BUCKET);
    walg = Files.createTempDirectory("metahooks-wal-g-");
    for (String tool : List.of("wal-g/wal-g", "spilo/postgres_backup.sh")) {
      Path copy = walg.resolve(Path.of(tool).getFileName());
      Files.copy(Resources.projectDir().resolve("src/test/resources/" + tool), copy);
      assertThat(copy.toFile().setExecutable(true)).isTrue();
    }
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void aPushTheStoreShowsVerifies() throws IOException {
    ObservedRequests world = cluster("ledger");
    ObjectNode job = onDemandJob(world);
    assertThat(started(world, job).exitCode()).isZero();
    PostgresServer.Result push = push(world, Map.of());
    assertThat(push.exitCode()).as(push.output()).isZero();
    assertThat(push.output()).contains("Wrote backup with name base_");
    PostgresServer.Result verified = verify(world, job, Map.of());
    assertThat(verified.exitCode()).as(verified.output()).isZero();
    assertThat(verified.output())
        .containsPattern(
            "verified base backup base_[0-9A-F]{24} in s3://pg-base-backups/shop/"
                + "ledger/basebackups_005/: started 20[0-9-]+T[0-9:.]+Z, finished ");
  }

  @Test
  void anUnreachableStoreMakesSpilosScriptExitZeroAndTheVerificationFail() throws IOException {
    ObservedRequests world = cluster("unreachable");
    ObjectNode job = onDemandJob(world);
    assertThat(started(world, job).exitCode()).isZero();
    PostgresServer.Result push =
        push(world, Map.of("AWS_ENDPOINT", "http://127.0.0.1:" + closedPort()));
    // postgres_backup.sh:42 does not look at wal-g's status: the push step alone would make the Job
    // Complete.
    assertThat(push.exitCode()).as(push.output()).isZero();
    assertThat(push.output()).contains("ERROR:", "backup-push: failed to list");
    PostgresServer.Result verified = verify(world, job, Map.of());
    assertThat(verified.exitCode()).isNotZero();
    assertThat(verified.output())
        .contains(
            "no complete base backup in s3://pg-base-backups/shop/unreachable/basebackups_005/"
                + " started after this Job did (",
            "0 backups with a _backup_stop_sentinel.json in all");
    assertThat(s3.keys(BUCKET, "shop/unreachable/")).isEmpty();
  }

  @Test
  void aRefusedCredentialAfterAnEarlierBackupFailsTheVerificationNamingTheOlderOne()
      throws IOException {
    ObservedRequests world = cluster("refused");
    ObjectNode job = onDemandJob(world);
    assertThat(started(world, job).exitCode()).isZero();
    assertThat(push(world, Map.of()).exitCode()).isZero();
    assertThat(verify(world, job, Map.of()).exitCode()).isZero();
    String older =
        s3.keys(BUCKET, "shop/refused/basebackups_005/").stream()
            .filter(k -> k.endsWith("_backup_stop_sentinel.json"))
            .findFirst()
            .orElseThrow()
            .replaceAll(".*/(base_[0-9A-F]+)_backup_stop_sentinel.json", "$1");

    // The next run: the store refuses WAL-G's key (s3rver checks the key id, not the signature);
    // the older backup stays in the store, but does not count.
    awaitNextSecond();
    assertThat(started(world, job).exitCode()).isZero();
    PostgresServer.Result push = push(world, Map.of("AWS_ACCESS_KEY_ID", "NOT-THE-KEY"));
    assertThat(push.exitCode()).as(push.output()).isZero();
    assertThat(push.output()).contains("ERROR:", "InvalidAccessKeyId");
    PostgresServer.Result verified = verify(world, job, Map.of());
    assertThat(verified.exitCode()).isNotZero();
    assertThat(verified.output())
        .contains(
            "no complete base backup in s3://pg-base-backups/shop/refused/basebackups_005/",
            "the newest complete one is " + older + " (started ",
            "1 backups with a _backup_stop_sentinel.json in all");
  }

  @Test
  void partsWithoutACompletionSentinelAreNamedIncomplete() throws IOException {
    ObservedRequests world = cluster("partial");
    ObjectNode job = onDemandJob(world);
    assertThat(started(world, job).exitCode()).isZero();
    // What WAL-G leaves when it dies before its last upload (a full bucket, a killed pod): parts,
    // no sentinel.
    Path part = Files.writeString(pgdata.resolve("part_1.tar"), "parts");
    PostgresServer.Result put =
        PostgresServer.exec(
            List.of(
                s3.awsDirectory().resolve("aws").toString(),
                "--endpoint-url",
                s3.endpoint(),
                "s3",
                "cp",
                part.toString(),
                "s3://"
                    + BUCKET
                    + "/shop/partial/basebackups_005/base_000000010000000000000007/tar_partitions/part_1.tar"),
            credentials(),
            Duration.ofMinutes(1));
    assertThat(put.exitCode()).as(put.output()).isZero();
    PostgresServer.Result verified = verify(world, job, Map.of());
    assertThat(verified.exitCode()).isNotZero();
    assertThat(verified.output())
        .contains("without a completion sentinel (incomplete): base_000000010000000000000007");
  }

  @Test
  void theVerificationCannotBeFooledByAStoreItCannotRead() throws IOException {
    ObservedRequests world = cluster("unread");
    ObjectNode job = onDemandJob(world);
    assertThat(started(world, job).exitCode()).isZero();
    assertThat(push(world, Map.of()).exitCode()).isZero();
    PostgresServer.Result verified = verify(world, job, Map.of("AWS_ACCESS_KEY_ID", "NOT-A-KEY"));
    assertThat(verified.exitCode()).isNotZero();
    assertThat(verified.output())
        .contains(
            "cannot list s3://pg-base-backups/shop/unread/basebackups_005/", "InvalidAccessKeyId");
    // Without the start of the Job, nothing can be shown to be newer.
    Files.delete(run.resolve("started"));
    PostgresServer.Result unstarted = verify(world, job, Map.of());
    assertThat(unstarted.exitCode()).isNotZero();
    assertThat(unstarted.output()).contains("started is missing");
  }

  @Test
  void theFinalBackupJobIsTheSameThreeStepsFencedBeforeAndClosedAfter() {
    ObservedRequests world = cluster("closing");
    ObjectNode onDemand = onDemandJob(world);
    JsonNode finalJob =
        Backups.finalBackupJob(
            "closing", ObservedRequests.NAMESPACE, SpecReader.read(world.parent()).spec());
    JsonNode finalPod = finalJob.at("/spec/template/spec");
    JsonNode onDemandPod = onDemand.at("/spec/template/spec");
    for (String step : List.of(Backups.STARTED_CONTAINER, Backups.CONTAINER)) {
      assertThat(container(finalPod, step)).isEqualTo(container(onDemandPod, step));
    }
    assertThat(container(finalPod, Backups.VERIFY_CONTAINER))
        .isEqualTo(container(onDemandPod, Backups.VERIFY_CONTAINER));
    assertThat(names(finalPod.path("initContainers")))
        .containsExactly("started", "fence", "backup", "verify");
    assertThat(names(finalPod.path("containers"))).containsExactly("archived");
    assertThat(names(onDemandPod.path("initContainers"))).containsExactly("started", "backup");
    assertThat(names(onDemandPod.path("containers"))).containsExactly("verify");
  }

  private static JsonNode container(JsonNode pod, String name) {
    for (String list : List.of("initContainers", "containers")) {
      for (JsonNode container : pod.path(list)) {
        if (container.path("name").asText().equals(name)) {
          return container;
        }
      }
    }
    throw new AssertionError("no container " + name);
  }

  private static List<String> names(JsonNode containers) {
    List<String> names = new ArrayList<>();
    containers.forEach(c -> names.add(c.path("name").asText()));
    return names;
  }

  private static ObservedRequests cluster(String name) {
    ObjectNode spec = Json.object();
    ObjectNode backup = spec.putObject("backup");
    // A prefix of its own per test, as a cluster names it (a default one would carry the uid).
    backup
        .putObject("s3")
        .put("bucket", BUCKET)
        .put("endpoint", RENDERED_ENDPOINT)
        .put("forcePathStyle", true)
        .put("prefix", ObservedRequests.NAMESPACE + "/" + name)
        .putObject("credentials")
        .put("secretName", "s3-creds");
    backup.putArray("onDemand").addObject().put("name", "before-upgrade");
    ObservedRequests world = new ObservedRequests(name, spec);
    world.sync();
    return world;
  }

  private static ObjectNode onDemandJob(ObservedRequests world) {
    ObjectNode job = world.children.get("Job/" + Names.backupJob(world.name, "before-upgrade"));
    assertThat(job).as("the on-demand base backup Job").isNotNull();
    return job;
  }

  private PostgresServer.Result started(ObservedRequests world, ObjectNode job) {
    return RenderedContainers.run(
        RenderedContainers.of(world, job, Backups.STARTED_CONTAINER, List.of(userSecret())),
        Map.of("BACKUP_RUN", run.toString()),
        Duration.ofMinutes(1));
  }

  /**
   * The push step: its container execs Spilo's script in the primary's database container; that script runs here
   * with what Spilo's envdir holds, built from the StatefulSet's rendered environment as configure_spilo.py does
   * (the {@code +path} of WALE_S3_ENDPOINT gives AWS_S3_FORCE_PATH_STYLE, configure_spilo.py:891), the endpoint
   * pointing at the local store and psql at the local server.
   */
  private PostgresServer.Result push(ObservedRequests world, Map<String, String> overrides) {
    ObjectNode job = onDemandJob(world);
    assertThat(RenderedContainers.of(world, job, Backups.CONTAINER, List.of()).argv())
        .containsExactly(
            "kubectl",
            "exec",
            "--namespace",
            ObservedRequests.NAMESPACE,
            "svc/" + Names.primaryService(world.name),
            "--container",
            Spilo.CONTAINER,
            "--",
            "/bin/sh",
            "-c",
            "envdir " + Spilo.WAL_ENV_DIR + " /scripts/postgres_backup.sh " + Spilo.PGDATA);
    ObjectNode sts = world.children.get("StatefulSet/" + world.name);
    Map<String, String> rendered =
        RenderedContainers.pod(world, sts, List.of(userSecret()))
            .field("metadata.name", world.name + "-0")
            .field("metadata.namespace", ObservedRequests.NAMESPACE)
            .field("status.podIP", "10.1.0.7")
            // Spilo's image: no ENTRYPOINT, CMD launch.sh (postgres-appliance/Dockerfile:125 at
            // 4.0-p3).
            .image(ClusterSpec.DEFAULT_IMAGE, List.of(), List.of("/bin/sh", "/launch.sh", "init"))
            .container(Spilo.CONTAINER)
            .environment();
    Map<String, String> env = new HashMap<>();
    rendered.forEach(
        (name, value) -> {
          if (ENVDIR.contains(name)) {
            env.put(name, value);
          }
        });
    assertThat(env.get("WALE_S3_ENDPOINT")).isEqualTo("http+path://minio.storage.svc:9000");
    env.put("AWS_S3_FORCE_PATH_STYLE", "true");
    env.put("AWS_ENDPOINT", s3.endpoint());
    env.put("PGHOST", "127.0.0.1");
    env.put("PGPORT", String.valueOf(server.port()));
    env.put("PGUSER", PostgresServer.SUPERUSER);
    env.put("PGPASSWORD", server.superuserPassword());
    env.put("HOME", System.getProperty("java.io.tmpdir"));
    env.put(
        "PATH", walg + ":" + server.bin() + ":" + s3.awsDirectory() + ":" + System.getenv("PATH"));
    env.putAll(overrides);
    return PostgresServer.exec(
        List.of(walg.resolve("postgres_backup.sh").toString(), pgdata.toString()),
        env,
        Duration.ofMinutes(2),
        false);
  }

  private PostgresServer.Result verify(
      ObservedRequests world, ObjectNode job, Map<String, String> overrides) {
    Map<String, String> local = new HashMap<>();
    local.put("BACKUP_RUN", run.toString());
    local.put("S3_ENDPOINT", s3.endpoint());
    local.put("PATH", s3.awsDirectory() + ":" + System.getenv("PATH"));
    local.putAll(overrides);
    return RenderedContainers.run(
        RenderedContainers.of(world, job, Backups.VERIFY_CONTAINER, List.of(userSecret())),
        local,
        Duration.ofMinutes(2));
  }

  public static Map<String, String> credentials() {
    return Map.of(
        "AWS_ACCESS_KEY_ID",
        S3Server.ACCESS_KEY_ID,
        "AWS_SECRET_ACCESS_KEY",
        S3Server.SECRET_ACCESS_KEY,
        "AWS_DEFAULT_REGION",
        "us-east-1",
        "HOME",
        System.getProperty("java.io.tmpdir"));
  }

  /** The user's Secret {@code s3-creds}, as the API server returns it. */
  static ObjectNode userSecret() {
    ObjectNode secret = Json.object().put("apiVersion", "v1").put("kind", "Secret");
    secret.putObject("metadata").put("name", "s3-creds");
    ObjectNode data = secret.putObject("data");
    credentials()
        .forEach(
            (key, value) -> {
              if (key.startsWith("AWS_") && !key.equals("AWS_DEFAULT_REGION")) {
                data.put(
                    key,
                    Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
              }
            });
    return secret;
  }

  static int closedPort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void awaitNextSecond() {
    long second = Instant.now().getEpochSecond();
    while (Instant.now().getEpochSecond() == second) {
      Thread.onSpinWait();
    }
  }
}
