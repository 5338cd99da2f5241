package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.ApiException.Reason;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** One CompositeController: its parents' sync sequence as Metacontroller runs it (docs/metacontroller.md, section 8.1). */
final class CompositeLoop extends ControllerLoop {
  /** One declared child type with its update strategy. */
  record ChildType(
      String apiVersion, ApiResources.Type type, String method, JsonNode statusChecks) {
    boolean rolling() {
      return method.equals("RollingRecreate") || method.equals("RollingInPlace");
    }
  }

  /** What one sync (possibly several hook calls, for rolling updates) decided. */
  record Outcome(
      JsonNode status, List<ObjectNode> children, double resyncAfterSeconds, boolean finalized) {}

  final String parentApiVersion;
  final ApiResources.Type parentType;
  final JsonNode parentLabelSelector;
  final boolean generateSelector;
  final List<ChildType> childTypes = new ArrayList<>();
  final List<String> revisionFieldPaths = new ArrayList<>();

  CompositeLoop(Metacontroller mc, ObjectNode controller, URI baseUrl) {
    super(mc, controller, "metacontroller.io/compositecontroller-", baseUrl);
    JsonNode spec = controller.path("spec");
    JsonNode parentResource = spec.path("parentResource");
    parentApiVersion = parentResource.path("apiVersion").asText();
    parentType =
        cluster
            .resources()
            .requireResource(parentApiVersion, parentResource.path("resource").asText());
    if (!parentType.statusSubresource()) {
      throw new IllegalArgumentException(
          "CompositeController "
              + name
              + ": "
              + parentType.plural()
              + "."
              + parentType.group()
              + " does not have subresource 'Status' enabled, so Metacontroller would ignore "
              + "this controller");
    }
    parentLabelSelector = parentResource.get("labelSelector");
    parentResource
        .path("revisionHistory")
        .path("fieldPaths")
        .forEach(p -> revisionFieldPaths.add(p.asText()));
    if (revisionFieldPaths.isEmpty()) {
      revisionFieldPaths.add("spec");
    }
    generateSelector = spec.path("generateSelector").asBoolean(false);
    for (JsonNode child : spec.path("childResources")) {
      String apiVersion = child.path("apiVersion").asText();
      ApiResources.Type type =
          cluster.resources().requireResource(apiVersion, child.path("resource").asText());
      JsonNode strategy = child.path("updateStrategy");
      childTypes.add(
          new ChildType(
              apiVersion,
              type,
              strategy.path("method").asText("OnDelete"),
              strategy.path("statusChecks")));
    }
  }

  @Override
  void syncAll() {
    for (ObjectNode listed : cluster.list(parentApiVersion, parentType.kind())) {
      cluster
          .find(parentApiVersion, parentType.kind(), Meta.namespace(listed), Meta.name(listed))
          .filter(p -> Meta.uid(p).equals(Meta.uid(listed)))
          .ifPresent(parent -> mc.syncOne(this, parent, () -> sync(parent)));
    }
  }

  @Override
  Set<String> childKinds() {
    return childTypes.stream()
        .map(c -> c.type().group() + "/" + c.type().kind())
        .collect(Collectors.toSet());
  }

  @Override
  boolean mayAdopt(ObjectNode parent, ObjectNode orphan) {
    if (parentType.namespaced() && !Meta.namespace(parent).equals(Meta.namespace(orphan))) {
      return false;
    }
    try {
      return Selectors.matches(selector(parent), Meta.labels(orphan));
    } catch (SyncFailure e) {
      return false; // no usable selector: findPotentialParents skips the parent
    }
  }

  @Override
  boolean ignoresStatusChanges(ObjectNode parent) {
    return controller
        .path("spec")
        .path("parentResource")
        .path("ignoreStatusChanges")
        .asBoolean(false);
  }

  boolean anyRolling() {
    return childTypes.stream().anyMatch(ChildType::rolling);
  }

  ChildType childType(String apiGroup, String kind) {
    return childTypes.stream()
        .filter(c -> c.type().group().equals(apiGroup) && c.type().kind().equals(kind))
        .findFirst()
        .orElse(null);
  }

  private boolean matchesLabelSelector(ObjectNode parent) {
    return Selectors.matches(parentLabelSelector, Meta.labels(parent));
  }

  private void sync(ObjectNode observedParent) {
    ObjectNode parent = observedParent;
    if (!Meta.hasFinalizer(parent, finalizer) && !matchesLabelSelector(parent)) {
      return;
    }
    parent = syncFinalizer(parent);
    if (!Meta.hasFinalizer(parent, finalizer) && !matchesLabelSelector(parent)) {
      return;
    }
    JsonNode selector = selector(parent);
    ObjectGroups observed = claimChildren(parent, selector);
    ObjectGroups related = related(parent, parentType.namespaced());
    boolean finalizing =
        finalizeHook != null && (Meta.deleting(parent) || !matchesLabelSelector(parent));
    Webhook hook = finalizing ? finalizeHook : syncHook;
    if (hook == null) {
      throw new SyncFailure("sync hook not defined");
    }
    Outcome outcome =
        anyRolling() && !(Meta.deleting(parent) && !shouldFinalize(parent))
            ? new RollingUpdate(this, parent, observed, related, hook, finalizing).sync()
            : single(parent, observed, related, hook, finalizing);

    if (outcome.resyncAfterSeconds() > 0) {
      mc.resync(this, parent, outcome.resyncAfterSeconds());
    }
    if (outcome.finalized()) {
      parent = removeFinalizer(parent);
    }
    selector = selector(parent);
    List<ObjectNode> children = new ArrayList<>();
    for (ObjectNode child : outcome.children()) {
      ObjectNode object = Trees.copy(child);
      JsonNode labels = object.path("metadata").path("labels");
      if (!labels.isMissingNode() && !labels.isNull() && !(labels.isObject() && allText(labels))) {
        throw new SyncFailure(
            "invalid labels on desired child " + Meta.describe(object) + ": " + labels);
      }
      addControllerUid(parent, object);
      if (!Selectors.matches(selector, Meta.labels(object))) {
        throw new SyncFailure(
            "labels on desired child " + Meta.describe(object) + " don't match parent selector");
      }
      children.add(object);
    }
    List<String> manageErrors = List.of();
    if (!Meta.deleting(parent) || shouldFinalize(parent)) {
      manageErrors =
          manageChildren(
              parent,
              observed,
              desiredGroups(parent, children),
              type -> {
                ChildType childType = childType(type.group(), type.kind());
                return childType == null ? "OnDelete" : childType.method();
              });
    }
    ObjectNode status =
        outcome.status() != null && outcome.status().isObject()
            ? Trees.copy((ObjectNode) outcome.status())
            : Trees.object();
    status.put("observedGeneration", Meta.generation(parent));
    writeStatus(parent, Trees.normalize(status));
    if (!manageErrors.isEmpty()) {
      throw new SyncFailure(
          "can't reconcile children for " + Meta.describe(parent) + ": " + manageErrors);
    }
  }

  /** With generateSelector, the {@code controller-uid} label every child gets unless it has one. */
  void addControllerUid(ObjectNode parent, ObjectNode child) {
    if (generateSelector && !Meta.labels(child).containsKey("controller-uid")) {
      JsonNode existing = Meta.metadata(child).get("labels");
      ObjectNode labels =
          existing != null && existing.isObject()
              ? (ObjectNode) existing
              : Meta.metadata(child).putObject("labels");
      labels.put("controller-uid", Meta.uid(parent));
    }
  }

  private Outcome single(
      ObjectNode parent,
      ObjectGroups observed,
      ObjectGroups related,
      Webhook hook,
      boolean finalizing) {
    ObjectNode answer =
        call(
            hook,
            Meta.describe(parent),
            request(parent, observed, related, hook, finalizing),
            Webhook.Answer.COMPOSITE);
    return new Outcome(
        answer.get("status"),
        withNamespaceDefaults(parent, answer.get("children")),
        answer.path("resyncAfterSeconds").asDouble(0),
        answer.path("finalized").asBoolean(false));
  }

  /** The sync/finalize request body (docs/metacontroller.md, section 5.1). */
  ObjectNode request(
      ObjectNode parent,
      ObjectGroups observed,
      ObjectGroups related,
      Webhook hook,
      boolean finalizing) {
    String parentNamespace = parentType.namespaced() ? Meta.namespace(parent) : "";
    ObjectNode request = Trees.object();
    request.set("controller", controllerForRequest());
    request.set("parent", Trees.sorted(parent));
    request.set("children", observed.toWire(hook.version(), parentNamespace));
    request.set("related", related.toWire(hook.version(), parentNamespace));
    request.put("finalizing", finalizing);
    return request;
  }

  /** The parent's selector: {@code controller-uid} with generateSelector, else a non-empty spec.selector. */
  JsonNode selector(ObjectNode parent) {
    if (generateSelector) {
      ObjectNode selector = Trees.object();
      selector.putObject("matchLabels").put("controller-uid", Meta.uid(parent));
      return selector;
    }
    JsonNode selector = parent.path("spec").path("selector");
    if (!selector.isObject() || Selectors.isEmpty(selector)) {
      throw new SyncFailure(
          ".spec.selector must have either matchLabels, matchExpressions, or both");
    }
    return selector;
  }

  /**
   * Children of every declared type in the parent's namespace (all namespaces for a cluster-scoped parent):
   * those it controls and that match its selector, plus matching orphans, which are adopted. Controlled
   * ones that stopped matching are released.
   */
  private ObjectGroups claimChildren(ObjectNode parent, JsonNode selector) {
    ObjectGroups children = new ObjectGroups();
    for (ChildType childType : childTypes) {
      children.init(childType.apiVersion(), childType.type().kind());
      List<ObjectNode> candidates =
          parentType.namespaced()
              ? mc.cache()
                  .list(childType.apiVersion(), childType.type().kind(), Meta.namespace(parent))
              : mc.cache().list(childType.apiVersion(), childType.type().kind());
      for (ObjectNode child : candidates) {
        boolean matches = Selectors.matches(selector, Meta.labels(child));
        JsonNode controllerRef = Meta.controllerRef(child);
        if (controllerRef != null) {
          if (!controllerRef.path("uid").asText().equals(Meta.uid(parent))) {
            continue;
          }
          if (matches) {
            children.put(childType.apiVersion(), child);
          } else if (!Meta.deleting(parent)) {
            release(parent, child);
          }
          continue;
        }
        if (Meta.deleting(parent) || !matches || Meta.deleting(child)) {
          continue;
        }
        ObjectNode adopted = adopt(parent, child);
        if (adopted != null) {
          children.put(childType.apiVersion(), adopted);
        }
      }
    }
    return children;
  }

  private void release(ObjectNode parent, ObjectNode cached) {
    ObjectNode child = live(cached);
    if (child == null) {
      return;
    }
    ObjectNode next = Trees.copy(child);
    ArrayNode kept = Trees.array();
    child
        .path("metadata")
        .path("ownerReferences")
        .forEach(
            ref -> {
              if (!ref.path("uid").asText().equals(Meta.uid(parent))) {
                kept.add(ref.deepCopy());
              }
            });
    if (kept.isEmpty()) {
      Meta.metadata(next).remove("ownerReferences");
    } else {
      Meta.metadata(next).set("ownerReferences", kept);
    }
    try {
      cluster.update(next);
    } catch (ApiException e) {
      if (!e.is(Reason.NOT_FOUND)) {
        throw new SyncFailure("can't release " + Meta.describe(child) + ": " + e.getMessage());
      }
    }
  }

  /** The object as stored now, if it is still the one read (same uid); reads may lag ({@link Metacontroller#informerLag}). */
  private ObjectNode live(ObjectNode read) {
    return cluster
        .find(Meta.apiVersion(read), Meta.kind(read), Meta.namespace(read), Meta.name(read))
        .filter(o -> Meta.uid(o).equals(Meta.uid(read)))
        .orElse(null);
  }

  private ObjectNode adopt(ObjectNode parent, ObjectNode cached) {
    ObjectNode child = live(cached);
    if (child == null || Meta.controllerRef(child) != null) {
      return null;
    }
    ObjectNode fresh =
        cluster
            .find(parentApiVersion, parentType.kind(), Meta.namespace(parent), Meta.name(parent))
            .orElse(null);
    if (fresh == null || !Meta.uid(fresh).equals(Meta.uid(parent)) || Meta.deleting(fresh)) {
      throw new SyncFailure(
          "can't adopt "
              + Meta.describe(child)
              + ": "
              + Meta.describe(parent)
              + " is gone or being deleted");
    }
    ObjectNode next = Trees.copy(child);
    JsonNode refs = Meta.metadata(next).get("ownerReferences");
    ArrayNode ownerReferences =
        refs != null && refs.isArray()
            ? (ArrayNode) refs
            : Meta.metadata(next).putArray("ownerReferences");
    ownerReferences.add(Meta.controllerRefTo(parent));
    try {
      return cluster.update(next);
    } catch (ApiException e) {
      if (e.is(Reason.NOT_FOUND)) {
        return null;
      }
      throw new SyncFailure("can't adopt " + Meta.describe(child) + ": " + e.getMessage());
    }
  }

  private static boolean allText(JsonNode labels) {
    for (Map.Entry<String, JsonNode> entry : labels.properties()) {
      if (!entry.getValue().isTextual()) {
        return false;
      }
    }
    return true;
  }
}
