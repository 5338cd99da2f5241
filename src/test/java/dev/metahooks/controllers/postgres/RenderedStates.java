package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the hook renders for one cluster in each state that asks for a ServiceAccount or runs a pod, played through
 * {@link ObservedRequests} (the hook in-process, its answers applied): running with users, a pooler, the exporter, base
 * and logical backups and the store check; a rollout that restarts a pod and then switches over; a changed reloadable parameter;
 * a larger storage size; a major upgrade; a deletion whose cleanup Job removes Patroni's ConfigMaps. Every cluster
 * has three instances.
 */
final class RenderedStates {
  static final int INSTANCES = 3;

  /** Every child of every state's answer, by {@code kind/name}; of two of one name, the first rendered. */
  final Map<String, ObjectNode> children = new LinkedHashMap<>();

  final String cluster;
  final String namespace;

  private RenderedStates(String cluster, String namespace) {
    this.cluster = cluster;
    this.namespace = namespace;
  }

  static RenderedStates of(String cluster, String namespace) {
    RenderedStates states = new RenderedStates(cluster, namespace);
    states.running();
    states.rollout();
    states.parameters();
    states.resize();
    states.upgrade();
    states.cleanup();
    return states;
  }

  /** The children of one kind, in the order they were first rendered. */
  List<ObjectNode> ofKind(String kind) {
    List<ObjectNode> objects = new ArrayList<>();
    children.forEach(
        (key, child) -> {
          if (key.startsWith(kind + "/")) {
            objects.add(child);
          }
        });
    return objects;
  }

  ObjectNode get(String kind, String name) {
    ObjectNode child = children.get(kind + "/" + name);
    if (child == null) {
      throw new AssertionError(
          "no "
              + kind
              + " "
              + name
              + " rendered for "
              + cluster
              + "; rendered: "
              + children.keySet());
    }
    return child;
  }

  /** The pod templates of the rendered StatefulSets, Jobs, CronJobs and Deployments, by {@code kind/name}. */
  Map<String, JsonNode> podTemplates() {
    Map<String, JsonNode> pods = new LinkedHashMap<>();
    children.forEach(
        (key, child) -> {
          switch (child.path("kind").asText()) {
            case "StatefulSet", "Job", "Deployment" -> pods.put(key, child.at("/spec/template"));
            case "CronJob" -> pods.put(key, child.at("/spec/jobTemplate/spec/template"));
            default -> {
              // no pod
            }
          }
        });
    return pods;
  }

  private ObservedRequests world(ObjectNode spec) {
    return new ObservedRequests(cluster, spec.put("instances", INSTANCES), namespace);
  }

  private void keep(JsonNode answer) {
    for (JsonNode child : answer.path("children")) {
      children.putIfAbsent(
          child.path("kind").asText() + "/" + child.at("/metadata/name").asText(),
          (ObjectNode) child);
    }
  }

  static void settle(ObservedRequests world) {
    world.sync();
    world.runAllReady();
    world.sync();
  }

  private void running() {
    ObjectNode spec = BackupEnvironmentTest.withBackup(Json.object());
    spec.putArray("users").addObject().put("name", "shop").putArray("databases").add("shop");
    spec.putObject("pooler");
    spec.putObject("monitoring").put("enabled", true);
    ObjectNode backup = (ObjectNode) spec.get("backup");
    backup.putObject("logical").put("schedule", "30 2 * * *");
    backup.putArray("onDemand").addObject().put("name", "before-upgrade");
    backup.withArray("onDemand").addObject().put("name", "dump").put("method", "logical");
    ObservedRequests world = world(spec);
    settle(world);
    keep(world.sync());
  }

  /** A new template: the restart Job of the highest replica first, then, replicas updated, the switchover Job. */
  private void rollout() {
    ObservedRequests world = world(Json.object());
    settle(world);
    world.runPods(Set.of(), INSTANCES - 1, true);
    keep(world.sync());
    for (int ordinal = 0; ordinal < INSTANCES - 1; ordinal++) {
      world
          .pods
          .get(cluster + "-" + ordinal)
          .withObjectProperty("metadata")
          .withObjectProperty("labels")
          .put("controller-revision-hash", cluster + "-5f6b8c9d7a");
    }
    keep(world.sync());
  }

  private void parameters() {
    ObservedRequests world = world(Json.object());
    settle(world);
    world.edit(
        spec ->
            spec.withObjectProperty("postgresql")
                .withObjectProperty("parameters")
                .put("work_mem", "16MB"));
    keep(world.sync());
  }

  private void resize() {
    ObservedRequests world = world(Json.object());
    world.hookVersion = "v2";
    settle(world);
    world.relateVolumes("standard", true);
    world.edit(spec -> spec.putObject("storage").put("size", "2Gi"));
    keep(world.sync());
  }

  /** From 16 to 17, every precondition met, the primary on ordinal 1. */
  private void upgrade() {
    ObjectNode spec = Json.object().put("postgresVersion", 16);
    ObservedRequests world = world(spec);
    settle(world);
    world.finishUsersJob(true);
    world.sync();
    world.edit(s -> s.put("postgresVersion", 17));
    world.runPods(Set.of(), 1, false);
    keep(world.sync());
  }

  /** Deleted without protection: once the pods are gone, the cleanup Job for the ConfigMaps Patroni left. */
  private void cleanup() {
    ObservedRequests world = world(Json.object().put("deletionProtection", false));
    settle(world);
    world.patroniConfigMap("config");
    world.patroniConfigMap("leader");
    world.deletionTimestamp = "2026-01-01T00:00:00Z";
    world.apply(world.call(true));
    world.pods.clear();
    keep(world.call(true));
  }
}
