package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.ApiException.Reason;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** One DecoratorController: its targets' sync sequence as Metacontroller runs it (docs/metacontroller.md, sections 6 and 8). */
final class DecoratorLoop extends ControllerLoop {
  static final String DECORATOR_ANNOTATION = "metacontroller.k8s.io/decorator-controller";

  /** One target type with its selectors. */
  record Target(
      String apiVersion,
      ApiResources.Type type,
      JsonNode labelSelector,
      JsonNode annotationSelector) {}

  /** One attachment type with its update method. */
  record Attachment(String apiVersion, ApiResources.Type type, String method) {}

  private final List<Target> targets = new ArrayList<>();
  private final List<Attachment> attachments = new ArrayList<>();

  DecoratorLoop(Metacontroller mc, ObjectNode controller, URI baseUrl) {
    super(mc, controller, "metacontroller.io/decoratorcontroller-", baseUrl);
    JsonNode spec = controller.path("spec");
    for (JsonNode resource : spec.path("resources")) {
      String apiVersion = resource.path("apiVersion").asText();
      if (mc.profile().faithful()) {
        Selectors.requireLabelSyntax(
            resource.path("annotationSelector"),
            "matchAnnotations",
            "DecoratorController "
                + name
                + ": can't convert annotation selector for parent resource \""
                + resource.path("resource").asText()
                + "\" in apiVersion \""
                + apiVersion
                + "\"");
      }
      targets.add(
          new Target(
              apiVersion,
              cluster.resources().requireResource(apiVersion, resource.path("resource").asText()),
              resource.get("labelSelector"),
              resource.get("annotationSelector")));
    }
    for (JsonNode attachment : spec.path("attachments")) {
      String apiVersion = attachment.path("apiVersion").asText();
      attachments.add(
          new Attachment(
              apiVersion,
              cluster.resources().requireResource(apiVersion, attachment.path("resource").asText()),
              attachment.path("updateStrategy").path("method").asText("OnDelete")));
    }
  }

  @Override
  void syncAll() {
    Map<String, ObjectNode> candidates = new LinkedHashMap<>();
    for (Target target : targets) {
      for (ObjectNode object : cluster.list(target.apiVersion(), target.type().kind())) {
        if (matches(object) || Meta.hasFinalizer(object, finalizer)) {
          candidates.putIfAbsent(
              target.type().groupKind() + " " + Meta.namespace(object) + "/" + Meta.name(object),
              object);
        }
      }
    }
    for (ObjectNode listed : candidates.values()) {
      cluster
          .find(
              Meta.apiVersion(listed), Meta.kind(listed), Meta.namespace(listed), Meta.name(listed))
          .filter(o -> Meta.uid(o).equals(Meta.uid(listed)))
          .ifPresent(object -> mc.syncOne(this, object, () -> sync(object)));
    }
  }

  @Override
  Set<String> childKinds() {
    return attachments.stream()
        .map(a -> a.type().group() + "/" + a.type().kind())
        .collect(Collectors.toSet());
  }

  @Override
  boolean mayAdopt(ObjectNode parent, ObjectNode orphan) {
    return false;
  }

  @Override
  boolean ignoresStatusChanges(ObjectNode parent) {
    for (JsonNode resource : controller.path("spec").path("resources")) {
      ApiResources.Type type =
          cluster
              .resources()
              .findResource(
                  resource.path("apiVersion").asText(), resource.path("resource").asText())
              .orElse(null);
      if (type != null
          && type.kind().equals(Meta.kind(parent))
          && type.group().equals(ApiResources.group(Meta.apiVersion(parent)))) {
        return resource.path("ignoreStatusChanges").asBoolean(false);
      }
    }
    return false;
  }

  /**
   * Whether the object is of a target type (group and kind; version ignored) and matches both its selectors.
   * v4.17.2 keeps one pair of selectors per group and kind, the last listed (decorator/selector.go:33-64);
   * intended: any listed entry of that type may match.
   */
  private boolean matches(ObjectNode object) {
    if (mc.profile().faithful()) {
      Target last = null;
      for (Target target : targets) {
        if (target.type().group().equals(ApiResources.group(Meta.apiVersion(object)))
            && target.type().kind().equals(Meta.kind(object))) {
          last = target;
        }
      }
      return last != null
          && Selectors.matches(last.labelSelector(), Meta.labels(object))
          && Selectors.matchesAnnotations(last.annotationSelector(), Meta.annotations(object));
    }
    for (Target target : targets) {
      if (target.type().group().equals(ApiResources.group(Meta.apiVersion(object)))
          && target.type().kind().equals(Meta.kind(object))
          && Selectors.matches(target.labelSelector(), Meta.labels(object))
          && Selectors.matchesAnnotations(target.annotationSelector(), Meta.annotations(object))) {
        return true;
      }
    }
    return false;
  }

  private void sync(ObjectNode observedParent) {
    ObjectNode parent = observedParent;
    if (!matches(parent) && !Meta.hasFinalizer(parent, finalizer)) {
      return;
    }
    parent = syncFinalizer(parent);
    if (!matches(parent) && !Meta.hasFinalizer(parent, finalizer)) {
      return;
    }
    ApiResources.Type parentType =
        cluster.resources().requireKind(Meta.apiVersion(parent), Meta.kind(parent));
    ObjectGroups observed = attachmentsOf(parent);
    ObjectGroups related = related(parent, parentType.namespaced());
    boolean finalizing = finalizeHook != null && (Meta.deleting(parent) || !matches(parent));
    Webhook hook = finalizing ? finalizeHook : syncHook;
    if (hook == null) {
      throw new SyncFailure("no enabled hooks found");
    }
    String parentNamespace = parentType.namespaced() ? Meta.namespace(parent) : "";
    ObjectNode request = Trees.object();
    request.set("controller", controllerForRequest());
    request.set("object", Trees.sorted(parent));
    request.set("attachments", observed.toWire(hook.version(), parentNamespace));
    request.set("related", related.toWire(hook.version(), parentNamespace));
    request.put("finalizing", finalizing);
    ObjectNode answer = call(hook, Meta.describe(parent), request, Webhook.Answer.DECORATOR);

    double resync = answer.path("resyncAfterSeconds").asDouble(0);
    if (resync > 0) {
      mc.resync(this, parent, resync);
    }
    boolean finalized = answer.path("finalized").asBoolean(false);
    if (!updateParent(parent, parentType, answer, finalized)) {
      return;
    }
    List<ObjectNode> desired = withNamespaceDefaults(parent, answer.get("attachments"));
    for (ObjectNode attachment : desired) {
      JsonNode annotations = Meta.metadata(attachment).get("annotations");
      ObjectNode map =
          annotations != null && annotations.isObject()
              ? (ObjectNode) annotations
              : Meta.metadata(attachment).putObject("annotations");
      map.put(DECORATOR_ANNOTATION, name);
    }
    if (!Meta.deleting(parent) || shouldFinalize(parent)) {
      List<String> errors =
          manageChildren(
              parent,
              observed,
              desiredGroups(parent, desired),
              type ->
                  attachments.stream()
                      .filter(a -> a.type().equals(type))
                      .map(Attachment::method)
                      .findFirst()
                      .orElse("OnDelete"));
      if (!errors.isEmpty()) {
        throw new SyncFailure(
            "can't reconcile children for " + Meta.describe(parent) + ": " + errors);
      }
    }
  }

  /**
   * Applies labels and annotations (null deletes a key), status (null leaves it) and the finalizer removal
   * in one update. Returns false when the parent vanished or changed meanwhile (the sync then stops).
   */
  private boolean updateParent(
      ObjectNode parent, ApiResources.Type parentType, ObjectNode answer, boolean finalized) {
    ObjectNode updated = Trees.copy(parent);
    boolean labelsChanged = patchStrings(updated, "labels", answer.get("labels"));
    boolean annotationsChanged = patchStrings(updated, "annotations", answer.get("annotations"));
    JsonNode status = answer.get("status");
    boolean statusChanged =
        status != null && !status.isNull() && !Trees.same(status, parent.get("status"));
    boolean removeFinalizer = finalized && Meta.hasFinalizer(parent, finalizer);
    if (!labelsChanged && !annotationsChanged && !statusChanged && !removeFinalizer) {
      return true;
    }
    if (statusChanged) {
      updated.set("status", status.deepCopy());
    }
    try {
      if (statusChanged && parentType.statusSubresource()) {
        ObjectNode written = cluster.updateStatus(updated);
        Meta.metadata(updated)
            .put("resourceVersion", written.path("metadata").path("resourceVersion").asText());
      }
      if (removeFinalizer) {
        List<String> finalizers = Meta.finalizers(updated);
        finalizers.remove(finalizer);
        Meta.setFinalizers(updated, finalizers);
      }
      cluster.update(updated);
    } catch (ApiException e) {
      if (e.is(Reason.NOT_FOUND) || e.is(Reason.CONFLICT)) {
        return false;
      }
      throw new SyncFailure("can't update " + Meta.describe(parent) + ": " + e.getMessage());
    }
    return true;
  }

  private static boolean patchStrings(ObjectNode object, String field, JsonNode changes) {
    if (changes == null || !changes.isObject() || changes.isEmpty()) {
      return false;
    }
    ObjectNode metadata = Meta.metadata(object);
    JsonNode existing = metadata.get(field);
    ObjectNode map = existing != null && existing.isObject() ? (ObjectNode) existing : null;
    boolean changed = false;
    for (Map.Entry<String, JsonNode> change : changes.properties()) {
      if (change.getValue().isNull()) {
        changed |= map != null && map.remove(change.getKey()) != null;
      } else if (map == null
          || !change.getValue().asText().equals(map.path(change.getKey()).asText(null))) {
        if (map == null) {
          map = metadata.putObject(field);
        }
        map.put(change.getKey(), change.getValue().asText());
        changed = true;
      }
    }
    return changed;
  }

  /** Objects of the attachment types this decorator created for the target (controller ref and annotation). */
  private ObjectGroups attachmentsOf(ObjectNode parent) {
    ObjectGroups groups = new ObjectGroups();
    for (Attachment attachment : attachments) {
      groups.init(attachment.apiVersion(), attachment.type().kind());
      List<ObjectNode> candidates =
          Meta.namespace(parent).isEmpty()
              ? mc.cache().list(attachment.apiVersion(), attachment.type().kind())
              : mc.cache()
                  .list(attachment.apiVersion(), attachment.type().kind(), Meta.namespace(parent));
      for (ObjectNode object : candidates) {
        JsonNode ref = Meta.controllerRef(object);
        if (ref != null
            && ref.path("uid").asText().equals(Meta.uid(parent))
            && name.equals(Meta.annotations(object).get(DECORATOR_ANNOTATION))) {
          groups.put(attachment.apiVersion(), object);
        }
      }
    }
    return groups;
  }
}
