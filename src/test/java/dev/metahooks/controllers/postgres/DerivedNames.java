package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every name one cluster of a namespace takes, by {@code kind/name}, played through {@link ObservedRequests} (the hook
 * in-process): its children in each state that asks for one ({@link RenderedStates}' states; running with a network
 * policy, a final backup and the given on-demand backups; a logical restore; a major upgrade with its backup; a
 * deletion with its final backup), and the names Kubernetes and Patroni derive from them: the StatefulSet's pods
 * and claims, the CronJobs' Jobs, Patroni's ConfigMaps.
 */
final class DerivedNames {
  /** A CronJob's Job is {@code <cronjob>-<scheduled time in minutes>} (cronjob/utils.go, getJobName); one moment for all. */
  static final String CRON_MINUTES = "29412345";

  final Set<String> names = new TreeSet<>();

  /** The on-demand backup Jobs rendered, to show the entries reached the answer. */
  final Set<String> onDemandJobs = new TreeSet<>();

  private final String cluster;
  private final String namespace;

  private DerivedNames(String cluster, String namespace) {
    this.cluster = cluster;
    this.namespace = namespace;
  }

  /** The names that do not depend on on-demand entries: every state but the running one. */
  static DerivedNames ofStates(String cluster, String namespace) {
    DerivedNames derived = new DerivedNames(cluster, namespace);
    derived.keep(RenderedStates.of(cluster, namespace).children.values());
    derived.restore();
    derived.upgrade();
    derived.deletion();
    Names.patroniConfigMaps(cluster).forEach(name -> derived.names.add("ConfigMap/" + name));
    return derived;
  }

  /** The running cluster's names with these on-demand entries (alternately base and logical). */
  static DerivedNames ofRunning(String cluster, String namespace, List<String> onDemand) {
    DerivedNames derived = new DerivedNames(cluster, namespace);
    ObservedRequests world = derived.world(running(onDemand));
    RenderedStates.settle(world);
    derived.keep(world.sync().path("children"));
    for (JsonNode status : world.status.at("/backup/onDemand")) {
      derived.onDemandJobs.add(status.path("job").asText());
    }
    derived.onDemandJobs.retainAll(
        world.children.keySet().stream().map(key -> key.substring(key.indexOf('/') + 1)).toList());
    return derived;
  }

  static ObjectNode running(List<String> onDemand) {
    ObjectNode spec = BackupEnvironmentTest.withBackup(Json.object());
    spec.putArray("users").addObject().put("name", "shop").putArray("databases").add("shop");
    spec.putObject("pooler");
    spec.putObject("monitoring").put("enabled", true);
    spec.putObject("networkPolicy").put("enabled", true);
    ObjectNode backup = (ObjectNode) spec.get("backup");
    backup.put("finalBackup", true);
    backup.putObject("logical").put("schedule", "30 2 * * *");
    ArrayNode entries = backup.putArray("onDemand");
    for (int i = 0; i < onDemand.size(); i++) {
      entries
          .addObject()
          .put("name", onDemand.get(i))
          .put("method", i % 2 == 0 ? "base" : "logical");
    }
    return spec;
  }

  private ObservedRequests world(ObjectNode spec) {
    return new ObservedRequests(
        cluster, spec.put("instances", RenderedStates.INSTANCES), namespace);
  }

  /** Each child, and the names Kubernetes gives the objects it makes from them. */
  private void keep(Iterable<? extends JsonNode> children) {
    for (JsonNode child : children) {
      String kind = child.path("kind").asText();
      String name = child.at("/metadata/name").asText();
      names.add(kind + "/" + name);
      if (kind.equals("StatefulSet")) {
        for (int ordinal = 0; ordinal < child.at("/spec/replicas").asInt(); ordinal++) {
          names.add("Pod/" + name + "-" + ordinal);
          for (JsonNode claim : child.at("/spec/volumeClaimTemplates")) {
            names.add(
                "PersistentVolumeClaim/"
                    + claim.at("/metadata/name").asText()
                    + "-"
                    + name
                    + "-"
                    + ordinal);
          }
        }
      } else if (kind.equals("CronJob")) {
        names.add("Job/" + name + "-" + CRON_MINUTES);
      }
    }
  }

  /** A new cluster filled from another's logical backups: the restore Job, once the primary is ready. */
  private void restore() {
    ObjectNode spec = Json.object();
    spec.putObject("bootstrap")
        .putObject("logical")
        .put("cluster", "source")
        .putObject("s3")
        .put("bucket", "pg-backups")
        .put("prefix", namespace + "/source/source-uid")
        .put("endpoint", "https://minio.example:9000")
        .putObject("credentials")
        .put("secretName", "s3-creds");
    ObservedRequests world = world(spec);
    RenderedStates.settle(world);
    keep(world.sync().path("children"));
  }

  /** From 16 to 17 with backups: the backup Job for the upgrade, then, once it completed, the upgrade Job. */
  private void upgrade() {
    ObservedRequests world =
        world(BackupEnvironmentTest.withBackup(Json.object().put("postgresVersion", 16)));
    RenderedStates.settle(world);
    world.finishUsersJob(true);
    world.sync();
    world.edit(spec -> spec.put("postgresVersion", 17));
    keep(world.sync().path("children"));
    world.finishUsersJob(true);
    keep(world.sync().path("children"));
  }

  /** Deleted with a final backup: its Job. */
  private void deletion() {
    ObjectNode spec =
        BackupEnvironmentTest.withBackup(Json.object().put("deletionProtection", false));
    ((ObjectNode) spec.get("backup")).put("finalBackup", true);
    ObservedRequests world = world(spec);
    RenderedStates.settle(world);
    world.deletionTimestamp = "2026-01-01T00:00:00Z";
    keep(world.call(true).path("children"));
  }

  /** The names of {@code kind}, without it. */
  List<String> ofKind(String kind) {
    List<String> ofKind = new ArrayList<>();
    names.stream()
        .filter(name -> name.startsWith(kind + "/"))
        .forEach(name -> ofKind.add(name.substring(kind.length() + 1)));
    return ofKind;
  }
}
