package dev.metahooks.controllers.postgres;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.Hook;
import dev.metahooks.api.Json;
import dev.metahooks.api.Sources;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testing.FixedSources;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The hook's answers about backups, restore and the final backup, to requests built with {@link ObservedRequests}:
 * states crafted as a test needs them (a Job under an earlier name, a Job failed, a clock moved, another cluster's
 * prefix), each answer applied by the builder to make the next request. Backups under Metacontroller's loop are
 * {@link BackupEmulatorScenarioTest}'s, and a deletion whose final backup fails {@link FinalBackupScenarioTest}'s.
 */
public class BackupAnswersTest {
  private static final String NAME = "orders";

  /** A clock the test moves; passwords as pinned. */
  public static final class Clock implements Sources {
    public Instant now = Instant.parse("2026-12-01T12:00:00Z");

    @Override
    public Instant now() {
      return now;
    }

    @Override
    public String secret(String purpose, int length) {
      return FixedSources.INSTANCE.secret(purpose, length);
    }
  }

  private static ObjectNode spec() {
    ObjectNode spec = BackupEnvironmentTest.withBackup(Json.object().put("instances", 2));
    ObjectNode backup = (ObjectNode) spec.get("backup");
    backup
        .putObject("logical")
        .put("schedule", "30 2 * * *")
        .putObject("retention")
        .put("count", 3);
    backup.putArray("onDemand").addObject().put("name", "before-upgrade");
    backup.withArray("onDemand").addObject().put("name", "dump").put("method", "logical");
    return spec;
  }

  private static ObservedRequests running(ObjectNode spec, Clock clock) {
    ObservedRequests world = new ObservedRequests(NAME, spec);
    world.sources = clock;
    world.sync();
    world.runAllReady();
    world.sync();
    return world;
  }

  /**
   * A cluster whose on-demand backup ran under the earlier name ({@code <n>-backup-<entry>}) keeps that Job while the
   * entry is listed: renamed, the backup would run again. Its status reads it; an entry added later gets the new name.
   */
  @Test
  void anOnDemandJobOfTheEarlierNameIsKeptAndNotRunAgain() {
    ObservedRequests world = running(spec(), new Clock());
    ObjectNode job = world.children.remove("Job/orders.backup-before-upgrade");
    job.withObjectProperty("metadata").put("name", "orders-backup-before-upgrade");
    world.children.put("Job/orders-backup-before-upgrade", job);
    finish(world, "Job/orders-backup-before-upgrade", true, "2026-12-01T12:03:00Z");
    world.edit(s -> ((ArrayNode) s.at("/backup/onDemand")).addObject().put("name", "after"));
    world.sync();
    assertThat(world.children)
        .containsKeys(
            "Job/orders-backup-before-upgrade", "Job/orders.backup-dump", "Job/orders.backup-after")
        .doesNotContainKey("Job/orders.backup-before-upgrade");
    assertThat(world.status.at("/backup/onDemand/0"))
        .isEqualTo(
            json(
                "{\"name\":\"before-upgrade\","
                    + "\"method\":\"base\",\"job\":\"orders-backup-before-upgrade\",\"phase\":\"Succeeded\"}"));
    world.edit(s -> ((ArrayNode) s.at("/backup/onDemand")).remove(0));
    world.sync();
    assertThat(world.children)
        .doesNotContainKeys("Job/orders-backup-before-upgrade", "Job/orders.backup-before-upgrade");
  }

  @Test
  void scheduledAndOnDemandBackupsAppearAndReportInStatus() {
    Clock clock = new Clock();
    ObservedRequests world = running(spec(), clock);
    // The CronJob was made now: no scheduled run can have been missed yet.
    world
        .children
        .get("CronJob/orders-logical")
        .withObjectProperty("metadata")
        .put("creationTimestamp", "2026-12-01T12:00:00Z");
    world.sync();
    assertThat(world.children)
        .containsKeys(
            "CronJob/orders-logical",
            "Job/orders.backup-before-upgrade",
            "Job/orders.backup-dump",
            "ServiceAccount/orders-backup",
            "Role/orders-backup",
            "RoleBinding/orders-backup");
    ObjectNode cron = world.children.get("CronJob/orders-logical");
    assertThat(cron.at("/spec/schedule").asText()).isEqualTo("30 2 * * *");
    assertThat(cron.at("/spec/timeZone").asText()).isEqualTo("Etc/UTC");
    JsonNode base =
        world.children.get("Job/orders.backup-before-upgrade").at("/spec/template/spec");
    assertThat(base.path("serviceAccountName").asText()).isEqualTo("orders-backup");
    // The push runs second, between recording the start and verifying the store.
    assertThat(base.at("/initContainers/1/command"))
        .isEqualTo(
            json(
                "[\"kubectl\",\"exec\",\"--namespace\",\"shop\","
                    + "\"svc/orders-rw\",\"--container\",\"postgres\",\"--\",\"/bin/sh\",\"-c\",\"envdir /run/etc/wal-e.d/env "
                    + "/scripts/postgres_backup.sh /home/postgres/pgdata/pgroot/data\"]"));
    // Exactly what kubectl exec needs, on this cluster's pods by name.
    assertThat(world.children.get("Role/orders-backup").path("rules"))
        .isEqualTo(
            json(
                "["
                    + "{\"apiGroups\":[\"\"],\"resources\":[\"services\"],\"resourceNames\":[\"orders-rw\"],\"verbs\":[\"get\"]},"
                    + "{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"verbs\":[\"list\",\"watch\"]},"
                    + "{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"resourceNames\":[\"orders-0\",\"orders-1\"],\"verbs\":[\"get\"]},"
                    + "{\"apiGroups\":[\"\"],\"resources\":[\"pods/exec\"],\"resourceNames\":[\"orders-0\",\"orders-1\"],\"verbs\":[\"create\",\"get\"]}]"));
    // Nothing has checked the store yet: not True.
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("Unknown NotChecked");
    StoreCheckReports.write(world, StoreCheckReports.healthy(clock.now));
    world.sync();
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("True BackupsVerified");
    assertThat(conditionMessage(world, "BackupsHealthy"))
        .endsWith(
            "; no scheduled logical backup has been missed yet (schedule \"30 2 * * *\", UTC)");
    assertThat(world.status.at("/backup/onDemand/0/phase").asText()).isEqualTo("Running");

    finish(world, "Job/orders.backup-before-upgrade", true, "2026-12-01T12:03:00Z");
    finish(world, "Job/orders.backup-dump", false, "2026-12-01T12:04:00Z");
    world.sync();
    assertThat(world.status.at("/backup/location").asText())
        .isEqualTo("s3://pg-backups/shop/orders/" + world.uid);
    assertThat(world.status.at("/backup/lastSuccessful"))
        .isEqualTo(
            json(
                "{\"name\":\"orders.backup-before-upgrade\",\"method\":\"base\",\"time\":\"2026-12-01T12:03:00Z\"}"));
    assertThat(world.status.at("/backup/lastFailed/name").asText()).isEqualTo("orders.backup-dump");
    assertThat(world.status.at("/backup/onDemand").toString())
        .contains("\"phase\":\"Succeeded\"", "\"phase\":\"Failed\"");
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("False BackupFailed");

    // The scheduled dump succeeds later: healthy again. A day and a half without one: a whole
    // period missed.
    world
        .children
        .get("CronJob/orders-logical")
        .putObject("status")
        .put("lastSuccessfulTime", "2026-12-02T02:30:40Z");
    clock.now = Instant.parse("2026-12-02T09:00:00Z");
    StoreCheckReports.write(world, StoreCheckReports.healthy(clock.now));
    world.sync();
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("True BackupsVerified");
    assertThat(conditionMessage(world, "BackupsHealthy"))
        .endsWith("; the last logical backup succeeded at 2026-12-02T02:30:40Z");
    clock.now = Instant.parse("2026-12-03T09:00:00Z");
    StoreCheckReports.write(world, StoreCheckReports.healthy(clock.now));
    world.sync();
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("True BackupsVerified");
    // The answer asks to be called again when the judgement may change by the clock alone (and so
    // it is never
    // replayed from the response cache): when the store check's report goes stale, and without one,
    // at the next
    // scheduled logical run.
    assertThat(world.call(false).path("resyncAfterSeconds").asDouble()).isEqualTo(35 * 60);
    StoreCheckReports.write(world, Json.object());
    assertThat(world.call(false).path("resyncAfterSeconds").asDouble()).isEqualTo(17.5 * 3600);
    clock.now = Instant.parse("2026-12-04T03:00:00Z");
    world.sync();
    assertThat(condition(world, "BackupsHealthy")).isEqualTo("False NoRecentBackup");
    assertThat(conditionMessage(world, "BackupsHealthy"))
        .isEqualTo(
            "no logical backup has succeeded since 2026-12-03T02:30:00Z (schedule \"30 2 * * *\", UTC); last: 2026-12-02T02:30:40Z");

    // An entry removed from the list: its Job goes. The backup section removed: its children go,
    // data stays.
    world.edit(s -> ((ArrayNode) s.at("/backup/onDemand")).remove(1));
    world.sync();
    assertThat(world.children)
        .containsKey("Job/orders.backup-before-upgrade")
        .doesNotContainKey("Job/orders.backup-dump");
    Map<String, ObjectNode> before = new TreeMap<>(world.children);
    world.edit(s -> s.remove("backup"));
    world.sync();
    assertThat(world.children.keySet())
        .doesNotContain(
            "CronJob/orders-logical",
            "Job/orders.backup-before-upgrade",
            "Role/orders-backup",
            "CronJob/orders-store-check",
            "ConfigMap/orders-backup-health")
        .contains("StatefulSet/orders", "Secret/orders-superuser");
    before
        .keySet()
        .removeIf(
            k ->
                k.contains("backup")
                    || k.contains("logical")
                    || k.contains("store-check")
                    || k.startsWith("StatefulSet/"));
    assertThat(world.children).containsAllEntriesOf(before);
    assertThat(world.status.toString())
        .doesNotContain(FixedSources.INSTANCE.secret("shop/orders-superuser", 32));
  }

  @Test
  void aCloneBootstrapsASecondClusterAndItsBootstrapCannotChangeAfterwards() {
    Clock clock = new Clock();
    ObjectNode spec = BackupEnvironmentTest.withBackup(Json.object());
    spec.putObject("bootstrap")
        .putObject("clone")
        .put("cluster", NAME)
        .put("timestamp", "2026-12-01T11:30:00Z");
    ObservedRequests copy = new ObservedRequests("orders-copy", spec);
    copy.otherClusters.put(NAME, sourceOfOld());
    copy.sources = clock;
    copy.sync();
    JsonNode env = copy.statefulSet().at("/spec/template/spec/containers/0/env");
    assertThat(env.toString())
        .contains(
            "{\"name\":\"CLONE_METHOD\",\"value\":\"CLONE_WITH_WALE\"}",
            "{\"name\":\"CLONE_WALE_S3_PREFIX\",\"value\":\"s3://pg-backups/shop/orders\"}",
            "{\"name\":\"CLONE_TARGET_TIME\",\"value\":\"2026-12-01 11:30:00+00:00\"}",
            "{\"name\":\"WALE_S3_PREFIX\",\"value\":\"s3://pg-backups/shop/orders-copy/"
                + copy.uid
                + "\"}");
    copy.runAllReady();
    copy.sync();
    assertThat(copy.status.path("phase").asText()).isEqualTo("Ready");

    // A changed point in time after the bootstrap: refused, and every child stays as it is.
    Map<String, ObjectNode> before = new TreeMap<>(copy.children);
    copy.edit(
        s -> ((ObjectNode) s.at("/bootstrap/clone")).put("timestamp", "2026-12-01T11:45:00Z"));
    copy.sync();
    assertThat(condition(copy, "SpecValid")).isEqualTo("False InvalidSpec");
    assertThat(conditionMessage(copy, "SpecValid"))
        .contains("spec.bootstrap.clone: cannot change after the cluster was first bootstrapped");
    assertThat(copy.children).isEqualTo(before);
    // Removing it is a change as well; putting it back as it was is not.
    copy.edit(
        s -> ((ObjectNode) s.at("/bootstrap/clone")).put("timestamp", "2026-12-01T11:30:00Z"));
    copy.sync();
    assertThat(condition(copy, "SpecValid")).isEqualTo("True Valid");
  }

  @Test
  void aCloneIntoItsSourcesPrefixIsRefusedAndItsChildrenStayAsTheyAre() {
    Clock clock = new Clock();
    ObjectNode spec = BackupEnvironmentTest.withBackup(Json.object());
    spec.putObject("bootstrap").putObject("clone").put("cluster", NAME);
    ObservedRequests copy = new ObservedRequests("orders-copy", spec);
    copy.otherClusters.put(NAME, sourceOfOld());
    copy.sources = clock;
    copy.sync();
    Map<String, ObjectNode> before = new TreeMap<>(copy.children);
    assertThat(before).containsKey("StatefulSet/orders-copy");

    // The clone's own archive set to the source's (or inside it): both would write one archive, and
    // the
    // clone's retention would delete the source's backups.
    for (String prefix : List.of("shop/orders", "shop/orders/copy")) {
      copy.edit(s -> ((ObjectNode) s.at("/backup/s3")).put("prefix", prefix));
      copy.sync();
      assertThat(condition(copy, "SpecValid")).isEqualTo("False InvalidSpec");
      assertThat(conditionMessage(copy, "SpecValid"))
          .contains(
              "spec.backup.s3.prefix: s3://pg-backups/"
                  + prefix
                  + " overlaps the archive this cluster is filled from (s3://pg-backups/shop/orders)");
      assertThat(copy.children).isEqualTo(before);
    }
    // A logical restore from the source's archive into the same prefix: refused the same way.
    ObjectNode restore = BackupEnvironmentTest.withBackup(Json.object());
    ((ObjectNode) restore.at("/backup/s3")).put("prefix", "shop/orders");
    restore.putObject("bootstrap").putObject("logical").put("cluster", NAME);
    ObservedRequests restored = new ObservedRequests("orders-restored", restore);
    restored.otherClusters.put(NAME, sourceOfOld());
    restored.sync();
    assertThat(condition(restored, "SpecValid")).isEqualTo("False InvalidSpec");
    assertThat(conditionMessage(restored, "SpecValid"))
        .contains("overlaps the archive this cluster is filled from");
    assertThat(restored.children).doesNotContainKey("StatefulSet/orders-restored");
  }

  /**
   * The source as the hook sees it when it archives into the layout before each incarnation had its own archive:
   * its status names {@code shop/orders}, where a clone without prefix looks.
   */
  public static ObjectNode sourceOfOld() {
    ObjectNode source =
        new ObservedRequests(NAME, BackupEnvironmentTest.withBackup(Json.object())).parent();
    ((ObjectNode) source.get("metadata")).put("creationTimestamp", "2025-01-01T00:00:00Z");
    source.putObject("status").putObject("backup").put("location", "s3://pg-backups/shop/orders");
    return source;
  }

  @Test
  void aPrefixAnotherClusterOfTheNamespaceClaimedFirstIsRefused() {
    ObservedRequests world =
        new ObservedRequests("orders", BackupEnvironmentTest.withBackup(Json.object()));
    ObjectNode request = world.request(false);
    ObjectNode other =
        new ObservedRequests("billing", BackupEnvironmentTest.withBackup(Json.object())).parent();
    ((ObjectNode) other.at("/spec/backup/s3")).put("prefix", "shop");
    ((ObjectNode) other.get("metadata")).put("creationTimestamp", "2025-01-01T00:00:00Z");
    request
        .withObjectProperty("related")
        .putObject("PostgresCluster.metahooks.dev/v1alpha1")
        .set("billing", other);
    JsonNode answer =
        JsonTrees.MAPPER.valueToTree(
            PostgresClusterController.sync(
                CompositeRequest.read(request, Hook.SYNC), FixedSources.INSTANCE));
    assertThat(answer.at("/status/phase").asText()).isEqualTo("Invalid");
    assertThat(answer.at("/status/conditions").toString())
        .contains(
            "spec.backup.s3.prefix: s3://pg-backups/shop/orders/"
                + world.uid
                + " overlaps where PostgresCluster billing keeps its backups; one prefix belongs to one cluster");
    assertThat(answer.path("children")).isEmpty();

    // Apart (another prefix), both are fine.
    ((ObjectNode) other.at("/spec/backup/s3")).put("prefix", "shop/billing");
    JsonNode apart =
        JsonTrees.MAPPER.valueToTree(
            PostgresClusterController.sync(
                CompositeRequest.read(request, Hook.SYNC), FixedSources.INSTANCE));
    assertThat(apart.at("/status/phase").asText()).isEqualTo("Provisioning");
  }

  @Test
  void aDeletionWithAFinalBackupWaitsForItsJobThenFinishes() {
    Clock clock = new Clock();
    ObjectNode spec = BackupEnvironmentTest.withBackup(Json.object().put("instances", 2));
    ((ObjectNode) spec.get("backup")).put("finalBackup", true);
    ObservedRequests world = running(spec, clock);
    Map<String, ObjectNode> running = new TreeMap<>(world.children);
    world.deletionTimestamp = "2026-12-01T12:10:00Z";

    JsonNode answer = world.call(true);
    assertThat(answer.path("finalized").asBoolean()).isFalse();
    world.apply(answer);
    assertThat(world.children).containsKey("Job/orders-final-backup").containsAllEntriesOf(running);
    assertThat(condition(world, "DeletionBlocked")).isEqualTo("True FinalBackupRunning");
    // Again, while it runs: nothing changes.
    assertThat(names(world.call(true))).isEqualTo(names(answer)).isEqualTo(names(world));

    finish(world, "Job/orders-final-backup", true, "2026-12-01T12:12:00Z");
    JsonNode deleting = world.call(true);
    world.apply(deleting);
    assertThat(world.children.keySet()).containsExactly("Job/orders-final-backup");
    assertThat(condition(world, "DeletionBlocked")).isEqualTo("False Deleting");
    assertThat(world.status.at("/backup/finalBackup/phase").asText()).isEqualTo("Succeeded");
    world.pods.clear();
    assertThat(world.call(true).path("finalized").asBoolean()).isTrue();
  }

  private static List<String> names(JsonNode answer) {
    List<String> names = new java.util.ArrayList<>();
    answer
        .path("children")
        .forEach(
            c ->
                names.add(
                    c.path("kind").asText() + "/" + c.path("metadata").path("name").asText()));
    names.sort(null);
    return names;
  }

  private static List<String> names(ObservedRequests world) {
    return List.copyOf(world.children.keySet());
  }

  private static void finish(ObservedRequests world, String key, boolean succeeded, String time) {
    ObjectNode job = world.children.get(key);
    assertThat(job).as(key).isNotNull();
    ObjectNode status = job.putObject("status");
    ArrayNode conditions = status.putArray("conditions");
    if (succeeded) {
      status.put("succeeded", 1).put("completionTime", time);
      conditions
          .addObject()
          .put("type", "Complete")
          .put("status", "True")
          .put("lastTransitionTime", time);
    } else {
      status.put("failed", 3);
      conditions
          .addObject()
          .put("type", "Failed")
          .put("status", "True")
          .put("reason", "BackoffLimitExceeded")
          .put("lastTransitionTime", time);
    }
  }

  private static String condition(ObservedRequests world, String type) {
    return condition(world.status, type);
  }

  public static String condition(JsonNode status, String type) {
    for (JsonNode condition : status.path("conditions")) {
      if (type.equals(condition.path("type").asText())) {
        return condition.path("status").asText() + " " + condition.path("reason").asText();
      }
    }
    return "absent";
  }

  private static String conditionMessage(ObservedRequests world, String type) {
    return conditionMessage(world.status, type);
  }

  public static String conditionMessage(JsonNode status, String type) {
    for (JsonNode condition : status.path("conditions")) {
      if (type.equals(condition.path("type").asText())) {
        return condition.path("message").asText();
      }
    }
    return "absent";
  }
}
