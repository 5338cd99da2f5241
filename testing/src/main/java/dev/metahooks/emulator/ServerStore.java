package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.ApiException.Reason;
import dev.metahooks.testing.kube.MetacontrollerSchema;
import dev.metahooks.testing.kube.Yaml;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A real kube-apiserver as the store of one {@link Cluster}: every write goes to the server and the cluster keeps
 * what the server answered; {@link #read} lists what the server holds now, as Metacontroller's informers would see
 * it. Objects cross in the scenario's terms both ways: namespaces through a {@link NamespaceMap}, server-only
 * metadata ({@code managedFields}) left out of what the cluster keeps.
 *
 * <p>What a scenario sees of the server is what it made: objects in its own namespaces, the cluster-scoped objects
 * created through it, the nodes and storage classes, and the persistent volumes bound to its claims. Two objects the
 * controller manager puts into every namespace ({@code ConfigMap kube-root-ca.crt} and {@code ServiceAccount default})
 * are left out, as the in-memory store has no such thing. Metacontroller's own CompositeControllers and
 * DecoratorControllers stay in memory: they configure the emulated Metacontroller, nothing on the server reads them.
 */
final class ServerStore {
  /** The annotation on each namespace made for a scenario: the test it belongs to. */
  static final String TEST_ANNOTATION = "metahooks.dev/test";

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

  /**
   * CRD names and specs known to be on the server (and established), for every cluster of the JVM; guarded by
   * itself, as scenarios running at once may bring the same CRD.
   */
  private static final Set<String> INSTALLED_CRDS = new HashSet<>();

  private final ServerCalls api;
  private final NamespaceMap namespaces;
  private final ApiResources resources;
  private final String test;

  /** A kind read at every refresh, in the apiVersion it was first asked for. */
  private record Tracked(ApiResources.Type type, String apiVersion) {}

  /** The kinds read at every refresh, by {@code group/Kind}. */
  private final Map<String, Tracked> tracked = new LinkedHashMap<>();

  /** The namespaces made on the server, by the scenario's name: true when the scenario created it (then visible). */
  private final Map<String, Boolean> made = new LinkedHashMap<>();

  /** Cluster-scoped objects created through this store, by uid, with their server path (for the clean-up). */
  private final Map<String, String> clusterScoped = new LinkedHashMap<>();

  /** Cluster-scoped objects the scenario created that were on the server already (CRDs): shown, left in place. */
  private final Set<String> shared = new HashSet<>();

  ServerStore(
      KubernetesClient client, NamespaceMap namespaces, ApiResources resources, String test) {
    this.api = new ServerCalls(new dev.metahooks.testing.kube.KubeApi(client));
    this.namespaces = namespaces;
    this.resources = resources;
    this.test = test;
  }

  NamespaceMap namespaces() {
    return namespaces;
  }

  /** Whether the server stores this kind (all but Metacontroller's controller objects). */
  boolean serves(ApiResources.Type type) {
    return !(type.group().equals("metacontroller.k8s.io")
        && (type.kind().equals("CompositeController")
            || type.kind().equals("DecoratorController")));
  }

  /** Puts the CRDs of the cluster's kinds and Metacontroller's own on the server, once per JVM, and waits for them. */
  void installCrds() {
    List<ObjectNode> crds = new ArrayList<>();
    for (ObjectNode crd : Yaml.objects(MetacontrollerSchema.crds())) {
      if (Meta.kind(crd).equals("CustomResourceDefinition")) {
        crds.add(crd);
      }
    }
    resources.crds().forEach(crd -> crds.add(Trees.normalizeObject(crd)));
    synchronized (INSTALLED_CRDS) {
      for (ObjectNode crd : crds) {
        String identity = Meta.name(crd) + "#" + Trees.canonical(crd.path("spec"));
        if (INSTALLED_CRDS.contains(identity)) {
          continue;
        }
        Instant kindsChanged = applyCrd(crd);
        long known =
            System.nanoTime()
                + Duration.between(Instant.now(), kindsChanged.plus(GC_DISCOVERY_RESYNC)).toNanos();
        garbageCollectorKnowsKindsAt = Math.max(garbageCollectorKnowsKindsAt, known);
        INSTALLED_CRDS.add(identity);
      }
    }
  }

  /**
   * The garbage collector watches a new kind only after its next discovery resync, every 30 seconds
   * (kube-controller-manager's startGarbageCollectorController, cmd/kube-controller-manager/app/core.go):
   * until then a deleted object's dependents of that kind, or a deleted custom resource's, stay. So a
   * delete waits until that resync has passed since the CRDs last changed; most scenarios delete late
   * enough to wait for nothing.
   */
  private static void awaitGarbageCollectorResync() {
    long left = garbageCollectorKnowsKindsAt - System.nanoTime();
    if (left > 0) {
      sleep(Duration.ofNanos(left).toMillis() + 1);
    }
  }

  /** How often the garbage collector rediscovers the kinds it watches, plus a second. */
  private static final Duration GC_DISCOVERY_RESYNC = Duration.ofSeconds(31);

  /** When the garbage collector has seen this JVM's latest CRD change ({@link System#nanoTime}). */
  private static volatile long garbageCollectorKnowsKindsAt = System.nanoTime();

  /**
   * Creates or updates a CRD and waits until it is established; when the server's kinds last changed by it: now if
   * this wrote it, else when it was created (by another JVM on the same control plane, maybe a moment ago).
   */
  private Instant applyCrd(ObjectNode crd) {
    ApiResources.Type type =
        resources.requireKind("apiextensions.k8s.io/v1", "CustomResourceDefinition");
    String path = ServerCalls.path("apiextensions.k8s.io/v1", type, "", Meta.name(crd));
    boolean changed;
    for (int attempt = 1; ; attempt++) {
      try {
        changed = createOrReplace(type, path, crd);
        break;
      } catch (ApiException e) {
        // Another JVM's tests on the same control plane wrote it first: read it again.
        if (!(e.is(Reason.CONFLICT) || e.is(Reason.ALREADY_EXISTS)) || attempt == 5) {
          throw e;
        }
      }
    }
    waitFor(
        "CustomResourceDefinition " + Meta.name(crd) + " to be established",
        () -> api.get(path).map(ServerStore::established).orElse(false));
    if (changed) {
      return Instant.now();
    }
    return api.get(path)
        .map(o -> Instant.parse(o.path("metadata").path("creationTimestamp").asText()))
        .orElseGet(Instant::now);
  }

  private boolean createOrReplace(ApiResources.Type type, String path, ObjectNode crd) {
    ObjectNode written = Trees.copy(crd);
    written.remove("status");
    Optional<ObjectNode> existing = api.get(path);
    if (existing.isEmpty()) {
      api.create(
          ServerCalls.path("apiextensions.k8s.io/v1", type, "", ""), written, "metahooks-emulator");
      return true;
    }
    if (Trees.same(existing.get().path("spec"), written.path("spec"))) {
      return false;
    }
    Meta.metadata(written).put("resourceVersion", Meta.resourceVersion(existing.get()));
    ObjectNode replaced = api.replace(path, written, "metahooks-emulator");
    // The server defaults the spec: stored unchanged, it was the same CRD.
    return !Meta.resourceVersion(replaced).equals(Meta.resourceVersion(existing.get()));
  }

  private static boolean established(JsonNode crd) {
    for (JsonNode condition : crd.path("status").path("conditions")) {
      if (condition.path("type").asText().equals("Established")) {
        return condition.path("status").asText().equals("True");
      }
    }
    return false;
  }

  // ---- writes

  ObjectNode create(ApiResources.Type type, String apiVersion, ObjectNode object, String actor) {
    if (type.namespaced()) {
      ensureNamespace(namespaceOrDefault(object));
    }
    if (isNamespace(type) && made.containsKey(Meta.name(object))) {
      return adoptNamespace(object);
    }
    ObjectNode sent = toServer(type, object);
    if (isCrd(type)) {
      String path = ServerCalls.path(apiVersion, type, "", Meta.name(object));
      // A CRD an earlier scenario deleted may still be going (its custom resources are deleted
      // first).
      waitFor(
          "CustomResourceDefinition " + Meta.name(object) + " to finish its deletion",
          () -> api.get(path).map(crd -> !Meta.deleting(crd)).orElse(true));
      Optional<ObjectNode> installed = api.get(path);
      if (installed.isPresent()) {
        // Installed for every scenario of the JVM (or an earlier one): updated if need be, shown,
        // never deleted.
        applyCrd(object);
        ObjectNode current =
            api.get(ServerCalls.path(apiVersion, type, "", Meta.name(object))).orElseThrow();
        shared.add(Meta.uid(current));
        return toScenario(type, current);
      }
    }
    ObjectNode created =
        api.create(ServerCalls.path(apiVersion, type, Meta.namespace(sent), ""), sent, actor);
    if (!type.namespaced()) {
      clusterScoped.put(
          Meta.uid(created), ServerCalls.path(apiVersion, type, "", Meta.name(created)));
    }
    if (isNamespace(type)) {
      made.put(Meta.name(object), true);
      waitForDefaultServiceAccount(Meta.name(object));
    }
    if (isCrd(type)) {
      // As kubectl wait --for=condition=Established: the CRD as it is once its kind is served.
      String path = ServerCalls.path(apiVersion, type, "", Meta.name(created));
      waitFor(
          "CustomResourceDefinition " + Meta.name(created) + " to be established",
          () -> api.get(path).map(ServerStore::established).orElse(false));
      return toScenario(type, api.get(path).orElse(created));
    }
    return toScenario(type, created);
  }

  ObjectNode replace(ApiResources.Type type, String apiVersion, ObjectNode object, String actor) {
    ObjectNode sent = toServer(type, object);
    return toScenario(type, api.replace(pathOf(type, apiVersion, sent), sent, actor));
  }

  ObjectNode replaceStatus(
      ApiResources.Type type, String apiVersion, ObjectNode object, String actor) {
    ObjectNode sent = toServer(type, object);
    return toScenario(type, api.replaceStatus(pathOf(type, apiVersion, sent), sent, actor));
  }

  /** Deletes; the object as it is afterwards when it stays (finalizers, a grace period), else empty. */
  Optional<ObjectNode> delete(
      ApiResources.Type type,
      String apiVersion,
      String namespace,
      String name,
      String uid,
      Cluster.Propagation propagation) {
    String path =
        ServerCalls.path(
            apiVersion,
            type,
            namespaces.toServer(type.namespaced() ? namespace : ""),
            serverName(type, name));
    awaitGarbageCollectorResync();
    api.delete(
        path,
        propagation == null
            ? null
            : switch (propagation) {
              case BACKGROUND -> "Background";
              case FOREGROUND -> "Foreground";
              case ORPHAN -> "Orphan";
            },
        uid);
    return live(type, apiVersion, namespace, name);
  }

  /** The object as the server holds it now (a live GET, not the cluster's view), in the scenario's terms. */
  Optional<ObjectNode> live(
      ApiResources.Type type, String apiVersion, String namespace, String name) {
    if (type.namespaced() && !made.containsKey(namespace)) {
      return Optional.empty();
    }
    String path =
        ServerCalls.path(
            apiVersion,
            type,
            namespaces.toServer(type.namespaced() ? namespace : ""),
            serverName(type, name));
    return api.get(path).map(o -> toScenario(type, o)).filter(o -> visible(type, o));
  }

  // ---- reads

  /** Starts reading a kind at every refresh; true the first time. */
  boolean track(ApiResources.Type type, String apiVersion) {
    return serves(type) && tracked.putIfAbsent(key(type), new Tracked(type, apiVersion)) == null;
  }

  /** The kinds read at every refresh. */
  List<ApiResources.Type> trackedTypes() {
    return tracked.values().stream().map(Tracked::type).toList();
  }

  private static String key(ApiResources.Type type) {
    return type.group() + "/" + type.kind();
  }

  /** An object as the scenario sees it, and the field manager of its latest change ({@link #lastManager}). */
  record Seen(ObjectNode object, String manager) {}

  /** Every object of a tracked kind the scenario may see, as the server holds them now. */
  List<Seen> read(ApiResources.Type type) {
    String apiVersion = tracked.get(key(type)).apiVersion();
    List<Seen> objects = new ArrayList<>();
    if (type.namespaced()) {
      for (String namespace : List.copyOf(made.keySet())) {
        String path = ServerCalls.path(apiVersion, type, namespaces.toServer(namespace), "");
        for (ObjectNode object : listOrNothing(path, apiVersion, type.kind())) {
          ObjectNode seen = toScenario(type, object);
          if (visible(type, seen)) {
            objects.add(new Seen(seen, lastManager(object)));
          }
        }
      }
    } else {
      for (ObjectNode object :
          listOrNothing(ServerCalls.path(apiVersion, type, "", ""), apiVersion, type.kind())) {
        if (visibleClusterScoped(type, object)) {
          objects.add(new Seen(toScenario(type, object), lastManager(object)));
        }
      }
    }
    return objects;
  }

  private List<ObjectNode> listOrNothing(String path, String apiVersion, String kind) {
    try {
      return api.list(path, apiVersion, kind);
    } catch (ApiException e) {
      if (e.is(Reason.NOT_FOUND)) {
        return List.of();
      }
      throw e;
    }
  }

  /**
   * Who made the latest change of a server object: the field manager of its newest managedFields entry
   * ({@code kube-controller-manager}, {@code kube-scheduler}, {@code kwok}, ...), or {@code ""}.
   */
  static String lastManager(JsonNode serverObject) {
    String manager = "";
    String newest = "";
    for (JsonNode entry : serverObject.path("metadata").path("managedFields")) {
      String time = entry.path("time").asText("");
      if (time.compareTo(newest) >= 0) {
        newest = time;
        manager = entry.path("manager").asText("");
      }
    }
    return manager;
  }

  // ---- the scenario's terms and the server's

  private boolean visible(ApiResources.Type type, ObjectNode seen) {
    if (isNamespace(type)) {
      return Boolean.TRUE.equals(made.get(Meta.name(seen)));
    }
    if (!type.namespaced()) {
      return true;
    }
    String name = Meta.name(seen);
    return !(type.group().isEmpty()
        && (type.kind().equals("ConfigMap") && name.equals("kube-root-ca.crt")
            || type.kind().equals("ServiceAccount") && name.equals("default")));
  }

  private boolean visibleClusterScoped(ApiResources.Type type, ObjectNode serverObject) {
    if (isNamespace(type)) {
      String namespace = namespaces.toScenario(Meta.name(serverObject));
      return namespace != null && Boolean.TRUE.equals(made.get(namespace));
    }
    if (type.group().equals("storage.k8s.io") && type.kind().equals("StorageClass")
        || type.group().isEmpty() && type.kind().equals("Node")) {
      return true;
    }
    if (type.group().isEmpty() && type.kind().equals("PersistentVolume")) {
      String claimNamespace =
          serverObject.path("spec").path("claimRef").path("namespace").asText("");
      return namespaces.toScenario(claimNamespace) != null;
    }
    return clusterScoped.containsKey(Meta.uid(serverObject))
        || shared.contains(Meta.uid(serverObject));
  }

  /** A copy for the server: namespaces (and a Namespace's own name) mapped. */
  private ObjectNode toServer(ApiResources.Type type, ObjectNode object) {
    ObjectNode sent = Trees.copy(object);
    ObjectNode metadata = Meta.metadata(sent);
    if (type.namespaced()) {
      metadata.put("namespace", namespaces.toServer(namespaceOrDefault(object)));
    } else {
      metadata.remove("namespace");
    }
    if (isNamespace(type)) {
      String name = namespaces.toServer(Meta.name(object));
      metadata.put("name", name);
      if (metadata.path("labels").has(NAMESPACE_NAME_LABEL)) {
        metadata.withObjectProperty("labels").put(NAMESPACE_NAME_LABEL, name);
      }
    }
    return sent;
  }

  /** The label the API server sets on every Namespace to its name. */
  private static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

  /** A copy for the scenario: namespaces back to its names, managedFields left out. */
  private ObjectNode toScenario(ApiResources.Type type, ObjectNode serverObject) {
    ObjectNode seen = Trees.copy(serverObject);
    ObjectNode metadata = Meta.metadata(seen);
    metadata.remove("managedFields");
    if (type.namespaced()) {
      String namespace = namespaces.toScenario(Meta.namespace(serverObject));
      metadata.put("namespace", namespace == null ? Meta.namespace(serverObject) : namespace);
    }
    if (isNamespace(type)) {
      String name = namespaces.toScenario(Meta.name(serverObject));
      if (name != null) {
        metadata.put("name", name);
        if (metadata.path("labels").has(NAMESPACE_NAME_LABEL)) {
          metadata.withObjectProperty("labels").put(NAMESPACE_NAME_LABEL, name);
        }
      }
      if (metadata.path("annotations").isObject()) {
        metadata.withObjectProperty("annotations").remove(TEST_ANNOTATION);
        if (metadata.path("annotations").isEmpty()) {
          metadata.remove("annotations");
        }
      }
    }
    if (type.group().isEmpty() && type.kind().equals("PersistentVolume")) {
      JsonNode claimRef = seen.path("spec").get("claimRef");
      if (claimRef instanceof ObjectNode ref) {
        String namespace = namespaces.toScenario(ref.path("namespace").asText(""));
        if (namespace != null) {
          ref.put("namespace", namespace);
        }
      }
    }
    return seen;
  }

  private String pathOf(ApiResources.Type type, String apiVersion, ObjectNode serverObject) {
    return ServerCalls.path(
        apiVersion, type, Meta.namespace(serverObject), Meta.name(serverObject));
  }

  private String serverName(ApiResources.Type type, String name) {
    return isNamespace(type) ? namespaces.toServer(name) : name;
  }

  private static boolean isCrd(ApiResources.Type type) {
    return type.group().equals("apiextensions.k8s.io")
        && type.kind().equals("CustomResourceDefinition");
  }

  private static boolean isNamespace(ApiResources.Type type) {
    return type.group().isEmpty() && type.kind().equals("Namespace");
  }

  private static String namespaceOrDefault(ObjectNode object) {
    String namespace = Meta.namespace(object);
    return namespace.isEmpty() ? "default" : namespace;
  }

  // ---- namespaces

  /** The server's namespace for one of the scenario's, made on first use (Kubernetes needs it; the emulator does not). */
  private void ensureNamespace(String namespace) {
    if (made.containsKey(namespace)) {
      return;
    }
    ObjectNode object = Trees.object().put("apiVersion", "v1").put("kind", "Namespace");
    Meta.metadata(object)
        .put("name", namespaces.toServer(namespace))
        .putObject("annotations")
        .put(TEST_ANNOTATION, test);
    try {
      api.create("/api/v1/namespaces", object, "metahooks-emulator");
    } catch (ApiException e) {
      if (!e.is(Reason.ALREADY_EXISTS)) {
        throw e;
      }
    }
    made.put(namespace, false);
    waitForDefaultServiceAccount(namespace);
  }

  /** A scenario creates a Namespace that was made for its objects already: it gets the scenario's labels. */
  private ObjectNode adoptNamespace(ObjectNode object) {
    ObjectNode patch = Trees.object();
    ObjectNode metadata = patch.putObject("metadata");
    for (String field : List.of("labels", "annotations")) {
      if (object.path("metadata").path(field).isObject()) {
        metadata.set(field, object.path("metadata").get(field).deepCopy());
      }
    }
    String path = "/api/v1/namespaces/" + namespaces.toServer(Meta.name(object));
    ObjectNode current =
        api.get(path)
            .orElseThrow(
                () ->
                    new ApiException(
                        Reason.NOT_FOUND, "Namespace " + Meta.name(object) + " is gone"));
    for (String field : List.of("labels", "annotations")) {
      if (metadata.has(field)) {
        Meta.metadata(current).withObjectProperty(field).setAll((ObjectNode) metadata.get(field));
      }
    }
    ObjectNode patched = api.replace(path, current, "metahooks-emulator");
    made.put(Meta.name(object), true);
    return toScenario(resources.requireKind("v1", "Namespace"), patched);
  }

  /**
   * The controller manager's service-account controller makes {@code default} in a new namespace a moment later, and
   * the ServiceAccount admission plugin refuses Pods until it exists.
   */
  private void waitForDefaultServiceAccount(String namespace) {
    String path =
        "/api/v1/namespaces/" + namespaces.toServer(namespace) + "/serviceaccounts/default";
    waitFor(
        "ServiceAccount default in " + namespaces.toServer(namespace),
        () -> api.get(path).isPresent());
  }

  private static void waitFor(String what, java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "timed out after " + READY_TIMEOUT.toSeconds() + " s waiting for " + what);
      }
      sleep(50);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  // ---- clean-up

  /**
   * Deletes what the scenario left: its namespaces (with everything in them) and the cluster-scoped objects made
   * through it. Finalizers nobody will remove any more (Metacontroller's, a test's) are taken off first, so nothing
   * stays Terminating. With the system property {@code metahooks.kube.keep=true} (or {@code METAHOOKS_KUBE_KEEP=true}) everything is
   * left for a look.
   */
  void close() {
    if (Boolean.getBoolean("metahooks.kube.keep")
        || "true".equals(System.getenv("METAHOOKS_KUBE_KEEP"))) {
      return; // left for a look with kubectl: the namespaces carry the test's name
      // (TEST_ANNOTATION)
    }
    Set<String> done = new HashSet<>();
    for (ApiResources.Type type : trackedTypes()) {
      if (!type.namespaced() || isNamespace(type)) {
        continue;
      }
      for (Seen seen : read(type)) {
        ObjectNode object = seen.object();
        if (!Meta.finalizers(object).isEmpty() && done.add(Meta.uid(object))) {
          dropFinalizers(
              ServerCalls.path(
                  tracked.get(key(type)).apiVersion(),
                  type,
                  namespaces.toServer(Meta.namespace(object)),
                  Meta.name(object)));
        }
      }
    }
    for (String path : new LinkedHashSet<>(clusterScoped.values())) {
      dropFinalizers(path);
      try {
        api.delete(path, "Background", null);
      } catch (ApiException e) {
        // already gone
      }
    }
    for (String namespace : made.keySet()) {
      try {
        api.delete("/api/v1/namespaces/" + namespaces.toServer(namespace), "Background", null);
      } catch (ApiException e) {
        // already gone
      }
    }
  }

  private void dropFinalizers(String path) {
    for (int attempt = 0; attempt < 5; attempt++) {
      try {
        Optional<ObjectNode> current = api.get(path);
        if (current.isEmpty() || Meta.finalizers(current.get()).isEmpty()) {
          return;
        }
        Meta.metadata(current.get()).remove("finalizers");
        api.replace(path, current.get(), "metahooks-emulator");
        return;
      } catch (ApiException e) {
        // changed meanwhile: read it again
      }
    }
  }
}
