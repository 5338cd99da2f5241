package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.ApiException.Reason;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** What CompositeController and DecoratorController loops share: hooks, finalizer, related objects, children. */
abstract class ControllerLoop {
  private static final List<String> GC_FINALIZERS = List.of("foregroundDeletion", "orphan");

  final Metacontroller mc;
  final Cluster cluster;
  final ObjectNode controller;
  final String name;
  final String finalizer;
  final Webhook syncHook;
  final Webhook finalizeHook;
  final Webhook customizeHook;

  /**
   * Customize answers by parent uid and generation, as Metacontroller caches them: for 20 minutes of the
   * cluster's clock (customize/manager.go:94-102, an entry is gone once its expiry has passed).
   */
  private final Map<String, CachedRules> customizeCache = new HashMap<>();

  private static final java.time.Duration CUSTOMIZE_EXPIRY = java.time.Duration.ofMinutes(20);

  private record CachedRules(JsonNode rules, java.time.Instant expires) {}

  ControllerLoop(Metacontroller mc, ObjectNode controller, String finalizerPrefix, URI baseUrl) {
    this.mc = mc;
    this.cluster = mc.cluster();
    this.controller = controller;
    this.name = Meta.name(controller);
    this.finalizer = finalizerPrefix + name;
    JsonNode hooks = controller.path("spec").path("hooks");
    if (!hooks.isObject()) {
      throw new IllegalArgumentException(Meta.kind(controller) + " " + name + ": no hooks defined");
    }
    this.syncHook = withAuth(Webhook.read(hooks, "sync", baseUrl), "sync");
    this.finalizeHook = withAuth(Webhook.read(hooks, "finalize", baseUrl), "finalize");
    this.customizeHook = withAuth(Webhook.read(hooks, "customize", baseUrl), "customize");
  }

  /** The hook with the Authorization header and TLS of the manifest as written (its URL before it was pointed here). */
  private Webhook withAuth(Webhook hook, String which) {
    if (hook == null) {
      return null;
    }
    JsonNode written = mc.written(controller).path("spec");
    try {
      EndpointAuth.Resolved endpoint =
          EndpointAuth.resolve(
              cluster,
              written.path("hooks").path(which).path("webhook"),
              written.path("endpointConfigs"));
      return endpoint.authorization() == null && endpoint.tls() == null
          ? hook
          : hook.withEndpoint(endpoint.authorization(), endpoint.tls());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Cannot create new controller " + name + ": " + e.getMessage(), e);
    }
  }

  /** Syncs every parent of this controller once (those due, with v4.17.2's event-driven {@link Triggers}). */
  abstract void syncAll();

  /** The child or attachment kinds as {@code group/Kind}: their writes are events for their parent. */
  abstract Set<String> childKinds();

  /**
   * Whether an event of this orphan concerns the parent: a composite parent whose selector matches it may adopt
   * it (findPotentialParents, composite/controller.go:555-583); decorators adopt nothing.
   */
  abstract boolean mayAdopt(ObjectNode parent, ObjectNode orphan);

  /** Whether the controller sets {@code ignoreStatusChanges} for this parent's resource. */
  abstract boolean ignoresStatusChanges(ObjectNode parent);

  /** The controller object as requests carry it. */
  ObjectNode controllerForRequest() {
    ObjectNode copy = Trees.copy(controller);
    copy.putObject("status");
    return (ObjectNode) Trees.sorted(copy);
  }

  /** Equality as Metacontroller decides it: {@code reflect.DeepEqual} on v4.17.2 ({@code 3} is not {@code 3.0}). */
  boolean equal(JsonNode a, JsonNode b) {
    return mc.profile().faithful() ? Trees.deepEqual(a, b) : Trees.same(a, b);
  }

  /** Calls a hook, logs the call, and gives the decoded answer or ends the sync. */
  ObjectNode call(Webhook hook, String parent, ObjectNode request, Webhook.Answer shape) {
    return callConcurrently(hook, List.of(parent), List.of(request), shape).get(0);
  }

  /** Calls made at once (one per parent revision); any failure ends the sync, after all were logged. */
  List<ObjectNode> callConcurrently(
      Webhook hook, List<String> parents, List<ObjectNode> requests, Webhook.Answer shape) {
    List<Webhook.Result> results = hook.callConcurrently(requests, shape, mc.profile());
    List<ObjectNode> answers = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      Webhook.Result result = results.get(i);
      mc.record(
          new HookCall(
              mc.roundNumber(),
              name,
              hook.hook(),
              parents.get(i),
              hook.url(),
              requests.get(i),
              result.status(),
              result.body(),
              result.error()));
      answers.add(result.answer());
    }
    for (Webhook.Result result : results) {
      if (result.requeued()) {
        throw new Requeue(result.retryAfterSeconds());
      }
      if (result.error() != null) {
        throw new SyncFailure(
            hook.hook()
                + " hook failed (version="
                + hook.version().name().toLowerCase()
                + "): "
                + result.error());
      }
    }
    return answers;
  }

  /** Related objects from the customize hook's rules ({@code {}} without a customize hook). */
  ObjectGroups related(ObjectNode parent, boolean parentNamespaced) {
    if (customizeHook == null) {
      return new ObjectGroups();
    }
    String cacheKey = Meta.uid(parent) + "/" + Meta.generation(parent);
    CachedRules cached = customizeCache.get(cacheKey);
    JsonNode rules;
    if (cached != null && !cluster.now().isAfter(cached.expires())) {
      rules = cached.rules();
    } else {
      ObjectNode request = Trees.object();
      request.set("controller", controllerForRequest());
      request.set("parent", Trees.sorted(parent));
      ObjectNode answer =
          call(customizeHook, Meta.describe(parent), request, Webhook.Answer.CUSTOMIZE);
      rules =
          answer.path("relatedResources").isArray()
              ? answer.get("relatedResources")
              : Trees.array();
      customizeCache.put(cacheKey, new CachedRules(rules, cluster.now().plus(CUSTOMIZE_EXPIRY)));
    }
    JsonNode chosen = rules;
    mc.triggers()
        .related(
            this,
            parent,
            object ->
                Related.selectsAny(
                    cluster, parent, parentNamespaced, chosen, customizeHook.version(), object));
    return Related.select(mc.cache(), parent, parentNamespaced, rules, customizeHook.version());
  }

  /**
   * Whether the parent carries our finalizer. v4.17.2 decides by {@code hooks.finalize} being present, webhook
   * or not (composite/controller.go:214-217, decorator/controller.go:151), so {@code finalize: {}} adds a
   * finalizer that only a sync answer's {@code finalized} removes; intended: only with a finalize webhook.
   */
  boolean finalizerEnabled() {
    if (mc.profile().faithful()) {
      JsonNode finalize = controller.path("spec").path("hooks").get("finalize");
      return finalize != null && !finalize.isNull();
    }
    return finalizeHook != null;
  }

  /** Adds our finalizer when a finalize hook exists (not to an object being deleted), removes a stale one. */
  ObjectNode syncFinalizer(ObjectNode parent) {
    boolean has = Meta.hasFinalizer(parent, finalizer);
    if (finalizerEnabled() && !has && !Meta.deleting(parent)) {
      List<String> finalizers = Meta.finalizers(parent);
      finalizers.add(finalizer);
      return writeFinalizers(parent, finalizers);
    }
    if (!finalizerEnabled() && has) {
      return removeFinalizer(parent);
    }
    return parent;
  }

  ObjectNode removeFinalizer(ObjectNode parent) {
    if (!Meta.hasFinalizer(parent, finalizer)) {
      return parent;
    }
    List<String> finalizers = Meta.finalizers(parent);
    finalizers.remove(finalizer);
    return writeFinalizers(parent, finalizers);
  }

  /**
   * GET and PUT of the finalizer list, as Metacontroller does (the cached copy may be stale): AtomicUpdate, a live
   * read retried on a conflict (pkg/dynamic/clientset/clientset.go).
   */
  private ObjectNode writeFinalizers(ObjectNode parent, List<String> finalizers) {
    return atomically(
        () -> {
          ObjectNode live =
              cluster
                  .live(
                      Meta.apiVersion(parent),
                      Meta.kind(parent),
                      Meta.namespace(parent),
                      Meta.name(parent))
                  .filter(p -> Meta.uid(p).equals(Meta.uid(parent)))
                  .orElseThrow(() -> new SyncFailure(Meta.describe(parent) + " is gone"));
          Meta.setFinalizers(live, finalizers);
          return cluster.update(live);
        });
  }

  /**
   * A live read and write done again on a conflict, four tries in all: client-go's retry.RetryOnConflict with
   * retry.DefaultBackoff (4 steps), which AtomicUpdate and AtomicStatusUpdate use. Only a real API server conflicts:
   * nothing writes between the emulator's read and its write in memory.
   */
  private static <T> T atomically(java.util.function.Supplier<T> readAndWrite) {
    for (int attempt = 1; ; attempt++) {
      try {
        return readAndWrite.get();
      } catch (ApiException e) {
        if (!e.is(Reason.CONFLICT) || attempt == 4) {
          throw e;
        }
      }
    }
  }

  /** Whether children are still ours to manage while the parent is being deleted. */
  boolean shouldFinalize(ObjectNode parent) {
    if (!finalizerEnabled() || !Meta.hasFinalizer(parent, finalizer)) {
      return false;
    }
    return Meta.finalizers(parent).stream().noneMatch(GC_FINALIZERS::contains);
  }

  /**
   * Reconciles children (docs/metacontroller.md, section 8.2): observed but not desired ones are deleted, missing ones
   * created with a controller reference, changed ones handled by their kind's update method.
   *
   * @return the errors, one per failed child; the others are still handled
   */
  List<String> manageChildren(
      ObjectNode parent,
      ObjectGroups observed,
      ObjectGroups desired,
      Function<ApiResources.Type, String> methodOf) {
    List<String> errors = new ArrayList<>();
    observed
        .groups()
        .forEach(
            (groupKey, objects) ->
                objects.forEach(
                    (key, child) -> {
                      if (!Meta.deleting(child) && desired.find(groupKey, key) == null) {
                        deleteChild(child, errors);
                      }
                    }));
    desired
        .groups()
        .forEach(
            (groupKey, objects) ->
                objects.forEach(
                    (key, child) -> {
                      ApiResources.Type type =
                          cluster
                              .resources()
                              .byKind(Meta.apiVersion(child), Meta.kind(child))
                              .orElse(null);
                      if (type == null) {
                        errors.add(
                            "can't find resource for "
                                + Meta.kind(child)
                                + " in "
                                + Meta.apiVersion(child));
                        return;
                      }
                      ObjectNode current = observed.find(groupKey, key);
                      if (current == null) {
                        createChild(parent, child, errors);
                        return;
                      }
                      ObjectNode merged;
                      try {
                        merged = DynamicApply.update(current, child, mc.profile());
                      } catch (IllegalArgumentException e) {
                        errors.add(e.getMessage());
                        return;
                      }
                      if (equal(merged, current) || Meta.deleting(current)) {
                        return;
                      }
                      String method = methodOf.apply(type);
                      boolean changes =
                          List.of("Recreate", "RollingRecreate", "InPlace", "RollingInPlace")
                              .contains(method);
                      List<String> differences =
                          changes ? JsonDiff.changes(current, merged) : List.of();
                      List<String> rewritten = changes ? rewrittenByStorage(merged) : List.of();
                      if (changes) {
                        mc.childDiffers(this, parent, current, differences, rewritten);
                      }
                      switch (method == null ? "" : method) {
                        case "", "OnDelete" -> {}
                        case "Recreate", "RollingRecreate" -> deleteChild(current, errors);
                        case "InPlace", "RollingInPlace" -> {
                          try {
                            ObjectNode stored = cluster.update(merged);
                            if (Meta.resourceVersion(stored)
                                .equals(Meta.resourceVersion(current))) {
                              mc.idleUpdate(this, parent, current, differences, rewritten);
                            }
                          } catch (ApiException e) {
                            if (!e.is(Reason.NOT_FOUND) && !e.is(Reason.CONFLICT)) {
                              errors.add(
                                  "can't update " + Meta.describe(current) + ": " + e.getMessage());
                            }
                          }
                        }
                        default ->
                            errors.add(
                                "invalid update strategy for "
                                    + type.kind()
                                    + ": unknown method \""
                                    + method
                                    + "\"");
                      }
                    }));
    return errors;
  }

  /**
   * What the API server stores otherwise than Metacontroller sends it, {@code path: sent -> stored}: a hook's
   * explicit null, non-canonical quantity, empty list or map, unknown field or {@code stringData} (not the server's
   * defaults). Empty when the object cannot be stored at all.
   */
  private List<String> rewrittenByStorage(ObjectNode merged) {
    try {
      return JsonDiff.changes(merged, cluster.storedForm(merged));
    } catch (ApiException e) {
      return List.of();
    }
  }

  private void deleteChild(ObjectNode child, List<String> errors) {
    try {
      cluster.delete(
          Meta.apiVersion(child),
          Meta.kind(child),
          Meta.namespace(child),
          Meta.name(child),
          Meta.uid(child));
    } catch (ApiException e) {
      if (!e.is(Reason.NOT_FOUND)) {
        errors.add("can't delete " + Meta.describe(child) + ": " + e.getMessage());
      }
    }
  }

  private void createChild(ObjectNode parent, ObjectNode desired, List<String> errors) {
    ObjectNode child = DynamicApply.forCreate(desired);
    ObjectNode metadata = Meta.metadata(child);
    JsonNode refs = metadata.get("ownerReferences");
    ArrayNode ownerReferences =
        refs != null && refs.isArray() ? (ArrayNode) refs : metadata.putArray("ownerReferences");
    // A reference to the parent's uid that the hook wrote itself is kept as it is, and none added
    // (claimOwnership, pkg/controller/common/manage_children.go:507-518).
    boolean owned = false;
    for (JsonNode ref : ownerReferences) {
      owned |= ref.path("uid").asText().equals(Meta.uid(parent));
    }
    if (!owned) {
      ownerReferences.add(Meta.controllerRefTo(parent));
    }
    try {
      // The dynamic client posts to the child's namespace, or to the cluster-wide path when it has
      // none
      // (pkg/dynamic/clientset/clientset.go:121-136, manage_children.go:626).
      cluster.createIn(Meta.namespace(child), child);
    } catch (ApiException e) {
      if (!e.is(Reason.ALREADY_EXISTS)) {
        errors.add("can't create " + Meta.describe(desired) + ": " + e.getMessage());
      }
    }
  }

  /**
   * Desired objects of an answer keyed as Metacontroller keys them: namespace defaulted to the parent's,
   * none for cluster-scoped kinds.
   */
  ObjectGroups desiredGroups(ObjectNode parent, List<ObjectNode> objects) {
    ObjectGroups desired = new ObjectGroups();
    for (ObjectNode object : objects) {
      boolean namespaced =
          cluster
              .resources()
              .byKind(Meta.apiVersion(object), Meta.kind(object))
              .map(ApiResources.Type::namespaced)
              .orElse(true);
      desired.putKeyed(
          ObjectGroups.uniformKey(namespaced ? Meta.namespace(object) : "", Meta.name(object)),
          object);
    }
    return desired;
  }

  /** Copies of the answer's objects with the namespace defaulted to the parent's (not for cluster-scoped kinds). */
  List<ObjectNode> withNamespaceDefaults(ObjectNode parent, JsonNode list) {
    List<ObjectNode> objects = new ArrayList<>();
    if (list == null || !list.isArray()) {
      return objects;
    }
    for (JsonNode item : list) {
      if (item.isNull()) {
        // A null item decodes to a nil *Unstructured, dereferenced when the desired map is built
        // (composite/controller.go:668, controller_revision.go:170, decorator/controller.go:663).
        throw crash(
            parent,
            "a null item in the answer's children or attachments: runtime error: invalid memory "
                + "address or nil pointer dereference",
            "pkg/controller/common/api/v2/common.go:48 (Insert)");
      }
      ObjectNode object = Trees.copy((ObjectNode) item);
      ObjectNode metadata = Meta.metadata(object);
      // v4.17.2 gives every child without a namespace the parent's, cluster-scoped kinds too
      // (composite/hooks.go:153-160); the API server then drops it for those.
      boolean namespaced =
          mc.profile().faithful()
              || cluster
                  .resources()
                  .byKind(Meta.apiVersion(object), Meta.kind(object))
                  .map(ApiResources.Type::namespaced)
                  .orElse(true);
      if (namespaced
          && metadata.path("namespace").asText("").isEmpty()
          && !Meta.namespace(parent).isEmpty()) {
        metadata.put("namespace", Meta.namespace(parent));
      }
      if (metadata.path("name").asText("").isEmpty()) {
        throw new SyncFailure("a desired " + Meta.kind(object) + " has no metadata.name");
      }
      objects.add(object);
    }
    return objects;
  }

  /**
   * Where Metacontroller v4.17.2 panics: a {@link MetacontrollerCrash} to throw; under {@link Profile#INTENDED}, a
   * failed sync.
   */
  RuntimeException crash(ObjectNode parent, String panic, String source) {
    if (mc.profile().faithful()) {
      throw new MetacontrollerCrash(name, Meta.describe(parent), panic, source);
    }
    return new SyncFailure(panic);
  }

  /** Writes the status if it differs from the live object's (same uid); gone or replaced parents are skipped. */
  void writeStatus(ObjectNode parent, JsonNode status) {
    atomically(
        () -> {
          ObjectNode live =
              cluster
                  .live(
                      Meta.apiVersion(parent),
                      Meta.kind(parent),
                      Meta.namespace(parent),
                      Meta.name(parent))
                  .orElse(null);
          if (live == null
              || !Meta.uid(live).equals(Meta.uid(parent))
              || equal(live.get("status"), status)) {
            return null;
          }
          live.set("status", status);
          return cluster.updateStatus(live);
        });
  }
}
