package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.TreeMap;

/**
 * The StatefulSet controller, as far as a scenario needs it: Pods {@code <set>-<ordinal>} for every ordinal
 * below {@code spec.replicas} (template labels and annotations, plus {@code statefulset.kubernetes.io/pod-name},
 * {@code apps.kubernetes.io/pod-index} and {@code controller-revision-hash}), a claim per volume claim template
 * and ordinal ({@code <template>-<set>-<ordinal>}), Pods above the count deleted highest first, and a
 * {@code RollingUpdate} that replaces out-of-date Pods highest first. With {@code OrderedReady} (the default)
 * one Pod is created or deleted per step, and only while the lower ordinals are Running and Ready; with
 * {@code Parallel} all at once. Claims follow {@code persistentVolumeClaimRetentionPolicy}: kept by default,
 * owned by the StatefulSet under {@code whenDeleted: Delete}, deleted with their Pod under
 * {@code whenScaled: Delete}. The status is counted from the Pods; {@code currentRevision} moves to the update
 * revision once every Pod is updated and ready, as Kubernetes completes a rolling update, and never under
 * {@code OnDelete}, which replaces no Pod by itself: a Pod deleted by someone else comes back from the update
 * revision.
 */
final class StatefulSetPods {
  static final String POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
  static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
  static final String REVISION_LABEL = "controller-revision-hash";

  private StatefulSetPods() {}

  static void step(Cluster cluster) {
    for (ObjectNode set : cluster.list("apps/v1", "StatefulSet")) {
      if (!Meta.deleting(set)) {
        reconcile(cluster, set);
      }
    }
  }

  private static void reconcile(Cluster cluster, ObjectNode set) {
    JsonNode spec = set.path("spec");
    int replicas = spec.path("replicas").isNumber() ? spec.path("replicas").asInt() : 1;
    boolean ordered = !"Parallel".equals(spec.path("podManagementPolicy").asText("OrderedReady"));
    String updateRevision = Meta.name(set) + "-" + World.hash(spec.path("template"));
    boolean changed = false;

    Map<Integer, ObjectNode> pods = pods(cluster, set);
    for (int ordinal = 0; ordinal < replicas; ordinal++) {
      ObjectNode pod = pods.get(ordinal);
      if (pod == null) {
        try {
          createPod(cluster, set, ordinal, updateRevision);
        } catch (ApiException e) {
          // Refused (admission: PodPriority): the controller records FailedCreate and tries again
          // on its next sync, making no other change in this one (stateful_set_control.go:441-443,
          // processReplica returns the error).
          if (!e.is(ApiException.Reason.FORBIDDEN)) {
            throw e;
          }
          break;
        }
        changed = true;
        if (ordered) {
          break;
        }
      } else if (ordered && !runningAndReady(pod)) {
        break;
      }
    }
    pods = pods(cluster, set);
    boolean allReady = pods.values().stream().allMatch(StatefulSetPods::runningAndReady);
    if (!changed && (allReady || !ordered)) {
      for (int ordinal : pods.keySet().stream().sorted((a, b) -> b - a).toList()) {
        if (ordinal >= replicas) {
          deletePod(cluster, set, pods.get(ordinal));
          changed = true;
          if (ordered) {
            break;
          }
        }
      }
    }
    pods = pods(cluster, set);
    if (!changed
        && allReady
        && pods.size() == replicas
        && "RollingUpdate"
            .equals(spec.path("updateStrategy").path("type").asText("RollingUpdate"))) {
      int partition = spec.path("updateStrategy").path("rollingUpdate").path("partition").asInt(0);
      for (int ordinal = replicas - 1; ordinal >= partition; ordinal--) {
        ObjectNode pod = pods.get(ordinal);
        if (!updateRevision.equals(Meta.labels(pod).get(REVISION_LABEL))) {
          cluster.delete("v1", "Pod", Meta.namespace(pod), Meta.name(pod), Meta.uid(pod));
          break;
        }
      }
    }
    writeStatus(cluster, set, replicas, updateRevision);
  }

  /**
   * The Pods the set controls, by ordinal. An orphan (no controller) that the selector matches and that is named as
   * a member is adopted first, as Kubernetes' StatefulSet controller claims Pods (stateful_set.go,
   * getPodsForStatefulSet: ClaimPods with isMemberOf), so a set re-created over Pods orphaned by its predecessor
   * takes them over: same template, same revision label, nothing restarts.
   */
  private static Map<Integer, ObjectNode> pods(Cluster cluster, ObjectNode set) {
    Map<Integer, ObjectNode> pods = new TreeMap<>();
    String prefix = Meta.name(set) + "-";
    for (ObjectNode pod : cluster.list("v1", "Pod", Meta.namespace(set))) {
      JsonNode owner = Meta.controllerRef(pod);
      String name = Meta.name(pod);
      boolean member =
          name.startsWith(prefix) && name.substring(prefix.length()).matches("0|[1-9][0-9]*");
      if (owner == null
          && member
          && !Meta.deleting(pod)
          && Selectors.matches(set.path("spec").path("selector"), Meta.labels(pod))) {
        ObjectNode adopted = Trees.copy(pod);
        JsonNode refs = pod.path("metadata").path("ownerReferences");
        ArrayNode kept = Meta.metadata(adopted).putArray("ownerReferences");
        refs.forEach(ref -> kept.add(ref.deepCopy()));
        kept.add(Meta.controllerRefTo(set));
        pod = cluster.update(adopted);
        owner = Meta.controllerRef(pod);
      }
      if (owner != null && owner.path("uid").asText().equals(Meta.uid(set)) && member) {
        pods.put(Integer.parseInt(name.substring(prefix.length())), pod);
      }
    }
    return pods;
  }

  private static void createPod(Cluster cluster, ObjectNode set, int ordinal, String revision) {
    String name = Meta.name(set) + "-" + ordinal;
    JsonNode template = set.path("spec").path("template");
    ObjectNode pod = Trees.object().put("apiVersion", "v1").put("kind", "Pod");
    ObjectNode metadata =
        pod.putObject("metadata").put("name", name).put("namespace", Meta.namespace(set));
    ObjectNode labels = metadata.putObject("labels");
    Trees.stringMap(template.path("metadata").get("labels")).forEach(labels::put);
    labels.put(POD_NAME_LABEL, name);
    labels.put(POD_INDEX_LABEL, String.valueOf(ordinal));
    labels.put(REVISION_LABEL, revision);
    Map<String, String> annotations = Trees.stringMap(template.path("metadata").get("annotations"));
    if (!annotations.isEmpty()) {
      ObjectNode annotationNode = metadata.putObject("annotations");
      annotations.forEach(annotationNode::put);
    }
    metadata.putArray("ownerReferences").add(Meta.controllerRefTo(set));
    ObjectNode podSpec =
        template.path("spec").isObject()
            ? ((ObjectNode) template.get("spec")).deepCopy()
            : Trees.object();
    podSpec.put("hostname", name);
    if (set.path("spec").hasNonNull("serviceName")) {
      podSpec.put("subdomain", set.path("spec").path("serviceName").asText());
    }
    for (JsonNode claimTemplate : set.path("spec").path("volumeClaimTemplates")) {
      String claim = claimName(set, claimTemplate, ordinal);
      ensureClaim(cluster, set, claimTemplate, claim);
      ArrayNode volumes =
          podSpec.has("volumes") ? (ArrayNode) podSpec.get("volumes") : podSpec.putArray("volumes");
      volumes
          .addObject()
          .put("name", claimTemplate.path("metadata").path("name").asText())
          .putObject("persistentVolumeClaim")
          .put("claimName", claim);
    }
    pod.set("spec", podSpec);
    cluster.create(pod);
  }

  private static String claimName(ObjectNode set, JsonNode claimTemplate, int ordinal) {
    return claimTemplate.path("metadata").path("name").asText()
        + "-"
        + Meta.name(set)
        + "-"
        + ordinal;
  }

  /** Creates the claim unless it exists: a claim kept from an earlier Pod of the same ordinal is reused. */
  private static void ensureClaim(
      Cluster cluster, ObjectNode set, JsonNode claimTemplate, String name) {
    if (cluster.exists("v1", "PersistentVolumeClaim", Meta.namespace(set), name)) {
      return;
    }
    ObjectNode claim = Trees.object().put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
    ObjectNode metadata =
        claim.putObject("metadata").put("name", name).put("namespace", Meta.namespace(set));
    ObjectNode labels = metadata.putObject("labels");
    Trees.stringMap(claimTemplate.path("metadata").get("labels")).forEach(labels::put);
    Trees.stringMap(set.path("spec").path("selector").get("matchLabels")).forEach(labels::put);
    if ("Delete".equals(retention(set, "whenDeleted"))) {
      ObjectNode ref = metadata.putArray("ownerReferences").addObject();
      ref.put("apiVersion", "apps/v1")
          .put("kind", "StatefulSet")
          .put("name", Meta.name(set))
          .put("uid", Meta.uid(set));
    }
    claim.set(
        "spec",
        claimTemplate.path("spec").isObject()
            ? claimTemplate.get("spec").deepCopy()
            : Trees.object());
    cluster.create(claim);
  }

  /** Deletes a Pod above the count; under {@code whenScaled: Delete} its claims go with it (owned by the Pod). */
  private static void deletePod(Cluster cluster, ObjectNode set, ObjectNode pod) {
    if ("Delete".equals(retention(set, "whenScaled"))) {
      int ordinal = Integer.parseInt(Meta.name(pod).substring(Meta.name(set).length() + 1));
      for (JsonNode claimTemplate : set.path("spec").path("volumeClaimTemplates")) {
        cluster
            .find(
                "v1",
                "PersistentVolumeClaim",
                Meta.namespace(set),
                claimName(set, claimTemplate, ordinal))
            .ifPresent(
                claim -> {
                  ArrayNode refs = Meta.metadata(claim).putArray("ownerReferences");
                  refs.addObject()
                      .put("apiVersion", "v1")
                      .put("kind", "Pod")
                      .put("name", Meta.name(pod))
                      .put("uid", Meta.uid(pod));
                  cluster.update(claim);
                });
      }
    }
    cluster.delete("v1", "Pod", Meta.namespace(pod), Meta.name(pod), Meta.uid(pod));
  }

  private static String retention(ObjectNode set, String field) {
    return set.path("spec")
        .path("persistentVolumeClaimRetentionPolicy")
        .path(field)
        .asText("Retain");
  }

  /** Counts from the Pods, zero counts left out as Kubernetes does (replicas and availableReplicas always). */
  private static void writeStatus(
      Cluster cluster, ObjectNode set, int replicas, String updateRevision) {
    Map<Integer, ObjectNode> pods = pods(cluster, set);
    long ready = pods.values().stream().filter(StatefulSetPods::runningAndReady).count();
    long updated =
        pods.values().stream()
            .filter(p -> updateRevision.equals(Meta.labels(p).get(REVISION_LABEL)))
            .count();
    String currentRevision = set.path("status").path("currentRevision").asText(updateRevision);
    // As Kubernetes completes a rolling update: every Pod updated and ready; never under OnDelete
    // (stateful_set_control.go, completeRollingUpdate).
    if ("RollingUpdate"
            .equals(set.path("spec").path("updateStrategy").path("type").asText("RollingUpdate"))
        && updated == replicas
        && ready == replicas
        && pods.size() == replicas) {
      currentRevision = updateRevision;
    }
    String current = currentRevision;
    long currentCount =
        pods.values().stream()
            .filter(p -> current.equals(Meta.labels(p).get(REVISION_LABEL)))
            .count();
    ObjectNode status = Trees.object().put("observedGeneration", Meta.generation(set));
    status.put("replicas", pods.size());
    putIfNonZero(status, "readyReplicas", ready);
    putIfNonZero(status, "currentReplicas", currentCount);
    putIfNonZero(status, "updatedReplicas", updated);
    status.put("availableReplicas", ready);
    status.put("currentRevision", currentRevision);
    status.put("updateRevision", updateRevision);
    status.put("collisionCount", 0);
    ObjectNode live = cluster.get("apps/v1", "StatefulSet", Meta.namespace(set), Meta.name(set));
    if (!Trees.same(live.get("status"), status)) {
      live.set("status", status);
      cluster.updateStatus(live);
    }
  }

  private static void putIfNonZero(ObjectNode status, String field, long value) {
    if (value != 0) {
      status.put(field, value);
    }
  }

  static boolean runningAndReady(JsonNode pod) {
    return World.stateOf(pod.path("status")) == PodState.READY && !Meta.deleting(pod);
  }
}
