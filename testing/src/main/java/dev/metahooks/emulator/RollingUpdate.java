package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.ApiException.Reason;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rolling child updates (docs/metacontroller.md, section 9): one hook call per parent revision, revisions and their child
 * claims kept in ControllerRevision objects, and at most one child moved to the latest revision per sync,
 * only while the children already there are up to date and pass their status checks.
 */
final class RollingUpdate {
  static final String REVISION_API_VERSION = "metacontroller.k8s.io/v1alpha1";

  /** A parent revision: the parent as that revision saw it, its ControllerRevision, and its hook answer. */
  private static final class Revision {
    final ObjectNode parent;
    ObjectNode revision;
    ObjectNode answer;

    /** Desired children by {@code group/kind/name}, in the order the hook returned them. */
    final Map<String, ObjectNode> desired = new LinkedHashMap<>();

    Revision(ObjectNode parent, ObjectNode revision) {
      this.parent = parent;
      this.revision = revision;
    }
  }

  private final CompositeLoop loop;
  private final Cluster cluster;
  private final ObjectNode parent;
  private final ObjectGroups observed;
  private final ObjectGroups related;
  private final Webhook hook;
  private final boolean finalizing;
  private final boolean faithful;

  /** Which revision claims a child, by {@code group/kind/name}. */
  private final Map<String, Revision> claimed = new LinkedHashMap<>();

  RollingUpdate(
      CompositeLoop loop,
      ObjectNode parent,
      ObjectGroups observed,
      ObjectGroups related,
      Webhook hook,
      boolean finalizing) {
    this.loop = loop;
    this.cluster = loop.cluster;
    this.parent = parent;
    this.observed = observed;
    this.related = related;
    this.hook = hook;
    this.finalizing = finalizing;
    this.faithful = loop.mc.profile().faithful();
  }

  CompositeLoop.Outcome sync() {
    if (!loop.parentType.namespaced()) {
      throw new SyncFailure(
          "rolling updates need a namespaced parent (ControllerRevisions are namespaced)");
    }
    List<ObjectNode> observedRevisions = claimRevisions();
    ObjectNode latestPatch = patchOf(parent);
    Revision latest = new Revision(parent, null);
    List<Revision> revisions = new ArrayList<>();
    revisions.add(latest);
    for (ObjectNode stored : observedRevisions) {
      JsonNode patch = stored.path("parentPatch");
      if (Trees.same(patch, latestPatch)) {
        latest.revision = Trees.copy(stored);
      } else {
        ObjectNode old = Trees.copy(parent);
        for (String path : loop.revisionFieldPaths) {
          JsonNode value = Trees.at(patch, path);
          if (value != null) {
            Trees.setAt(old, path, value);
          }
        }
        revisions.add(new Revision(old, Trees.copy(stored)));
      }
    }
    if (latest.revision == null) {
      latest.revision = newRevision(latestPatch);
    }
    List<ObjectNode> answers =
        loop.callConcurrently(
            hook,
            revisions.stream()
                .map(
                    r ->
                        Meta.describe(parent)
                            + (r == latest ? "" : " (revision " + Meta.name(r.revision) + ")"))
                .toList(),
            revisions.stream()
                .map(r -> loop.request(r.parent, observed, related, hook, finalizing))
                .toList(),
            Webhook.Answer.COMPOSITE);
    for (int i = 0; i < revisions.size(); i++) {
      revisions.get(i).answer = answers.get(i);
    }
    for (Revision revision : revisions) {
      for (ObjectNode child : loop.withNamespaceDefaults(parent, revision.answer.get("children"))) {
        if (!faithful) {
          // Intended: the label is added before comparing, so an up-to-date child compares equal to
          // its
          // desired state. v4.17.2 adds it only after the rollout decisions
          // (composite/controller.go:699-706).
          loop.addControllerUid(parent, child);
        }
        revision.desired.put(childKey(child), child);
      }
    }
    JsonNode status = latest.answer.get("status");
    if (status == null || !status.isObject()) {
      // SetCondition sets "conditions" in the answer's status map, nil when absent or null:
      // assignment to an
      // entry in a nil map (pkg/dynamic/object/status.go:94, from
      // composite/rolling_update.go:121/141/155).
      throw loop.crash(
          parent,
          "with a rolling update strategy the sync answer has no status: assignment to entry "
              + "in nil map",
          "pkg/dynamic/object/status.go:94");
    }
    ObjectNode latestStatus = Trees.copy((ObjectNode) status);
    ObjectNode condition = roll(latest, revisions);
    setCondition(latestStatus, condition, faithful);

    List<Revision> kept = new ArrayList<>();
    kept.add(latest);
    revisions.stream().skip(1).filter(r -> !names(r.revision).isEmpty()).forEach(kept::add);
    manageRevisions(observedRevisions, kept);

    Map<String, ObjectNode> children = new LinkedHashMap<>(latest.desired);
    for (Revision revision : kept.subList(1, kept.size())) {
      for (String key : names(revision.revision)) {
        ObjectNode child = revision.desired.get(key);
        if (child != null) {
          children.put(key, child);
        }
      }
    }
    double resync = 0;
    boolean finalized = true;
    for (Revision revision : revisions) {
      double seconds = revision.answer.path("resyncAfterSeconds").asDouble(0);
      if (seconds > 0 && (resync == 0 || seconds < resync)) {
        resync = seconds;
      }
      finalized &= revision.answer.path("finalized").asBoolean(false);
    }
    return new CompositeLoop.Outcome(
        latestStatus, new ArrayList<>(children.values()), resync, finalized);
  }

  /**
   * ControllerRevisions of the parent's namespace claimed as children are (controller_revision.go:50-78,
   * dynamic/controllerref/controller_revision.go): by the parent's selector plus the apiGroup and resource
   * labels; owned ones that stopped matching are released, matching orphans adopted.
   */
  private List<ObjectNode> claimRevisions() {
    ObjectNode selector = Trees.copy((ObjectNode) loop.selector(parent));
    selector
        .with("matchLabels")
        .put("metacontroller.k8s.io/apiGroup", loop.parentType.group())
        .put("metacontroller.k8s.io/resource", loop.parentType.plural());
    List<ObjectNode> claimed = new ArrayList<>();
    for (ObjectNode revision :
        cluster.list(REVISION_API_VERSION, "ControllerRevision", Meta.namespace(parent))) {
      JsonNode ref = Meta.controllerRef(revision);
      boolean matches = Selectors.matches(selector, Meta.labels(revision));
      if (ref != null && !ref.path("uid").asText().equals(Meta.uid(parent))) {
        continue;
      }
      ObjectNode next = Trees.copy(revision);
      if (ref != null && matches) {
        claimed.add(revision);
        continue;
      }
      if (ref != null) {
        ArrayNode kept = Trees.array();
        revision
            .path("metadata")
            .path("ownerReferences")
            .forEach(
                r -> {
                  if (!r.path("uid").asText().equals(Meta.uid(parent))) {
                    kept.add(r.deepCopy());
                  }
                });
        Meta.metadata(next).set("ownerReferences", kept);
      } else if (matches && !Meta.deleting(parent) && !Meta.deleting(revision)) {
        Meta.metadata(next).withArray("ownerReferences").add(Meta.controllerRefTo(parent));
      } else {
        continue;
      }
      try {
        ObjectNode written = cluster.update(next);
        if (ref == null) {
          claimed.add(written);
        }
      } catch (ApiException e) {
        throw new SyncFailure("can't claim ControllerRevisions: " + e.getMessage());
      }
    }
    return claimed;
  }

  /** Moves claims towards the latest revision; returns the Updated condition to report. */
  private ObjectNode roll(Revision latest, List<Revision> revisions) {
    syncClaims(latest, revisions);
    for (Map.Entry<String, ObjectNode> entry : latest.desired.entrySet()) {
      String key = entry.getKey();
      if (!rolling(key)) {
        continue;
      }
      Revision owner = claimed.get(key);
      if (owner == null) {
        claim(latest, key);
        continue;
      }
      if (owner == latest) {
        continue;
      }
      ObjectNode child = observedChild(key);
      if (child == null) {
        continue;
      }
      try {
        if (loop.equal(child, DynamicApply.update(child, entry.getValue(), loop.mc.profile()))) {
          removeName(owner.revision, key);
          claim(latest, key);
        }
      } catch (IllegalArgumentException e) {
        // Can't prove the move is a no-op: leave it for the one-by-one rollout.
      }
    }
    JsonNode returned = latest.answer.get("children");
    for (JsonNode child : returned == null ? Trees.array() : returned) {
      String key = childKey((ObjectNode) child);
      if (!rolling(key) || claimed.get(key) == latest) {
        continue;
      }
      String waiting = whyNotContinue(latest);
      if (waiting != null) {
        return condition("False", "RolloutWaiting", waiting);
      }
      claim(latest, key);
      revisions.stream().skip(1).forEach(r -> removeName(r.revision, key));
      return condition(
          "False", "RolloutProgressing", "updating " + Meta.kind(child) + " " + Meta.name(child));
    }
    return condition(
        "True", "OnLatestRevision", "latest ControllerRevision: " + Meta.name(latest.revision));
  }

  /** Drops claims of kinds no longer rolling and of children the latest revision no longer wants; latest wins. */
  private void syncClaims(Revision latest, List<Revision> revisions) {
    for (Revision revision : revisions) {
      ArrayNode kept = Trees.array();
      for (JsonNode group : revision.revision.path("children")) {
        String apiGroup = group.path("apiGroup").asText();
        String kind = group.path("kind").asText();
        CompositeLoop.ChildType type = loop.childType(apiGroup, kind);
        if (type == null || !type.rolling()) {
          continue;
        }
        ArrayNode names = Trees.array();
        for (JsonNode name : group.path("names")) {
          String key = apiGroup + "/" + kind + "/" + name.asText();
          if (!latest.desired.containsKey(key) || claimed.containsKey(key)) {
            continue;
          }
          claimed.put(key, revision);
          names.add(name.asText());
        }
        if (!names.isEmpty()) {
          ObjectNode entry = kept.addObject();
          entry.put("apiGroup", apiGroup).put("kind", kind).set("names", names);
        }
      }
      revision.revision.set("children", kept);
    }
  }

  /** Null when every child on the latest revision exists, is up to date and passes its checks. */
  private String whyNotContinue(Revision latest) {
    for (String key : names(latest.revision)) {
      String[] parts = key.split("/", 3);
      CompositeLoop.ChildType type = loop.childType(parts[0], parts[1]);
      if (type == null || !type.rolling()) {
        continue;
      }
      ObjectNode child = observedChild(key);
      if (child == null) {
        return "missing child " + parts[1] + " " + parts[2];
      }
      ObjectNode desired = latest.desired.get(key);
      try {
        if (desired == null
            || !loop.equal(child, DynamicApply.update(child, desired, loop.mc.profile()))) {
          return "child " + parts[1] + " " + parts[2] + " is not updated yet";
        }
      } catch (IllegalArgumentException e) {
        return "can't check if child "
            + parts[1]
            + " "
            + parts[2]
            + " is updated: "
            + e.getMessage();
      }
      if (type.method().equals("RollingInPlace")) {
        long observedGeneration = child.path("status").path("observedGeneration").asLong(0);
        if (observedGeneration > 0 && observedGeneration < Meta.generation(child)) {
          return "child "
              + parts[1]
              + " "
              + parts[2]
              + " with RollingInPlace update strategy hasn't observed "
              + "latest spec";
        }
      }
      String failed = statusCheck(type.statusChecks(), child);
      if (failed != null) {
        return "child " + parts[1] + " " + parts[2] + " failed status check: " + failed;
      }
    }
    return null;
  }

  private static String statusCheck(JsonNode checks, ObjectNode child) {
    for (JsonNode check : checks.path("conditions")) {
      String type = check.path("type").asText();
      JsonNode condition = null;
      for (JsonNode c : child.path("status").path("conditions")) {
        if (c.path("type").asText().equals(type)) {
          condition = c;
          break;
        }
      }
      if (condition == null) {
        return "required condition type missing: \"" + type + "\"";
      }
      for (String field : List.of("status", "reason")) {
        if (check.hasNonNull(field)
            && !check.get(field).asText().equals(condition.path(field).asText())) {
          return "\""
              + type
              + "\" condition "
              + field
              + " is \""
              + condition.path(field).asText()
              + "\" (want \""
              + check.get(field).asText()
              + "\")";
        }
      }
    }
    return null;
  }

  private void manageRevisions(List<ObjectNode> observedRevisions, List<Revision> desired) {
    List<String> desiredNames = desired.stream().map(r -> Meta.name(r.revision)).toList();
    for (ObjectNode stored : observedRevisions) {
      if (!desiredNames.contains(Meta.name(stored))) {
        try {
          cluster.delete(
              REVISION_API_VERSION,
              "ControllerRevision",
              Meta.namespace(stored),
              Meta.name(stored),
              Meta.uid(stored));
        } catch (ApiException e) {
          if (!e.is(Reason.NOT_FOUND)) {
            throw new SyncFailure(
                "can't delete ControllerRevision " + Meta.name(stored) + ": " + e.getMessage());
          }
        }
      }
    }
    for (Revision revision : desired) {
      boolean exists =
          observedRevisions.stream()
              .anyMatch(r -> Meta.name(r).equals(Meta.name(revision.revision)));
      try {
        if (exists) {
          cluster.update(revision.revision);
        } else {
          cluster.create(revision.revision);
        }
      } catch (ApiException e) {
        throw new SyncFailure(
            "can't reconcile ControllerRevision "
                + Meta.name(revision.revision)
                + ": "
                + e.getMessage());
      }
    }
  }

  private ObjectNode newRevision(ObjectNode patch) {
    ObjectNode revision = Trees.object();
    revision.put("apiVersion", REVISION_API_VERSION).put("kind", "ControllerRevision");
    ObjectNode metadata = revision.putObject("metadata");
    String group = loop.parentType.group().isEmpty() ? "core" : loop.parentType.group();
    metadata.put(
        "name",
        loop.parentType.plural()
            + "."
            + group
            + "-"
            + sha1(Meta.uid(parent) + Trees.canonical(patch)));
    metadata.put("namespace", Meta.namespace(parent));
    ObjectNode labels = metadata.putObject("labels");
    if (loop.generateSelector) {
      labels.put("controller-uid", Meta.uid(parent));
    } else {
      Trees.stringMap(Trees.at(parent, "spec.template.metadata.labels")).forEach(labels::put);
    }
    labels.put("metacontroller.k8s.io/apiGroup", loop.parentType.group());
    labels.put("metacontroller.k8s.io/resource", loop.parentType.plural());
    metadata.putArray("ownerReferences").add(Meta.controllerRefTo(parent));
    revision.set("parentPatch", patch);
    revision.putArray("children");
    return revision;
  }

  private ObjectNode patchOf(ObjectNode object) {
    ObjectNode patch = Trees.object();
    for (String path : loop.revisionFieldPaths) {
      JsonNode value = Trees.at(object, path);
      if (value != null) {
        Trees.setAt(patch, path, value);
      }
    }
    return patch;
  }

  private boolean rolling(String key) {
    String[] parts = key.split("/", 3);
    CompositeLoop.ChildType type = loop.childType(parts[0], parts[1]);
    return type != null && type.rolling();
  }

  /**
   * The observed child a claim names. v4.17.2 looks it up by bare name in a map keyed {@code namespace/name}
   * (composite/rolling_update.go:66 and :176 through api/v2/common.go FindGroupKindName, since v4.10.3), so
   * a namespaced child is never found: none moves early, and once one child is on the latest revision the
   * rollout waits for a "missing child" forever.
   */
  private ObjectNode observedChild(String key) {
    String[] parts = key.split("/", 3);
    return faithful
        ? observed.findByKey(parts[0], parts[1], parts[2])
        : observed.find(parts[0], parts[1], Meta.namespace(parent), parts[2]);
  }

  private void claim(Revision revision, String key) {
    String[] parts = key.split("/", 3);
    ArrayNode groups = revision.revision.withArray("children");
    ObjectNode group = null;
    for (JsonNode g : groups) {
      if (g.path("apiGroup").asText().equals(parts[0])
          && g.path("kind").asText().equals(parts[1])) {
        group = (ObjectNode) g;
      }
    }
    if (group == null) {
      group = groups.addObject().put("apiGroup", parts[0]).put("kind", parts[1]);
      group.putArray("names");
    }
    ArrayNode names = group.withArray("names");
    boolean present = false;
    for (JsonNode n : names) {
      present |= n.asText().equals(parts[2]);
    }
    if (!present) {
      names.add(parts[2]);
    }
    claimed.put(key, revision);
  }

  private static void removeName(ObjectNode revision, String key) {
    String[] parts = key.split("/", 3);
    for (JsonNode group : revision.path("children")) {
      if (group.path("apiGroup").asText().equals(parts[0])
          && group.path("kind").asText().equals(parts[1])) {
        ArrayNode names = (ArrayNode) group.path("names");
        for (int i = names.size() - 1; i >= 0; i--) {
          if (names.get(i).asText().equals(parts[2])) {
            names.remove(i);
          }
        }
      }
    }
  }

  /** The claimed children of a revision as {@code group/kind/name}. */
  private static List<String> names(ObjectNode revision) {
    List<String> keys = new ArrayList<>();
    for (JsonNode group : revision.path("children")) {
      for (JsonNode name : group.path("names")) {
        keys.add(
            group.path("apiGroup").asText()
                + "/"
                + group.path("kind").asText()
                + "/"
                + name.asText());
      }
    }
    return keys;
  }

  private static String childKey(ObjectNode child) {
    return ApiResources.group(Meta.apiVersion(child))
        + "/"
        + Meta.kind(child)
        + "/"
        + Meta.name(child);
  }

  private static ObjectNode condition(String status, String reason, String message) {
    ObjectNode condition = Trees.object();
    condition
        .put("type", "Updated")
        .put("status", status)
        .put("reason", reason)
        .put("message", message);
    return condition;
  }

  /**
   * Writes the {@code Updated} condition into the answer's status. v4.17.2 replaces an existing one in the copy
   * {@code NestedSlice} returned and never sets it back (pkg/dynamic/object/status.go:82-88), so a hook's own
   * {@code Updated} condition stays as the hook wrote it; only a missing one is appended. Conditions that are
   * not a list fail the sync there (NestedSlice's accessor error, status.go:77-79).
   */
  private static void setCondition(ObjectNode status, ObjectNode condition, boolean faithful) {
    JsonNode conditions = status.get("conditions");
    if (faithful && conditions != null && !conditions.isArray()) {
      throw new SyncFailure(
          ".conditions accessor error: "
              + conditions
              + " is of the type "
              + conditions.getNodeType().name().toLowerCase()
              + ", expected []interface{}");
    }
    if (conditions != null && conditions.isArray()) {
      for (int i = 0; i < conditions.size(); i++) {
        if (conditions.get(i).path("type").asText().equals("Updated")) {
          if (!faithful) {
            ((ArrayNode) conditions).set(i, condition);
          }
          return;
        }
      }
      ((ArrayNode) conditions).add(condition);
    } else {
      status.putArray("conditions").add(condition);
    }
  }

  private static String sha1(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
