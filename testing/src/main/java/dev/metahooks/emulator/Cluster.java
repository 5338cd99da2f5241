package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.ApiException.Reason;
import dev.metahooks.testing.kube.Crds;
import dev.metahooks.testing.kube.Yaml;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * A fake Kubernetes API server: objects by group, kind, namespace and name, with the bookkeeping real
 * controllers depend on — uid, resourceVersion, generation (bumped when anything but metadata and status
 * changes), deletionTimestamp and finalizers, ownerReferences with background garbage collection,
 * namespaced and cluster-scoped kinds, status as a subresource. Every change is logged as a {@link Write}.
 *
 * <p>Everything is deterministic: uids are derived from a counter, the clock only moves when told to.
 * Objects handed out are copies; change the cluster only through its methods.
 *
 * <p>Stored in a real API server instead ({@link #onServer}, docs/emulator.md "A real API server"), the cluster is
 * Metacontroller's view of that server: every write goes there and the cluster keeps what the server answered, each
 * world step takes in what the server's controllers, scheduler and nodes changed meanwhile ({@link #settle}), and the
 * clock is the real one (plus what {@link #advance} added). Validation, defaults, graceful deletion and garbage
 * collection are then the server's own.
 */
public final class Cluster {
  /** Where the cluster's clock starts: the instant fixtures pin ({@code FixedSources.NOW} is this). */
  public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final ApiResources resources;
  private final TreeMap<String, ObjectNode> objects = new TreeMap<>();
  private final List<Write> writes = new ArrayList<>();
  private long resourceVersion;
  private long uids;
  private long generatedNames;
  private Instant now = START;
  private String actor = "test";
  private Profile profile = Profile.configured();

  /** The real API server that stores the objects, or null: they are kept here (the in-memory store). */
  private ServerStore server;

  /** How far {@link #advance} moved the clock past real time, on a real API server. */
  private Duration clockOffset = Duration.ZERO;

  /** When the latest change was written or seen ({@link System#nanoTime}), for the quiet a real server needs. */
  private long lastChangeNanos = System.nanoTime();

  /** An empty cluster that knows the built-in kinds (and the CRDs created in it). */
  public Cluster() {
    this(ApiResources.builtIn());
  }

  /** An empty cluster that also serves the kinds of these CRDs (YAML files, or directories of them). */
  public static Cluster withCrds(Path... crdFilesOrDirectories) {
    return withCrds(Crds.from(crdFilesOrDirectories));
  }

  public static Cluster withCrds(Crds crds) {
    return new Cluster(ApiResources.withCrds(crds));
  }

  public Cluster(ApiResources resources) {
    this(resources, true);
  }

  private Cluster(ApiResources resources, boolean onServerChosenForTheTest) {
    this.resources = resources;
    if (onServerChosenForTheTest) {
      ServerClusters.joined(this);
    }
  }

  /**
   * Stores this cluster's objects in a real API server from now on, each namespace of the scenario a namespace of
   * its own there ({@code default} becomes {@code mh4k2q9-default}); call it on an empty cluster. The CRDs the cluster
   * knows and Metacontroller's own are put on the server first. {@link #close} deletes what the scenario left.
   *
   * @param test what the namespaces made for this cluster are annotated with ({@code metahooks.dev/test})
   */
  public Cluster onServer(KubernetesClient client, String test) {
    if (!objects.isEmpty() || server != null) {
      throw new IllegalStateException("a cluster moves to an API server before it holds anything");
    }
    ServerStore store = new ServerStore(client, NamespaceMap.random(), resources, test);
    store.installCrds();
    this.server = store;
    return this;
  }

  /** Whether a real API server stores the objects ({@link #onServer}). */
  public boolean isOnServer() {
    return server != null;
  }

  /** Deletes what a scenario left on the real API server (its namespaces, its cluster-scoped objects); else nothing. */
  public void close() {
    if (server != null) {
      server.close();
    }
  }

  public ApiResources resources() {
    return resources;
  }

  /** Makes a custom kind known, e.g. {@code register("example.com/v1", "Thing", "things", true)}. */
  public Cluster register(String apiVersion, String kind, String plural, boolean namespaced) {
    resources.register(
        new ApiResources.Type(ApiResources.group(apiVersion), kind, plural, namespaced, true));
    return this;
  }

  public Profile profile() {
    return profile;
  }

  /** Behave like the API server the profile describes (defaults and graceful deletion with v4.17.2). */
  public Cluster profile(Profile newProfile) {
    this.profile = newProfile;
    return this;
  }

  /**
   * A copy of every object as it is now, for reads that lag the writes (an informer cache); the copy is not
   * changed later, and nothing should be written to it.
   */
  Cluster snapshot() {
    Cluster copy = new Cluster(resources, false);
    objects.forEach((key, object) -> copy.objects.put(key, Trees.copy(object)));
    copy.resourceVersion = resourceVersion;
    copy.now = now();
    copy.profile = profile;
    return copy;
  }

  // ---- clock and log

  /** The cluster's clock: fixed until advanced in memory; on a real API server the real time plus every advance. */
  public Instant now() {
    return server == null ? now : Instant.now().plus(clockOffset);
  }

  public void advance(Duration duration) {
    if (server == null) {
      now = now.plus(duration);
    } else {
      clockOffset = clockOffset.plus(duration);
    }
  }

  /** Every write since the cluster was made, oldest first. */
  public List<Write> writes() {
    return List.copyOf(writes);
  }

  /** The writes with a sequence number above {@code sequence}. */
  public List<Write> writesAfter(long sequence) {
    return writes.stream().filter(w -> w.sequence() > sequence).toList();
  }

  /** The resourceVersion of the latest write (0 before any). */
  public long lastSequence() {
    return resourceVersion;
  }

  /** Runs {@code body} with writes attributed to {@code who}. */
  <T> T as(String who, java.util.function.Supplier<T> body) {
    String previous = actor;
    actor = who;
    try {
      return body.get();
    } finally {
      actor = previous;
    }
  }

  void as(String who, Runnable body) {
    as(
        who,
        () -> {
          body.run();
          return null;
        });
  }

  // ---- reads

  public Optional<ObjectNode> find(String apiVersion, String kind, String namespace, String name) {
    ApiResources.Type type = resources.requireKind(apiVersion, kind);
    watch(type, apiVersion);
    ObjectNode stored = objects.get(key(type, type.namespaced() ? namespace : "", name));
    return Optional.ofNullable(stored).map(o -> view(o, apiVersion));
  }

  /** A cluster-scoped object. */
  public Optional<ObjectNode> find(String apiVersion, String kind, String name) {
    return find(apiVersion, kind, "", name);
  }

  /** The object, or an AssertionError that lists what exists of that kind. */
  public ObjectNode get(String apiVersion, String kind, String namespace, String name) {
    return find(apiVersion, kind, namespace, name)
        .orElseThrow(
            () ->
                new AssertionError(
                    "no "
                        + Meta.describe(kind, namespace, name)
                        + "; the cluster has "
                        + kind
                        + ": "
                        + list(apiVersion, kind).stream().map(o -> Meta.describe(o)).toList()));
  }

  /** A cluster-scoped object. */
  public ObjectNode get(String apiVersion, String kind, String name) {
    return get(apiVersion, kind, "", name);
  }

  public boolean exists(String apiVersion, String kind, String namespace, String name) {
    return find(apiVersion, kind, namespace, name).isPresent();
  }

  /** Every object of a kind, all namespaces, sorted by namespace and name. */
  public List<ObjectNode> list(String apiVersion, String kind) {
    ApiResources.Type type = resources.requireKind(apiVersion, kind);
    watch(type, apiVersion);
    String prefix = type.group() + "|" + type.kind() + "|";
    return objects.subMap(prefix, prefix + Character.MAX_VALUE).values().stream()
        .map(o -> view(o, apiVersion))
        .toList();
  }

  /** Every object of a kind in one namespace. */
  public List<ObjectNode> list(String apiVersion, String kind, String namespace) {
    return list(apiVersion, kind).stream()
        .filter(o -> Meta.namespace(o).equals(namespace))
        .toList();
  }

  /** Every object, for diagnostics. */
  public List<ObjectNode> all() {
    return objects.values().stream().map(Trees::copy).toList();
  }

  // ---- writes

  /** Creates every object of a YAML file (path relative to the project), in order, as kubectl would. */
  public List<ObjectNode> createFile(String path) {
    return Yaml.file(path).stream().map(o -> as("kubectl", () -> create(o))).toList();
  }

  /** Creates an object from YAML or JSON text. */
  public ObjectNode create(String yamlOrJson) {
    return create(Yaml.object(yamlOrJson));
  }

  /**
   * Creates an object the way the API server does: namespace defaulted to {@code default} for namespaced
   * kinds and dropped for cluster-scoped ones, {@code generateName} honoured, system fields set, and
   * status dropped when the kind has a status subresource.
   */
  public ObjectNode create(ObjectNode input) {
    ObjectNode object = Trees.normalizeObject(input);
    ApiResources.Type type = typeOf(object);
    if (stores(type)) {
      watch(type, Meta.apiVersion(object));
      ObjectNode created = server.create(type, Meta.apiVersion(object), object, actor);
      if (type.kind().equals("CustomResourceDefinition")
          && type.group().equals("apiextensions.k8s.io")) {
        resources.registerCrd(created);
      }
      return Trees.copy(take(type, Meta.apiVersion(object), created, Write.Verb.CREATE));
    }
    asStored(type, object);
    ObjectNode metadata = Meta.metadata(object);
    if (!metadata.hasNonNull("name") && metadata.hasNonNull("generateName")) {
      metadata.put("name", metadata.get("generateName").asText() + generatedSuffix());
    }
    String name = metadata.path("name").asText("");
    if (name.isEmpty()) {
      throw new ApiException(Reason.INVALID, Meta.kind(object) + ": metadata.name is required");
    }
    String namespace = "";
    if (type.namespaced()) {
      namespace = metadata.path("namespace").asText("");
      namespace = namespace.isEmpty() ? "default" : namespace;
      metadata.put("namespace", namespace);
    } else {
      metadata.remove("namespace");
    }
    String key = key(type, namespace, name);
    if (objects.containsKey(key)) {
      throw new ApiException(
          Reason.ALREADY_EXISTS, Meta.describe(type.kind(), namespace, name) + " already exists");
    }
    if (type.statusSubresource()) {
      object.remove("status");
    }
    for (String field :
        List.of("deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "selfLink")) {
      metadata.remove(field);
    }
    ServiceClusterIps.normalize(null, object);
    if (profile.faithful()) {
      Trees.integralNumbers(object);
      ApiDefaults.apply(object, true, uids + 1);
    }
    if (type.group().isEmpty() && type.kind().equals("Pod")) {
      PodPriority.admit(this, object);
    }
    Validation.check(type, object, null, resources.isBuiltIn(type));
    metadata.put("uid", newUid(key));
    metadata.put("generation", 1);
    metadata.put("creationTimestamp", timestamp());
    metadata.put("resourceVersion", String.valueOf(++resourceVersion));
    objects.put(key, object);
    log(Write.Verb.CREATE, object, null, object);
    if (type.kind().equals("CustomResourceDefinition")
        && type.group().equals("apiextensions.k8s.io")) {
      resources.registerCrd(object);
    }
    ObjectNode created = Trees.copy(object);
    collectIfNoOwnerResolves(created);
    return created;
  }

  /**
   * Creates an object the way a client that names the namespace in the request path does (Metacontroller's
   * dynamic client: {@code POST /api/v1/namespaces/<namespace>/configmaps}). A namespaced kind with no namespace
   * is posted to the cluster-wide path, where the API server serves only list and watch
   * ({@code staging/src/k8s.io/apiserver/pkg/endpoints/installer.go:589-595}), so it refuses the create with 405
   * instead of putting the object in {@code default} as kubectl would.
   */
  ObjectNode createIn(String pathNamespace, ObjectNode input) {
    ApiResources.Type type = typeOf(input);
    if (type.namespaced() && pathNamespace.isEmpty()) {
      throw new ApiException(
          Reason.METHOD_NOT_ALLOWED,
          "the server does not allow this method on the requested "
              + "resource (post "
              + type.plural()
              + ")");
    }
    return create(input);
  }

  /**
   * Replaces an object (PUT): status is kept when it is a subresource, system fields are kept, generation is
   * bumped when anything outside metadata and status changed. A stale resourceVersion or a different uid is a
   * conflict. Removing the last finalizer of an object being deleted makes it disappear. An update that
   * changes nothing writes nothing.
   */
  public ObjectNode update(ObjectNode input) {
    ObjectNode object = Trees.normalizeObject(input);
    ApiResources.Type type = typeOf(object);
    if (stores(type)) {
      watch(type, Meta.apiVersion(object));
      ObjectNode stored = server.replace(type, Meta.apiVersion(object), object, actor);
      ObjectNode kept = take(type, Meta.apiVersion(object), stored, Write.Verb.UPDATE);
      return Trees.copy(
          Meta.deleting(stored) && Meta.finalizers(stored).isEmpty()
              ? confirm(type, Meta.apiVersion(object), stored)
              : kept);
    }
    String key = keyOf(type, object);
    ObjectNode current = existing(key, type, object);
    checkPreconditions(current, object);
    asStored(type, object);
    ObjectNode next = object;
    ObjectNode metadata = Meta.metadata(next);
    ObjectNode currentMetadata = Meta.metadata(current);
    for (String field :
        List.of(
            "uid",
            "creationTimestamp",
            "generation",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "namespace",
            "resourceVersion")) {
      if (currentMetadata.has(field)) {
        metadata.set(field, currentMetadata.get(field).deepCopy());
      } else {
        metadata.remove(field);
      }
    }
    if (type.statusSubresource()) {
      if (current.has("status")) {
        next.set("status", current.get("status").deepCopy());
      } else {
        next.remove("status");
      }
    }
    if (profile.faithful()) {
      Trees.integralNumbers(next);
      ServiceClusterIps.keepAllocated(current, next);
    }
    ServiceClusterIps.normalize(current, next);
    if (profile.faithful()) {
      ApiDefaults.apply(next, false, uids);
    }
    if (Meta.deleting(current)) {
      Set<String> added = new HashSet<>(Meta.finalizers(next));
      Meta.finalizers(current).forEach(added::remove);
      if (!added.isEmpty()) {
        throw new ApiException(
            Reason.INVALID,
            Meta.describe(current)
                + " is being deleted: no new finalizers can be "
                + "added, got "
                + added);
      }
    }
    if (Trees.same(next, current)) {
      return Trees.copy(current);
    }
    Validation.check(type, next, current, resources.isBuiltIn(type));
    if (!Trees.same(withoutMetadataAndStatus(next), withoutMetadataAndStatus(current))) {
      metadata.put("generation", Meta.generation(current) + 1);
    }
    metadata.put("resourceVersion", String.valueOf(++resourceVersion));
    objects.put(key, next);
    log(Write.Verb.UPDATE, next, current, next);
    if (Meta.deleting(next) && Meta.finalizers(next).isEmpty()) {
      remove(key);
    } else if (!Trees.same(
        next.path("metadata").get("ownerReferences"),
        current.path("metadata").get("ownerReferences"))) {
      collectIfNoOwnerResolves(Trees.copy(next));
    }
    return Trees.copy(next);
  }

  /** Reads, changes and writes an object: {@code update("v1", "ConfigMap", "default", "c", o -> ...)}. */
  public ObjectNode update(
      String apiVersion, String kind, String namespace, String name, Consumer<ObjectNode> change) {
    if (stores(resources.requireKind(apiVersion, kind))) {
      return onFreshCopy(apiVersion, kind, namespace, name, change, this::update);
    }
    ObjectNode object = get(apiVersion, kind, namespace, name);
    change.accept(object);
    return update(object);
  }

  /**
   * A read-change-write on a real API server, from a live read and again on a conflict, as {@code kubectl edit} is
   * done again when someone else wrote first: the cluster's view may be a step behind the server's controllers. An
   * object gone is the server's {@code NotFound}.
   */
  private ObjectNode onFreshCopy(
      String apiVersion,
      String kind,
      String namespace,
      String name,
      Consumer<ObjectNode> change,
      java.util.function.UnaryOperator<ObjectNode> write) {
    for (int attempt = 1; ; attempt++) {
      ObjectNode object =
          live(apiVersion, kind, namespace, name)
              .orElseThrow(
                  () ->
                      new ApiException(
                          Reason.NOT_FOUND,
                          Meta.describe(kind, namespace, name) + " not found on the API server"));
      change.accept(object);
      try {
        return write.apply(object);
      } catch (ApiException e) {
        if (!e.is(Reason.CONFLICT) || attempt == 5) {
          throw e;
        }
      }
    }
  }

  /** Replaces only the status (PUT on the status subresource); nothing else of the input is used. */
  public ObjectNode updateStatus(ObjectNode input) {
    ObjectNode object = Trees.normalizeObject(input);
    ApiResources.Type type = typeOf(object);
    if (stores(type)) {
      watch(type, Meta.apiVersion(object));
      return Trees.copy(
          take(
              type,
              Meta.apiVersion(object),
              server.replaceStatus(type, Meta.apiVersion(object), object, actor),
              Write.Verb.UPDATE_STATUS));
    }
    String key = keyOf(type, object);
    ObjectNode current = existing(key, type, object);
    checkPreconditions(current, object);
    ObjectNode next = Trees.copy(current);
    if (object.has("status") && !object.get("status").isNull()) {
      next.set(
          "status",
          profile.faithful()
              ? Trees.integralNumbers(object.get("status").deepCopy())
              : object.get("status").deepCopy());
    } else {
      next.remove("status");
    }
    asStored(type, next);
    if (Trees.same(next.get("status"), current.get("status"))) {
      return Trees.copy(current);
    }
    Meta.metadata(next).put("resourceVersion", String.valueOf(++resourceVersion));
    objects.put(key, next);
    log(Write.Verb.UPDATE_STATUS, next, current, next);
    return Trees.copy(next);
  }

  /** Reads, changes the status of, and writes an object. */
  public ObjectNode updateStatus(
      String apiVersion, String kind, String namespace, String name, Consumer<ObjectNode> change) {
    if (stores(resources.requireKind(apiVersion, kind))) {
      return onFreshCopy(apiVersion, kind, namespace, name, change, this::updateStatus);
    }
    ObjectNode object = get(apiVersion, kind, namespace, name);
    change.accept(object);
    return updateStatus(object);
  }

  /** How a delete treats the object's dependents ({@code kubectl delete --cascade=...}). */
  public enum Propagation {
    /** Dependents are collected after the object is gone (the default). */
    BACKGROUND,
    /**
     * The object stays, with the {@code foregroundDeletion} finalizer, while the garbage collector deletes its
     * dependents; the collector removes that finalizer once they are gone.
     */
    FOREGROUND,
    /** The object stays, with the {@code orphan} finalizer, until the collector has removed its dependents' owner references. */
    ORPHAN
  }

  /**
   * Deletes an object with a propagation policy. FOREGROUND and ORPHAN add the garbage collector's finalizer
   * ({@code foregroundDeletion}, {@code orphan}) with the deletionTimestamp, then the collector acts on the
   * dependents at once; the object disappears when no finalizer is left.
   */
  public void delete(
      String apiVersion, String kind, String namespace, String name, Propagation propagation) {
    if (stores(resources.requireKind(apiVersion, kind))) {
      deleteOnServer(apiVersion, kind, namespace, name, null, propagation);
      return;
    }
    if (propagation == Propagation.BACKGROUND) {
      delete(apiVersion, kind, namespace, name);
      return;
    }
    ObjectNode current = get(apiVersion, kind, namespace, name);
    if (Meta.deleting(current)) {
      delete(apiVersion, kind, namespace, name);
      return;
    }
    String gcFinalizer = propagation == Propagation.FOREGROUND ? "foregroundDeletion" : "orphan";
    List<String> finalizers = Meta.finalizers(current);
    finalizers.add(gcFinalizer);
    Meta.setFinalizers(current, finalizers);
    ObjectNode marked = update(current);
    delete(apiVersion, kind, namespace, name);
    as(
        "garbage-collector",
        () -> {
          for (ObjectNode dependent : dependentsOf(Meta.uid(marked))) {
            if (propagation == Propagation.FOREGROUND) {
              deleteQuietly(dependent);
            } else {
              ObjectNode next = Trees.copy(dependent);
              ArrayNode kept = Meta.metadata(next).putArray("ownerReferences");
              dependent
                  .path("metadata")
                  .path("ownerReferences")
                  .forEach(
                      r -> {
                        if (!r.path("uid").asText().equals(Meta.uid(marked))) {
                          kept.add(r.deepCopy());
                        }
                      });
              if (kept.isEmpty()) {
                Meta.metadata(next).remove("ownerReferences");
              }
              updateQuietly(next);
            }
          }
          releaseGcFinalizers();
        });
  }

  /**
   * The garbage collector's verdict on a new or re-owned dependent: a namespaced object none of whose owner
   * references resolves is deleted at once. An owner is looked up by kind and name in the dependent's own
   * namespace (cluster-wide for a cluster-scoped kind) and must have the uid the reference names, so a child in
   * another namespace than its namespaced parent is collected as soon as it is created (Kubernetes'
   * pkg/controller/garbagecollector/garbagecollector.go, attemptToDeleteItem and isDangling). A cluster-scoped
   * dependent of a namespaced owner is left alone: its reference is unresolvable, and Kubernetes only reports it
   * (OwnerRefInvalidNamespace). A reference to a kind the server does not know is not judged.
   */
  private void collectIfNoOwnerResolves(ObjectNode dependent) {
    JsonNode refs = dependent.path("metadata").path("ownerReferences");
    if (!refs.isArray() || refs.isEmpty() || Meta.namespace(dependent).isEmpty()) {
      return;
    }
    for (JsonNode ref : refs) {
      Optional<ApiResources.Type> ownerType =
          resources.byKind(ref.path("apiVersion").asText(""), ref.path("kind").asText(""));
      if (ownerType.isEmpty()) {
        return;
      }
      ObjectNode owner =
          objects.get(
              key(
                  ownerType.get(),
                  ownerType.get().namespaced() ? Meta.namespace(dependent) : "",
                  ref.path("name").asText("")));
      if (owner != null && Meta.uid(owner).equals(ref.path("uid").asText())) {
        return;
      }
    }
    as("garbage-collector", () -> deleteQuietly(dependent));
  }

  /** Objects with an owner reference to this uid. */
  private List<ObjectNode> dependentsOf(String uid) {
    List<ObjectNode> dependents = new ArrayList<>();
    for (ObjectNode object : objects.values()) {
      for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
        if (uid.equals(ref.path("uid").asText())) {
          dependents.add(Trees.copy(object));
          break;
        }
      }
    }
    return dependents;
  }

  /** The collector's part of foreground and orphan deletion: its finalizer goes once no dependent is left. */
  private void releaseGcFinalizers() {
    for (ObjectNode owner : List.copyOf(objects.values())) {
      List<String> finalizers = Meta.finalizers(owner);
      boolean foreground = finalizers.contains("foregroundDeletion");
      boolean orphan = finalizers.contains("orphan");
      if (!Meta.deleting(owner)
          || (!foreground && !orphan)
          || !dependentsOf(Meta.uid(owner)).isEmpty()) {
        continue;
      }
      finalizers.remove("foregroundDeletion");
      finalizers.remove("orphan");
      ObjectNode next = Trees.copy(owner);
      Meta.setFinalizers(next, finalizers);
      updateQuietly(next);
    }
  }

  /** Deletes a namespaced object (background propagation). */
  public void delete(String apiVersion, String kind, String namespace, String name) {
    delete(apiVersion, kind, namespace, name, (String) null);
  }

  /** Deletes a cluster-scoped object. */
  public void delete(String apiVersion, String kind, String name) {
    delete(apiVersion, kind, "", name, (String) null);
  }

  /**
   * Deletes an object: with finalizers it only gets a deletionTimestamp (and its generation is bumped);
   * without, it disappears and the garbage collector deletes what it owned.
   *
   * @param uid a precondition: the object must have this uid (null for none)
   */
  public void delete(String apiVersion, String kind, String namespace, String name, String uid) {
    ApiResources.Type type = resources.requireKind(apiVersion, kind);
    if (stores(type)) {
      // Background, said so: the API server's own default orphans a batch/v1 Job's pods (kubernetes
      // v1.36.3
      // pkg/registry/batch/job/strategy.go:62-74, "for back compatibility"), and Metacontroller
      // asks for
      // Background on every child it deletes or recreates
      // (pkg/controller/common/manage_children.go:218-226 and
      // 527-533), as kubectl does by default.
      deleteOnServer(apiVersion, kind, namespace, name, uid, Propagation.BACKGROUND);
      return;
    }
    String key = key(type, type.namespaced() ? namespace : "", name);
    ObjectNode current = objects.get(key);
    if (current == null) {
      throw new ApiException(Reason.NOT_FOUND, Meta.describe(kind, namespace, name) + " not found");
    }
    if (uid != null && !uid.equals(Meta.uid(current))) {
      throw new ApiException(
          Reason.CONFLICT,
          Meta.describe(current)
              + " has uid "
              + Meta.uid(current)
              + ", the precondition wanted "
              + uid);
    }
    long grace = profile.faithful() ? gracePeriodSeconds(current) : 0;
    if (Meta.finalizers(current).isEmpty() && grace == 0) {
      remove(key);
      return;
    }
    if (Meta.deleting(current)) {
      return;
    }
    ObjectNode next = Trees.copy(current);
    ObjectNode metadata = Meta.metadata(next);
    metadata.put("deletionTimestamp", DateTimeFormatter.ISO_INSTANT.format(now.plusSeconds(grace)));
    metadata.put("deletionGracePeriodSeconds", grace);
    metadata.put("generation", Meta.generation(current) + 1);
    metadata.put("resourceVersion", String.valueOf(++resourceVersion));
    objects.put(key, next);
    log(Write.Verb.MARK_DELETED, next, current, next);
  }

  /**
   * Ends the graceful termination of a Pod (the kubelet's final delete with grace 0): it disappears unless a
   * finalizer still holds it.
   */
  public void finishTermination(ObjectNode pod) {
    String key = keyOf(typeOf(pod), pod);
    ObjectNode current = objects.get(key);
    if (current != null
        && Meta.uid(current).equals(Meta.uid(pod))
        && Meta.deleting(current)
        && Meta.finalizers(current).isEmpty()) {
      remove(key);
    }
  }

  /**
   * The grace period of a delete: a Pod the kubelet runs (bound, not finished: it has a phase other than
   * Succeeded or Failed) terminates for its {@code terminationGracePeriodSeconds} (default 30), as Kubernetes'
   * pkg/registry/core/pod/strategy.go CheckGracefulDeleteByPod decides; everything else goes at once.
   */
  private static long gracePeriodSeconds(ObjectNode object) {
    if (!Meta.kind(object).equals("Pod") || !Meta.apiVersion(object).equals("v1")) {
      return 0;
    }
    String phase = object.path("status").path("phase").asText("");
    if (phase.isEmpty() || phase.equals("Succeeded") || phase.equals("Failed")) {
      return 0;
    }
    return Math.max(0, object.path("spec").path("terminationGracePeriodSeconds").asLong(30));
  }

  // ---- on a real API server

  /** Whether the real API server stores objects of this kind (then every write goes there). */
  private boolean stores(ApiResources.Type type) {
    return server != null && server.serves(type);
  }

  /** Starts reading a kind from the server at every step, reading it at once the first time (an informer starting). */
  private void watch(ApiResources.Type type, String apiVersion) {
    if (server != null && server.track(type, apiVersion)) {
      refresh(type);
    }
  }

  /**
   * An object as the API server holds it right now (a live GET; without a server, the stored copy), as
   * Metacontroller reads a parent before it changes its finalizers or status (AtomicUpdate, AtomicStatusUpdate in
   * pkg/dynamic/clientset/clientset.go).
   */
  Optional<ObjectNode> live(String apiVersion, String kind, String namespace, String name) {
    ApiResources.Type type = resources.requireKind(apiVersion, kind);
    if (!stores(type)) {
      return find(apiVersion, kind, namespace, name);
    }
    watch(type, apiVersion);
    return server
        .live(
            type,
            apiVersion,
            type.namespaced() && namespace.isEmpty() ? "default" : namespace,
            name)
        .map(o -> view(o, apiVersion));
  }

  private void deleteOnServer(
      String apiVersion,
      String kind,
      String namespace,
      String name,
      String uid,
      Propagation propagation) {
    ApiResources.Type type = resources.requireKind(apiVersion, kind);
    watch(type, apiVersion);
    String scoped = type.namespaced() ? (namespace.isEmpty() ? "default" : namespace) : "";
    Optional<ObjectNode> left;
    try {
      left = server.delete(type, apiVersion, scoped, name, uid, propagation);
    } catch (ApiException e) {
      if (e.is(Reason.NOT_FOUND)) {
        forget(key(type, scoped, name));
      }
      throw e;
    }
    if (left.isPresent()) {
      take(type, apiVersion, left.get(), Write.Verb.MARK_DELETED);
    } else {
      forget(key(type, scoped, name));
    }
  }

  /** After a write that may have ended an object (its last finalizer gone): the server says whether it is. */
  private ObjectNode confirm(ApiResources.Type type, String apiVersion, ObjectNode written) {
    Optional<ObjectNode> left =
        server.live(type, apiVersion, Meta.namespace(written), Meta.name(written));
    if (left.isPresent() && Meta.uid(left.get()).equals(Meta.uid(written))) {
      return take(type, apiVersion, left.get(), Write.Verb.UPDATE);
    }
    forget(keyOf(type, written));
    return written;
  }

  /**
   * Keeps what the server answered or holds, logging the change (none when the resourceVersion is the one kept:
   * the server stored nothing new). An object kept under the same name with another uid was replaced meanwhile.
   */
  private ObjectNode take(
      ApiResources.Type type, String apiVersion, ObjectNode object, Write.Verb verb) {
    String key = keyOf(type, object);
    ObjectNode before = objects.get(key);
    if (before != null && !Meta.uid(before).equals(Meta.uid(object))) {
      as("kubernetes", () -> forget(key));
      before = null;
    }
    if (before != null && Meta.resourceVersion(before).equals(Meta.resourceVersion(object))) {
      return before;
    }
    ObjectNode kept = Trees.copy(object);
    objects.put(key, kept);
    resourceVersion++;
    log(verb, kept, before, kept);
    return kept;
  }

  /** Drops an object the server no longer has, logging its deletion. */
  private void forget(String key) {
    ObjectNode gone = objects.remove(key);
    if (gone != null) {
      resourceVersion++;
      log(Write.Verb.DELETE, gone, gone, null);
    }
  }

  /**
   * Reads every kind read so far from the server and takes in what changed there since, each change logged as a
   * write of {@code kubernetes/<field manager>} ({@code kubernetes/kube-controller-manager},
   * {@code kubernetes/kwok}, ...); returns how many changed. Nothing without a server.
   */
  public int refresh() {
    if (server == null) {
      return 0;
    }
    int changes = 0;
    for (ApiResources.Type type : server.trackedTypes()) {
      changes += refresh(type);
    }
    return changes;
  }

  private int refresh(ApiResources.Type type) {
    Map<String, ServerStore.Seen> seen = new TreeMap<>();
    for (ServerStore.Seen object : server.read(type)) {
      seen.put(keyOf(type, object.object()), object);
    }
    String prefix = type.group() + "|" + type.kind() + "|";
    int changes = 0;
    for (String key : List.copyOf(objects.subMap(prefix, prefix + Character.MAX_VALUE).keySet())) {
      if (!seen.containsKey(key)) {
        as("kubernetes", () -> forget(key));
        changes++;
      }
    }
    for (Map.Entry<String, ServerStore.Seen> entry : seen.entrySet()) {
      ObjectNode before = objects.get(entry.getKey());
      ObjectNode after = entry.getValue().object();
      if (before != null && Meta.resourceVersion(before).equals(Meta.resourceVersion(after))) {
        continue;
      }
      Write.Verb verb =
          before == null || !Meta.uid(before).equals(Meta.uid(after))
              ? Write.Verb.CREATE
              : !Meta.deleting(before) && Meta.deleting(after)
                  ? Write.Verb.MARK_DELETED
                  : Trees.same(withoutStatus(before), withoutStatus(after))
                      ? Write.Verb.UPDATE_STATUS
                      : Write.Verb.UPDATE;
      String manager = entry.getValue().manager();
      as(
          manager.isEmpty() ? "kubernetes" : "kubernetes/" + manager,
          () -> take(type, Meta.apiVersion(after), after, verb));
      changes++;
    }
    return changes;
  }

  private static ObjectNode withoutStatus(ObjectNode object) {
    ObjectNode copy = Trees.copy(object);
    copy.remove("status");
    Meta.metadata(copy).remove("resourceVersion");
    return copy;
  }

  /**
   * A world step on a real API server: takes in the server's changes until none came for {@code quiet} (the
   * controllers, the scheduler and the nodes have done their part), or {@code atMost} has passed.
   */
  public void settle(Duration quiet, Duration atMost) {
    long start = System.nanoTime();
    while (true) {
      refresh();
      long now = System.nanoTime();
      if (now - lastChangeNanos >= quiet.toNanos() || now - start >= atMost.toNanos()) {
        return;
      }
      // Each look lists every tracked kind in every namespace: looking twice per quiet
      // period, not four times, halves what the API server and this JVM spend on it, and
      // the controllers get the CPU back (CatSetKubeIT: 148 to 115 s; API server 30 to 23 CPU-s).
      ServerStore.sleep(Math.max(10, Math.min(150, quiet.toMillis() / 2)));
    }
  }

  /**
   * Whether nothing changes on the real API server for {@code quiet} from the latest change on (reading as it waits),
   * or longer while a workload's ready Pods are not yet available: the controllers report them available
   * {@code minReadySeconds} after they became ready, a change that is due although nothing happens meanwhile; so too
   * while an object is being deleted by Kubernetes alone, or a change is due by itself ({@link ChangesDue}: a Job's
   * next Pod after its back-off, a Pod that the node reports Ready after a delay).
   */
  public boolean staysQuiet(Duration quiet) {
    long sequence = lastSequence();
    Duration wait = quiet;
    for (ObjectNode workload : pendingAvailability()) {
      Duration due = Duration.ofSeconds(workload.path("spec").path("minReadySeconds").asLong() + 1);
      wait = due.compareTo(wait) > 0 ? due : wait;
    }
    if (objects.values().stream().anyMatch(Cluster::changingByItself)) {
      wait = ServerTiming.stepAtMost().compareTo(wait) > 0 ? ServerTiming.stepAtMost() : wait;
    }
    while (System.nanoTime() - lastChangeNanos < wait.toNanos()) {
      ServerStore.sleep(200); // a settled scenario's quiet is 1.5 s: seven looks are enough
      refresh();
      if (lastSequence() != sequence) {
        return false;
      }
      if (wait.compareTo(quiet) > 0
          && objects.values().stream().noneMatch(Cluster::changingByItself)
          && pendingAvailability().isEmpty()
          && System.nanoTime() - lastChangeNanos >= quiet.toNanos()) {
        return true;
      }
    }
    return true;
  }

  /** Finalizers Kubernetes itself removes: an object being deleted that holds no other is about to go. */
  private static final Set<String> KUBERNETES_FINALIZERS =
      Set.of(
          "kubernetes",
          "foregroundDeletion",
          "orphan",
          "kubernetes.io/pvc-protection",
          "kubernetes.io/pv-protection",
          "batch.kubernetes.io/job-tracking");

  /**
   * An object being deleted that only Kubernetes holds back (a Namespace whose contents the namespace controller is
   * deleting, a claim in use): its deletion finishes without anyone else, so the cluster has not settled yet.
   */
  private static boolean goingByItself(ObjectNode object) {
    return Meta.deleting(object)
        && KUBERNETES_FINALIZERS.containsAll(Meta.finalizers(object))
        && Meta.finalizers(object).stream().noneMatch(f -> f.startsWith("metacontroller.io/"));
  }

  private static boolean changingByItself(ObjectNode object) {
    return goingByItself(object) || ChangesDue.any(object);
  }

  /** Workloads with {@code minReadySeconds} whose status counts more Pods ready than available. */
  private List<ObjectNode> pendingAvailability() {
    List<ObjectNode> pending = new ArrayList<>();
    for (ObjectNode object : objects.values()) {
      JsonNode status = object.path("status");
      long ready =
          status.has("numberReady")
              ? status.path("numberReady").asLong()
              : status.path("readyReplicas").asLong();
      long available =
          status.has("numberReady")
              ? status.path("numberAvailable").asLong()
              : status.path("availableReplicas").asLong();
      if (Meta.apiVersion(object).startsWith("apps/")
          && object.path("spec").path("minReadySeconds").asLong() > 0
          && ready > available) {
        pending.add(object);
      }
    }
    return pending;
  }

  // ---- internals

  private void remove(String key) {
    ObjectNode removed = objects.remove(key);
    if (removed == null) {
      return;
    }
    resourceVersion++;
    log(Write.Verb.DELETE, removed, removed, null);
    as(
        "garbage-collector",
        () -> {
          collectGarbage(removed);
          releaseGcFinalizers();
        });
  }

  /** Background propagation: dependents left without any existing owner are deleted. */
  private void collectGarbage(ObjectNode removed) {
    String uid = Meta.uid(removed);
    if (Meta.kind(removed).equals("Namespace") && Meta.apiVersion(removed).equals("v1")) {
      for (ObjectNode inside : List.copyOf(objects.values())) {
        if (Meta.namespace(inside).equals(Meta.name(removed))) {
          deleteQuietly(inside);
        }
      }
    }
    Set<String> liveUids = objects.values().stream().map(Meta::uid).collect(Collectors.toSet());
    for (ObjectNode dependent : List.copyOf(objects.values())) {
      List<JsonNode> refs = new ArrayList<>();
      dependent.path("metadata").path("ownerReferences").forEach(refs::add);
      if (refs.stream().noneMatch(r -> uid.equals(r.path("uid").asText()))) {
        continue;
      }
      boolean ownerLeft = refs.stream().anyMatch(r -> liveUids.contains(r.path("uid").asText()));
      if (ownerLeft) {
        ObjectNode next = Trees.copy(dependent);
        ArrayNode kept = Meta.metadata(next).putArray("ownerReferences");
        refs.stream()
            .filter(r -> !uid.equals(r.path("uid").asText()))
            .forEach(r -> kept.add(r.deepCopy()));
        updateQuietly(next);
      } else {
        deleteQuietly(dependent);
      }
    }
  }

  private void deleteQuietly(ObjectNode object) {
    try {
      delete(
          Meta.apiVersion(object),
          Meta.kind(object),
          Meta.namespace(object),
          Meta.name(object),
          Meta.uid(object));
    } catch (ApiException e) {
      // Already gone or replaced: nothing left to collect.
    }
  }

  private void updateQuietly(ObjectNode object) {
    try {
      update(object);
    } catch (ApiException e) {
      // Changed meanwhile: the collector would retry; here nothing else runs in between.
    }
  }

  private ObjectNode existing(String key, ApiResources.Type type, ObjectNode object) {
    ObjectNode current = objects.get(key);
    if (current == null) {
      throw new ApiException(
          Reason.NOT_FOUND,
          Meta.describe(
                  type.kind(),
                  type.namespaced() ? namespaceOrDefault(object) : "",
                  Meta.name(object))
              + " not found");
    }
    return current;
  }

  private static void checkPreconditions(ObjectNode current, ObjectNode object) {
    String uid = object.path("metadata").path("uid").asText("");
    if (!uid.isEmpty() && !uid.equals(Meta.uid(current))) {
      throw new ApiException(
          Reason.CONFLICT,
          Meta.describe(current) + ": uid " + uid + " does not match " + Meta.uid(current));
    }
    String version = object.path("metadata").path("resourceVersion").asText("");
    String currentVersion = current.path("metadata").path("resourceVersion").asText();
    if (!version.isEmpty() && !version.equals(currentVersion)) {
      throw new ApiException(
          Reason.CONFLICT,
          Meta.describe(current)
              + " has been modified: resourceVersion "
              + version
              + " is stale (now "
              + currentVersion
              + ")");
    }
  }

  /**
   * What the API server makes of what it is sent before it defaults and validates it (both profiles: no API server
   * stores a built-in object as sent): explicit nulls ({@link Nulls}), a Secret's {@code stringData} folded into
   * {@code data} ({@link SecretStringData}), and for built-in kinds what their Go structs keep: no unknown fields, no
   * empty optional lists or maps, quantities in canonical form ({@link GoStructs}).
   */
  private void asStored(ApiResources.Type type, ObjectNode object) {
    boolean builtIn = resources.isBuiltIn(type);
    Nulls.asStored(object, resources.crdOf(type).orElse(null), builtIn);
    if (builtIn) {
      SecretStringData.fold(object);
      GoStructs.decode(object);
    } else {
      // A custom resource's fields its CRD does not declare are pruned (structural schemas).
      resources.crdOf(type).ifPresent(crd -> UnknownFields.prune(object, crd));
    }
  }

  /**
   * The object as the API server would store it, before defaults and system fields: what a hook sent that storage
   * changes shows as a difference to it.
   */
  ObjectNode storedForm(ObjectNode input) {
    ObjectNode object = Trees.normalizeObject(input);
    asStored(typeOf(object), object);
    return object;
  }

  private static ObjectNode withoutMetadataAndStatus(ObjectNode object) {
    ObjectNode copy = Trees.copy(object);
    copy.remove(List.of("metadata", "status", "apiVersion", "kind"));
    return copy;
  }

  private ApiResources.Type typeOf(ObjectNode object) {
    String apiVersion = object.path("apiVersion").asText("");
    String kind = object.path("kind").asText("");
    if (apiVersion.isEmpty() || kind.isEmpty()) {
      throw new ApiException(
          Reason.INVALID, "object has no apiVersion or kind: " + Trees.compact(object));
    }
    try {
      return resources.requireKind(apiVersion, kind);
    } catch (IllegalArgumentException e) {
      throw new ApiException(Reason.INVALID, e.getMessage());
    }
  }

  private String keyOf(ApiResources.Type type, ObjectNode object) {
    return key(type, type.namespaced() ? namespaceOrDefault(object) : "", Meta.name(object));
  }

  private static String namespaceOrDefault(ObjectNode object) {
    String namespace = Meta.namespace(object);
    return namespace.isEmpty() ? "default" : namespace;
  }

  private static String key(ApiResources.Type type, String namespace, String name) {
    return type.group() + "|" + type.kind() + "|" + namespace + "|" + name;
  }

  /** A copy in the apiVersion asked for (one stored copy serves every version of the group). */
  private static ObjectNode view(ObjectNode stored, String apiVersion) {
    ObjectNode copy = Trees.copy(stored);
    copy.put("apiVersion", apiVersion);
    return copy;
  }

  private String newUid(String key) {
    return UUID.nameUUIDFromBytes((key + "#" + ++uids).getBytes(StandardCharsets.UTF_8)).toString();
  }

  private String generatedSuffix() {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    long n = ++generatedNames;
    StringBuilder suffix = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      suffix.append(alphabet.charAt((int) (n % alphabet.length())));
      n /= alphabet.length();
    }
    return suffix.toString();
  }

  private String timestamp() {
    return DateTimeFormatter.ISO_INSTANT.format(now);
  }

  private void log(Write.Verb verb, ObjectNode object, ObjectNode before, ObjectNode after) {
    lastChangeNanos = System.nanoTime();
    writes.add(
        new Write(
            resourceVersion,
            actor,
            verb,
            Meta.describe(object),
            Trees.copy(before),
            Trees.copy(after)));
  }

  @Override
  public String toString() {
    Map<String, Long> counts = new TreeMap<>();
    objects.values().forEach(o -> counts.merge(Meta.kind(o), 1L, Long::sum));
    return "Cluster" + counts;
  }
}
