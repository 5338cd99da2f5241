package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.pod.Exporters;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.plan.ManualSwitchover;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Writes the request files of the postgrescluster golden fixtures by playing scenarios through
 * {@link ObservedRequests}: each request is what Metacontroller would send at that step. Run with
 * {@code -Dtest=PostgresFixtureGenerator -Dfixtures.generate=true}, then write the answers with
 * {@code -Dtest=GoldenFixturesTest -Dfixtures.update=true} and read them before committing.
 */
@EnabledIfSystemProperty(named = "fixtures.generate", matches = "true")
class PostgresFixtureGenerator {
  private static final Path ROOT = Resources.path("fixtures/postgrescluster");

  @Test
  void devScenario() throws IOException {
    ObservedRequests dev = ObservedRequests.fromSample("postgrescluster-dev.yaml");
    write("sync/01-first-sync-dev-sample", dev, false);
    dev.sync();
    dev.runPods(Set.of(0), -1, false);
    write("sync/02-dev-pod-starting", dev, false);
    dev.sync();
    dev.runAllReady();
    write("sync/03-dev-ready", dev, false);
    dev.sync();
    dev.edit(spec -> spec.put("instances", 3));
    write("sync/04-scale-1-to-3", dev, false);
    dev.sync();
    dev.runPods(Set.of(2), 0, false);
    write("sync/05-scaling-to-3-last-pod-starting", dev, false);
    dev.sync();
    dev.runAllReady();
    write("sync/06-scaled-to-3-ready", dev, false);
    dev.sync();
    dev.edit(spec -> spec.put("instances", 5));
    write("sync/07-scale-3-to-5", dev, false);
    dev.sync();
    dev.runAllReady();
    dev.sync();
    dev.edit(spec -> spec.put("instances", 2));
    write("sync/08-scale-5-to-2-volumes-retained", dev, false);
    dev.sync();
    dev.runAllReady();
    dev.sync();
    dev.edit(
        spec ->
            spec.put("instances", 0)
                .putObject("storage")
                .putObject("retentionPolicy")
                .put("whenScaled", "Delete"));
    write("sync/09-hibernate-keeps-volumes-despite-whenScaled-delete", dev, false);
    dev.sync();
    dev.runAllReady();
    write("sync/10-hibernated", dev, false);
    dev.sync();
    dev.edit(spec -> spec.put("instances", 3));
    write("sync/11-wake-from-hibernation-to-3", dev, false);

    ObservedRequests gone = ObservedRequests.fromSample("postgrescluster-dev.yaml");
    gone.sync();
    gone.runAllReady();
    gone.sync();
    gone.deletionTimestamp = "2026-01-01T00:00:00Z";
    write("finalize/01-unprotected-deletes-children", gone, true);
    gone.apply(gone.call(true));
    gone.pods.clear();
    write("finalize/02-unprotected-statefulset-gone-finalized", gone, true);

    // Patroni's ConfigMaps outlive the pods: a cleanup Job removes them, and only then is the
    // cluster finalized.
    ObservedRequests leftovers = ObservedRequests.fromSample("postgrescluster-dev.yaml");
    leftovers.sync();
    leftovers.runAllReady();
    leftovers.patroniConfigMap("config");
    leftovers.patroniConfigMap("leader");
    leftovers.sync();
    leftovers.deletionTimestamp = "2026-01-01T00:00:00Z";
    leftovers.apply(leftovers.call(true));
    leftovers.pods.clear();
    write("finalize/07-pods-gone-cleanup-job-removes-patroni-configmaps", leftovers, true);
    leftovers.apply(leftovers.call(true));
    leftovers.configMaps.clear();
    write("finalize/08-patroni-configmaps-gone-finalized", leftovers, true);

    ObservedRequests createRole =
        new ObservedRequests("legacy", Json.object().put("postgresVersion", 15));
    createRole
        .spec
        .putArray("users")
        .addObject()
        .put("name", "admin-app")
        .putArray("options")
        .add("CREATEROLE");
    write("sync/33-invalid-createrole-below-16", createRole, false);

    ObservedRequests refused = ObservedRequests.fromSample("postgrescluster-dev.yaml");
    refused
        .spec
        .putObject("postgresql")
        .putObject("parameters")
        .put("wal_level", "minimal")
        .put("pg_stat_statements.track_utility", "on")
        .put("listen_addresses", "*");
    refused.spec.putObject("resources").putObject("limits").put("memory", "128Mi");
    write("sync/34-invalid-parameters-and-memory-limit", refused, false);

    ObservedRequests preload = ObservedRequests.fromSample("postgrescluster-dev.yaml");
    preload
        .spec
        .putObject("postgresql")
        .putObject("parameters")
        .put("shared_preload_libraries", "pg_partman_bgw,pg_cron")
        .put("work_mem", "$(PGPASSWORD_SUPERUSER)");
    write("sync/35-preload-libraries-merged-and-references-escaped", preload, false);
  }

  @Test
  void haScenario() throws IOException {
    ObservedRequests ha = ObservedRequests.fromSample("postgrescluster-ha.yaml");
    ha.hookVersion = "v2";
    write("sync/12-first-sync-ha-sample-v2-keys", ha, false);
    ha.sync();
    ha.runAllReady();
    ha.finishUsersJob(true);
    write("sync/13-ha-ready-v2-keys", ha, false);
    ha.sync();

    ObservedRequests tuned = copyOf(ha);
    tuned.edit(
        spec -> {
          spec.withObjectProperty("postgresql")
              .withObjectProperty("parameters")
              .put("max_connections", "300")
              .put("work_mem", "16MB")
              .remove("log_min_duration_statement");
          spec.withObjectProperty("resources")
              .withObjectProperty("limits")
              .put("memory", "2Gi")
              .put("cpu", "2");
        });
    write("sync/14-parameters-and-resources-change", tuned, false);
    tuned.sync();
    tuned.runPods(Set.of(2), 0, true);
    write("sync/15-rolling-update-in-progress", tuned, false);

    // spec.patroni on a running cluster: a new parameters Job, the pod template (bootstrap
    // settings) unchanged.
    ObservedRequests synchronous = copyOf(ha);
    synchronous.edit(
        spec ->
            spec.putObject("patroni")
                .put("failsafeMode", true)
                .putObject("synchronous")
                .put("mode", "strict")
                .put("nodeCount", 1));
    write("sync/36-synchronous-strict-through-the-parameters-job", synchronous, false);

    // A new image under a Saturday window, on a Thursday: both replicas updated, the switchover
    // waits for Saturday.
    ObservedRequests windowed = copyOf(ha);
    windowed.edit(
        spec -> {
          spec.put("image", "ghcr.io/zalando/spilo-17:4.0-p4");
          spec.putObject("updates")
              .putArray("maintenanceWindows")
              .addObject()
              .put("start", "01:00")
              .put("end", "03:00")
              .putArray("days")
              .add("Sat");
        });
    windowed.sync();
    windowed.runPods(Set.of(), 0, true);
    for (int ordinal : new int[] {1, 2}) {
      ((ObjectNode) windowed.pods.get(windowed.name + "-" + ordinal).get("metadata"))
          .withObjectProperty("labels")
          .put(ObservedCluster.REVISION_LABEL, windowed.name + "-5f6b8c9d7a");
    }
    write("sync/37-switchover-waits-for-the-maintenance-window", windowed, false);

    // A new image on a cluster whose leader runs on the highest ordinal, every pod ready and caught
    // up: the restart
    // Job (and its Role) of the highest replica below the leader; the leader moves only once the
    // replicas are done.
    ObservedRequests restarting = copyOf(ha);
    restarting.edit(spec -> spec.put("image", "ghcr.io/zalando/spilo-17:4.0-p4"));
    restarting.sync();
    restarting.runPods(Set.of(), 2, true);
    write("sync/97-rollout-restarts-a-replica-first-whatever-its-ordinal", restarting, false);

    // A switchover on request whose Job runs, then a new image: the Job is kept, and the rollout
    // starts no restart
    // until the leader has moved.
    ObservedRequests asked = copyOf(ha);
    asked.annotations.put(ManualSwitchover.ANNOTATION, asked.name + "-2");
    asked.sync();
    asked.edit(spec -> spec.put("image", "ghcr.io/zalando/spilo-17:4.0-p4"));
    asked.sync();
    asked.runPods(Set.of(), 0, true);
    write("sync/113-a-switchover-on-request-that-runs-holds-the-rollout", asked, false);

    ObservedRequests added = copyOf(ha);
    added.edit(
        spec ->
            spec.withArray("users")
                .addObject()
                .put("name", "analytics")
                .putArray("databases")
                .add("events")
                .add("metrics"));
    write("sync/16-user-added-secret-generated-new-job", added, false);
    added.sync();
    added.edit(
        spec -> ((com.fasterxml.jackson.databind.node.ArrayNode) spec.get("users")).remove(1));
    write("sync/17-user-removed-secret-kept", added, false);

    ObservedRequests failover = copyOf(ha);
    failover.runPods(Set.of(0), -1, false);
    write("sync/18-failover-no-primary-degraded", failover, false);

    ObservedRequests failedJob = copyOf(ha);
    failedJob.finishUsersJob(false);
    write("sync/19-users-job-failed-users-not-ready-cluster-healthy", failedJob, false);

    ObservedRequests paused = copyOf(ha);
    paused.edit(
        spec ->
            spec.put("paused", true)
                .put("instances", 5)
                .put("image", "registry.example/spilo-17:4.0-p3"));
    write("sync/20-paused-freezes-children", paused, false);

    ObservedRequests ssa = copyOf(ha);
    ssa.children
        .values()
        .forEach(child -> ((ObjectNode) child.get("metadata")).remove("annotations"));
    ssa.edit(spec -> spec.put("paused", true));
    write("sync/21-paused-without-last-applied-strips-server-fields", ssa, false);

    invalid(ha, "sync/22-invalid-major-version-change", spec -> spec.put("postgresVersion", 16));
    ObservedRequests fixedClass = copyOf(ha);
    fixedClass.relateVolumes("standard", false);
    invalid(
        fixedClass,
        "sync/23-invalid-storage-size-change",
        spec -> spec.withObjectProperty("storage").put("size", "20Gi"));
    invalid(
        ha,
        "sync/24-invalid-storage-class-change",
        spec -> spec.withObjectProperty("storage").put("storageClassName", "fast-ssd"));
    invalid(
        ha,
        "sync/25-invalid-reserved-user-name",
        spec -> spec.withArray("users").addObject().put("name", "postgres"));
    invalid(
        ha,
        "sync/26-invalid-superuser-option",
        spec ->
            ((ObjectNode) spec.get("users").get(1))
                .putArray("options")
                .add("CREATEDB")
                .add("SUPERUSER"));
    invalid(
        ha,
        "sync/27-invalid-several-fields-at-once",
        spec -> {
          spec.put("instances", 17);
          spec.withObjectProperty("availability").put("podAntiAffinity", "always");
          spec.withObjectProperty("postgresql")
              .withObjectProperty("parameters")
              .put("port", "5433");
          spec.put("deletionProtection", "yes");
        });
    invalid(
        ha,
        "sync/28-invalid-database-owned-twice",
        spec -> ((ObjectNode) spec.get("users").get(1)).putArray("databases").add("orders"));
    invalid(
        ha,
        "sync/29-same-size-in-other-unit-is-valid",
        spec -> spec.withObjectProperty("storage").put("size", "10240Mi"));

    ObservedRequests fresh =
        new ObservedRequests(
            "a-name-that-is-far-too-long-for-a-cluster-x", Json.object().put("instances", 1));
    write("sync/30-invalid-first-sync-creates-nothing", fresh, false);

    ObservedRequests steady = copyOf(ha);
    ArrayNodeTimes.backdate(steady.status, "2025-12-30T08:15:00Z");
    steady.runPods(Set.of(2), 0, false);
    write("sync/31-transition-times-carried-over-while-status-holds", steady, false);

    ObservedRequests protectedCluster = copyOf(ha);
    protectedCluster.deletionTimestamp = "2026-01-01T00:00:00Z";
    write("finalize/03-deletion-protection-blocks-and-keeps-children", protectedCluster, true);

    ObservedRequests pausedDelete = copyOf(ha);
    pausedDelete.edit(spec -> spec.put("deletionProtection", false).put("paused", true));
    pausedDelete.deletionTimestamp = "2026-01-01T00:00:00Z";
    write("finalize/04-paused-blocks-deletion", pausedDelete, true);

    ObservedRequests unprotected = copyOf(ha);
    unprotected.edit(spec -> spec.put("deletionProtection", false));
    unprotected.deletionTimestamp = "2026-01-01T00:00:00Z";
    write("finalize/05-unprotected-v2-keys", unprotected, true);

    ObservedRequests unreadable = copyOf(ha);
    unreadable.edit(spec -> spec.put("deletionProtection", "no"));
    unreadable.deletionTimestamp = "2026-01-01T00:00:00Z";
    write("finalize/06-unreadable-protection-counts-as-on", unreadable, true);

    writeCustomize("customize/01-related-database-pods-v2", ha);
    ObservedRequests dev = ObservedRequests.fromSample("postgrescluster-dev.yaml");
    writeCustomize("customize/02-related-database-pods-v1", dev);
  }

  /** spec.pooler and spec.monitoring on a running cluster: on, not yet available, ready, off again, invalid. */
  @Test
  void operationsScenario() throws IOException {
    ObservedRequests ha = readyHaSample();

    ObservedRequests on = copyOf(ha);
    on.edit(
        spec -> {
          spec.putObject("pooler").put("instances", 2).put("mode", "transaction");
          spec.putObject("monitoring").put("enabled", true);
        });
    write("sync/50-pooler-and-monitoring-turned-on", on, false);
    on.sync();
    on.runAllReady();
    exporterReady(on, Set.of(1));
    write("sync/51-pooler-unavailable-exporter-not-ready-in-one-pod", on, false);
    on.sync();
    exporterReady(on, Set.of());
    ((ObjectNode) on.children.get("Deployment/orders-pooler"))
        .putObject("status")
        .put("replicas", 2)
        .put("readyReplicas", 2)
        .put("availableReplicas", 2)
        .put("updatedReplicas", 2);
    on.finishUsersJob(true);
    write("sync/52-pooler-available-exporters-ready", on, false);
    on.sync();
    on.edit(
        spec -> {
          spec.withObjectProperty("pooler").put("enabled", false);
          spec.remove("monitoring");
        });
    write("sync/53-pooler-and-monitoring-turned-off-secrets-kept-roles-nologin", on, false);

    ObservedRequests podMonitor = copyOf(ha);
    podMonitor.podMonitorsDeclared = true;
    podMonitor.edit(spec -> spec.putObject("monitoring").put("enabled", true));
    write("sync/55-podmonitor-component-installed-monitoring-on", podMonitor, false);

    invalid(
        ha,
        "sync/54-invalid-pooler-and-monitoring-fields",
        spec -> {
          spec.putObject("pooler")
              .put("instances", 0)
              .put("mode", "statement")
              .put("defaultPoolSize", "20");
          spec.putObject("monitoring").put("enabled", "yes");
        });
  }

  /** Each pod's container statuses, the exporter not ready in the pods of the given ordinals. */
  private static void exporterReady(ObservedRequests world, Set<Integer> notReady) {
    world.pods.forEach(
        (name, pod) -> {
          int ordinal = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
          com.fasterxml.jackson.databind.node.ArrayNode statuses =
              pod.withObjectProperty("status").putArray("containerStatuses");
          statuses.addObject().put("name", Spilo.CONTAINER).put("ready", true);
          statuses
              .addObject()
              .put("name", Exporters.CONTAINER)
              .put("ready", !notReady.contains(ordinal));
        });
  }

  /** The store check's report as the hook reads it: a healthy one, then archiving that fails. */
  @Test
  void storeCheckScenario() throws IOException {
    ObservedRequests world =
        new ObservedRequests("orders", BackupEnvironmentTest.withBackup(Json.object()));
    world.sync();
    world.runAllReady();
    world.sync();
    java.time.Instant checked = FixedSources.NOW.minusSeconds(300);
    StoreCheckReports.write(world, StoreCheckReports.healthy(checked));
    write("sync/70-store-check-report-backups-verified", world, false);
    StoreCheckReports.write(
        world,
        StoreCheckReports.healthy(checked)
            .put("failedCount", "4")
            .put("lastFailedWal", "00000001000000000000002A")
            .put("lastFailedTime", checked.plusSeconds(60).toString()));
    write("sync/71-store-check-report-archiving-failing", world, false);
  }

  @Test
  void backupScenario() throws IOException {
    ObjectNode spec = BackupEnvironmentTest.withBackup(Json.object().put("instances", 2));
    ObjectNode backup = (ObjectNode) spec.get("backup");
    backup.put("finalBackup", true);
    backup
        .putObject("logical")
        .put("schedule", "30 2 * * *")
        .putObject("retention")
        .put("count", 3);
    backup.putArray("onDemand").addObject().put("name", "before-upgrade");
    ObservedRequests world = new ObservedRequests("orders", spec);
    write("sync/40-backups-first-sync", world, false);
    world.sync();
    world.runAllReady();
    world.sync();
    world.children.forEach(
        (key, child) -> {
          if (key.equals("Job/orders.backup-before-upgrade")) {
            ObjectNode status =
                child
                    .putObject("status")
                    .put("succeeded", 1)
                    .put("completionTime", "2026-01-01T00:05:00Z");
            status.putArray("conditions").addObject().put("type", "Complete").put("status", "True");
          }
        });
    write("sync/41-backups-on-demand-succeeded-in-status", world, false);
    world.sync();

    ObservedRequests clone =
        new ObservedRequests("orders-copy", BackupEnvironmentTest.withBackup(Json.object()));
    ObjectNode cloneFrom =
        clone
            .spec
            .putObject("bootstrap")
            .putObject("clone")
            .put("cluster", "orders")
            .put("timestamp", "2026-01-01T00:00:00Z");
    // The source's archive as its status names it: its store, under its uid.
    cloneFrom.set("s3", clone.spec.at("/backup/s3").deepCopy());
    ((ObjectNode) cloneFrom.get("s3")).put("prefix", "shop/orders/" + world.uid);
    write("sync/42-clone-point-in-time-first-sync", clone, false);
    clone.sync();
    clone.edit(
        s -> ((ObjectNode) s.at("/bootstrap/clone")).put("timestamp", "2026-01-01T01:00:00Z"));
    write("sync/43-clone-changed-after-bootstrap-refused", clone, false);

    world.deletionTimestamp = "2026-01-01T00:10:00Z";
    write("finalize/10-final-backup-job-emitted-children-kept", world, true);
    world.apply(world.call(true));
    ObservedRequests failed = copyOf(world);
    failed.deletionTimestamp = world.deletionTimestamp;
    ObjectNode failedStatus =
        failed.children.get("Job/orders-final-backup").putObject("status").put("failed", 3);
    failedStatus
        .putArray("conditions")
        .addObject()
        .put("type", "Failed")
        .put("status", "True")
        .put("lastTransitionTime", "2026-01-01T00:12:00Z");
    write("finalize/11-final-backup-failed-keeps-everything", failed, true);
    ObjectNode done =
        world
            .children
            .get("Job/orders-final-backup")
            .putObject("status")
            .put("succeeded", 1)
            .put("completionTime", "2026-01-01T00:12:00Z");
    done.putArray("conditions").addObject().put("type", "Complete").put("status", "True");
    write("finalize/12-final-backup-complete-deletion-goes-on", world, true);
  }

  /**
   * A cluster that archives into the layout before each incarnation had its own archive ({@code <namespace>/<name>})
   * keeps it: read back from its StatefulSet, and from its status while the StatefulSet is gone (numbered from 110).
   */
  @Test
  void archiveLayoutScenario() throws IOException {
    ObjectNode spec = BackupEnvironmentTest.withBackup(Json.object().put("instances", 2));
    spec.with("backup").putObject("logical").put("schedule", "30 2 * * *");
    ObservedRequests world = new ObservedRequests("orders", spec);
    world.sync();
    world.runAllReady();
    world.sync();
    String before = "s3://pg-backups/shop/orders";
    for (com.fasterxml.jackson.databind.JsonNode variable :
        world.children.get("StatefulSet/orders").at("/spec/template/spec/containers/0/env")) {
      if (variable.path("name").asText().equals("WALE_S3_PREFIX")) {
        ((ObjectNode) variable).put("value", before);
      }
    }
    ((ObjectNode) world.status.get("backup")).put("location", before);
    write("sync/110-archive-of-the-layout-before-kept-from-the-statefulset", world, false);
    world.children.remove("StatefulSet/orders");
    write(
        "sync/111-archive-of-the-layout-before-kept-from-status-without-statefulset", world, false);
  }

  /** spec.backup.encryption: WAL-G's libsodium key and the store's KMS encryption, on a first sync. */
  @Test
  void encryptionScenario() throws IOException {
    ObjectNode spec = BackupEncryptionTest.libsodiumAndKms();
    spec.with("backup").putObject("logical").put("schedule", "30 2 * * *");
    write("sync/112-backup-encryption-first-sync", new ObservedRequests("orders", spec), false);
  }

  /** spec.networkPolicy and spec.tls on a running cluster (numbered from 60, apart from the other features). */
  @Test
  void tlsAndNetworkPolicyScenario() throws IOException {
    ObservedRequests world = TlsWorlds.running();
    world.hookVersion = "v2";
    world.edit(
        spec -> {
          ObjectNode policy = spec.putObject("networkPolicy").put("enabled", true);
          policy
              .putArray("clients")
              .addObject()
              .putObject("podSelector")
              .putObject("matchLabels")
              .put("app", "shop");
          policy
              .putObject("monitoring")
              .putObject("namespaceSelector")
              .putObject("matchLabels")
              .put("kubernetes.io/metadata.name", "monitoring");
        });
    write("sync/60-network-policy-enabled", world, false);
    world.sync();
    world.edit(
        spec -> spec.putObject("tls").put("secretName", TlsWorlds.SECRET).put("restApi", true));
    writeCustomize("customize/60-given-secrets-related-by-label", world);
    write("sync/61-tls-secret-missing-nothing-restarts", world, false);
    world.sync();
    dev.metahooks.testsupport.TestCertificates certs =
        dev.metahooks.testsupport.TestCertificates.create();
    certs.ca("ca");
    certs.server(
        "server",
        "ca",
        java.util.List.of(
            "orders-rw.shop.svc",
            "orders-ro.shop.svc",
            "*.orders-hl.shop.svc",
            "orders-hl.shop.svc"),
        3650);
    world.relatedSecrets.put(TlsWorlds.SECRET, TlsWorlds.tlsSecret(certs, keys -> {}));
    write("sync/62-tls-secret-added-pods-roll-uris-verify-full", world, false);
    world.sync();
    world.runAllReady();
    world.sync();
    world.relatedSecrets.put(
        TlsWorlds.SECRET, TlsWorlds.tlsSecret(certs, keys -> keys.remove("ca.crt")));
    write("sync/63-tls-secret-invalid-pods-kept", world, false);
    world.sync();
    world.edit(spec -> spec.putObject("pooler"));
    write("sync/64-network-policy-over-the-pooler", world, false);
  }

  /** spec.scheduling (numbered from 80): a new cluster with the docs' example, a running one given it, a refusal. */
  @Test
  void schedulingScenario() throws IOException {
    ObjectNode example = SchedulingTest.docsExample();
    ObservedRequests created = new ObservedRequests("orders", example.deepCopy());
    created.hookVersion = "v2";
    created.edit(
        spec ->
            spec.putArray("users")
                .addObject()
                .put("name", "orders-app")
                .putArray("databases")
                .add("orders"));
    write("sync/80-scheduling-first-sync-database-pooler-and-jobs-placed", created, false);

    ObservedRequests running = TlsWorlds.running();
    running.hookVersion = "v2";
    ObservedRequests refused = copyOf(running);
    running.edit(spec -> spec.set("scheduling", example.get("scheduling").deepCopy()));
    write("sync/81-scheduling-added-to-a-running-cluster-starts-the-rollout", running, false);
    refused.edit(
        spec ->
            spec.putObject("scheduling")
                .putObject("database")
                .putObject("podLabels")
                .put("cluster-name", "other")
                .put("team", "payments"));
    write("sync/82-scheduling-label-the-operator-selects-by-refused", refused, false);
  }

  /** spec.storage.wal (numbered 83-84): a new cluster with the docs' example; added to a running cluster, refused. */
  @Test
  void walVolumeScenario() throws IOException {
    ObservedRequests created = new ObservedRequests("orders", WalVolumeTest.docsExample());
    created.hookVersion = "v2";
    write("sync/83-wal-volume-first-sync-second-claim-template-and-waldir", created, false);

    ObservedRequests running = TlsWorlds.running();
    running.hookVersion = "v2";
    running.edit(spec -> spec.putObject("storage").putObject("wal").put("size", "5Gi"));
    write("sync/84-wal-volume-added-to-a-running-cluster-refused", running, false);
  }

  /**
   * A larger storage.size (numbered 90-92): the resize Job while the StatefulSet keeps its claim template; the
   * StatefulSet deleted by the Job, answered again with the larger template; the claims grown, a file system still
   * to grow.
   */
  @Test
  void volumeGrowthScenario() throws IOException {
    ObservedRequests world = TlsWorlds.running();
    world.hookVersion = "v2";
    world.relateVolumes("standard", true);
    world.edit(spec -> spec.putObject("storage").put("size", "20Gi"));
    write("sync/90-volume-growth-resize-job-statefulset-keeps-its-template", world, false);
    world.sync();
    // What the Job did: each claim's request patched (the volumes not grown yet), the StatefulSet
    // deleted.
    world
        .claims
        .values()
        .forEach(
            claim -> ((ObjectNode) claim.at("/spec/resources/requests")).put("storage", "20Gi"));
    world.children.remove("StatefulSet/" + world.name);
    world.children.keySet().stream()
        .filter(key -> key.startsWith("Job/" + world.name + "-resize-"))
        .forEach(
            key ->
                world
                    .children
                    .get(key)
                    .putObject("status")
                    .put("succeeded", 1)
                    .putArray("conditions")
                    .addObject()
                    .put("type", "Complete")
                    .put("status", "True"));
    write(
        "sync/91-volume-growth-statefulset-deleted-answered-with-the-larger-template",
        world,
        false);
    world.sync();
    world.runAllReady();
    // Member 0's volume grew and waits for its file system; member 1's is done; member 2's has not
    // grown yet.
    ObjectNode first = (ObjectNode) world.claims.get("pgdata-orders-0").get("status");
    first.withObjectProperty("capacity").put("storage", "20Gi");
    first
        .putArray("conditions")
        .addObject()
        .put("type", "FileSystemResizePending")
        .put("status", "True")
        .put(
            "message",
            "Waiting for user to (re-)start a pod to finish file system resize of volume on node.");
    world
        .claims
        .get("pgdata-orders-1")
        .withObjectProperty("status")
        .withObjectProperty("capacity")
        .put("storage", "20Gi");
    write("sync/92-volume-growth-claims-expanding-file-system-resize-pending", world, false);
  }

  /**
   * spec.standby (numbered 93-96): the docs' archive example created, following with Patroni's standby leader,
   * promoted by removing spec.standby, and a promotion into the prefix the source still archives to, refused.
   */
  @Test
  void standbyScenario() throws IOException {
    ObservedRequests standby = StandbyClusterTest.archiveStandby();
    write("sync/93-standby-first-sync-standby-variables-source-passwords", standby, false);
    standby.sync();
    standby.runAllReady();
    standby
        .pods
        .get("orders-dr-0")
        .withObjectProperty("metadata")
        .withObjectProperty("annotations")
        .put(
            "status",
            "{\"role\":\"standby_leader\",\"state\":\"running\",\"xlog_location\":50331648}");
    write("sync/94-standby-following-no-users-job", standby, false);
    standby.sync();
    ObservedRequests refused = copyOf(standby);
    standby.edit(spec -> spec.remove("standby"));
    write("sync/95-standby-removed-parameters-job-promotes", standby, false);

    ObjectNode source =
        Json.object().put("apiVersion", "metahooks.dev/v1alpha1").put("kind", "PostgresCluster");
    source
        .putObject("metadata")
        .put("name", "orders")
        .put("namespace", ObservedRequests.NAMESPACE)
        .put("creationTimestamp", "2025-01-01T00:00:00Z");
    source
        .putObject("spec")
        .putObject("backup")
        .set("s3", refused.spec.at("/standby/s3").deepCopy());
    refused.otherClusters.put("orders", source);
    refused.edit(
        spec -> {
          spec.putObject("backup").set("s3", spec.at("/standby/s3").deepCopy());
          ((ObjectNode) spec.at("/backup/s3")).put("prefix", "shop/orders");
          spec.remove("standby");
        });
    write("sync/96-standby-promotion-into-the-sources-archive-refused", refused, false);
  }

  /**
   * A major upgrade (numbered 100-103): the docs' example at 16, without its window, asked for 17: waiting for its
   * base backup; the backup verified, the upgrade Job asked for; that Job failed (Spilo rolled back); and done.
   */
  @Test
  void majorUpgradeScenario() throws IOException {
    ObjectNode spec = (ObjectNode) MajorUpgradeScenarioTest.docsExample().get("spec");
    spec.put("postgresVersion", 16).withObjectProperty("updates").remove("maintenanceWindows");
    ObservedRequests world = new ObservedRequests("orders", spec);
    world.sync();
    world.runAllReady();
    world.sync();
    world.children.keySet().stream()
        .filter(key -> key.startsWith("Job/"))
        .forEach(
            key ->
                world
                    .children
                    .get(key)
                    .putObject("status")
                    .put("succeeded", 1)
                    .putArray("conditions")
                    .addObject()
                    .put("type", "Complete")
                    .put("status", "True"));
    world.sync();
    world.edit(s -> s.put("postgresVersion", 17));
    write("sync/100-major-upgrade-waits-for-its-base-backup", world, false);
    world.sync();
    world
        .children
        .get("Job/orders-upgrade-backup-17")
        .putObject("status")
        .put("succeeded", 1)
        .putArray("conditions")
        .addObject()
        .put("type", "Complete")
        .put("status", "True");
    write("sync/101-major-upgrade-backup-verified-upgrade-job-asked", world, false);
    world.sync();
    ObservedRequests failed = copyOf(world);
    failed
        .children
        .get("Job/orders-upgrade-17")
        .putObject("status")
        .put("failed", 1)
        .putArray("conditions")
        .addObject()
        .put("type", "Failed")
        .put("status", "True")
        .put("reason", "PodFailurePolicy")
        .put(
            "message",
            "Container upgrade for pod shop/orders-upgrade-17-8kq2d failed with exit code 10 matching "
                + "FailJob rule at index 0");
    write("sync/102-major-upgrade-job-failed-old-version-kept", failed, false);
    world
        .children
        .get("Job/orders-upgrade-17")
        .putObject("status")
        .put("succeeded", 1)
        .putArray("conditions")
        .addObject()
        .put("type", "Complete")
        .put("status", "True");
    write("sync/103-major-upgrade-done-statefulset-at-the-new-version", world, false);
  }

  private void invalid(
      ObservedRequests ready, String fixture, java.util.function.Consumer<ObjectNode> change)
      throws IOException {
    ObservedRequests world = copyOf(ready);
    world.edit(change);
    write(fixture, world, false);
  }

  /** A copy of a world in the same state (children, pods, status), for a branch of a scenario. */
  @Test
  void databasesScenario() throws Exception {
    ObservedRequests ha = readyHaSample();
    // The Databases example of the docs: orders moves from the user's databases to spec.databases.
    JsonNode example =
        new com.fasterxml.jackson.dataformat.yaml.YAMLMapper()
            .readTree(DatabasesEmulatorScenarioIT.docsExample())
            .get("spec");
    ha.edit(
        spec -> {
          ((ObjectNode) spec.withArray("users").get(0)).remove("databases");
          ((ObjectNode) spec.withArray("users").get(1))
              .putArray("connect")
              .add("orders")
              .add("orders archive");
          spec.set("databases", example.get("databases").deepCopy());
        });
    write("sync/85-databases-declared-new-users-job", ha, false);
    ha.sync();
    write("sync/86-databases-users-job-running", ha, false);
    ha.sync();
    ha.finishUsersJob(true);
    write("sync/87-databases-applied", ha, false);
    ha.sync();
    ha.edit(
        spec ->
            ((com.fasterxml.jackson.databind.node.ArrayNode) spec.at("/databases/0/extensions"))
                .add("no_such_extension"));
    ha.sync();
    ha.children.forEach(
        (key, child) -> {
          if (key.startsWith("Job/orders-users-")
              && !child.path("status").toString().contains("Complete")) {
            child
                .putObject("status")
                .put("failed", 7)
                .putArray("conditions")
                .addObject()
                .put("type", "Failed")
                .put("status", "True");
          }
        });
    write("sync/88-databases-extension-missing-users-job-failed", ha, false);
    ha.sync();
    ha.edit(spec -> ((ObjectNode) spec.at("/databases/1")).put("owner", "nobody"));
    write("sync/89-databases-owner-not-a-user-invalid", ha, false);
  }

  /** The HA sample (hook API v2) running, every instance ready, its users Job complete. */
  private static ObservedRequests readyHaSample() {
    ObservedRequests ha = ObservedRequests.fromSample("postgrescluster-ha.yaml");
    ha.hookVersion = "v2";
    ha.sync();
    ha.runAllReady();
    ha.finishUsersJob(true);
    ha.sync();
    return ha;
  }

  private static ObservedRequests copyOf(ObservedRequests world) {
    ObservedRequests copy = new ObservedRequests(world.name, world.spec.deepCopy());
    copy.hookVersion = world.hookVersion;
    copy.podMonitorsDeclared = world.podMonitorsDeclared;
    copy.generation = world.generation;
    copy.status = world.status == null ? null : world.status.deepCopy();
    world.children.forEach((k, v) -> copy.children.put(k, v.deepCopy()));
    world.pods.forEach((k, v) -> copy.pods.put(k, v.deepCopy()));
    world.configMaps.forEach((k, v) -> copy.configMaps.put(k, v.deepCopy()));
    copy.volumesRelated = world.volumesRelated;
    world.claims.forEach((k, v) -> copy.claims.put(k, v.deepCopy()));
    world.storageClasses.forEach((k, v) -> copy.storageClasses.put(k, v.deepCopy()));
    world.relatedSecrets.forEach((k, v) -> copy.relatedSecrets.put(k, v.deepCopy()));
    return copy;
  }

  private static void write(String fixture, ObservedRequests world, boolean finalizing)
      throws IOException {
    writeJson(ROOT.resolve(fixture + ".request.json"), world.request(finalizing));
  }

  private static void writeCustomize(String fixture, ObservedRequests world) throws IOException {
    ObjectNode request = Json.object();
    request.set("controller", ObservedRequests.controller(world.hookVersion));
    request.set("parent", world.parent());
    writeJson(ROOT.resolve(fixture + ".request.json"), request);
  }

  private static void writeJson(Path file, JsonNode json) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(
        file, JsonTrees.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n");
  }

  /** Moves every condition's lastTransitionTime back, as if the status had held for a while. */
  static final class ArrayNodeTimes {
    static void backdate(ObjectNode status, String time) {
      for (JsonNode condition : status.path("conditions")) {
        ((ObjectNode) condition).put("lastTransitionTime", time);
      }
    }
  }
}
