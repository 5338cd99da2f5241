package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Hook;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
import dev.metahooks.controllers.postgres.base.ChildTypes;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.observed.Preserved;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SecretReferences;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A builder of the requests Metacontroller would send the PostgresCluster hooks for one cluster, for tests of a hook
 * call's answer to a request crafted as they need it: the parent, its children as Metacontroller observes them
 * after applying an answer (with the last-applied annotation, owner reference, controller-uid label, server fields
 * and status), database pods in whatever state a test needs, and the related objects. {@link #apply} carries an
 * answer over into the next request as Metacontroller's apply would, so a test can reach a state call by call. It
 * is no simulated world: no watch, no retries, no merge subtleties, no clock, nothing happens by itself. Scenarios
 * run under the kit's emulator ({@code dev.metahooks.emulator}, {@link PostgresEmulation}).
 */
public final class ObservedRequests {
  public static final String NAMESPACE = "shop";
  static final String CREATED = "2025-12-31T12:00:00Z";

  /** Go's encoding/json sorts map keys; Metacontroller stores the last-applied configuration that way. */
  private static final ObjectMapper SORTED =
      JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

  private static final Set<String> ON_DELETE = Set.of("Job");

  public final String name;

  /** Where the cluster lives: {@link #NAMESPACE} unless a test needs another. */
  final String namespace;

  public final String uid;
  public String hookVersion = "v1";
  public ObjectNode spec;
  long generation = 1;
  public ObjectNode status;
  public String deletionTimestamp;

  /** The parent's annotations (none by default). */
  public final ObjectNode annotations = Json.object();

  /** Observed children by kind/name. */
  public final Map<String, ObjectNode> children = new TreeMap<>();

  /** Observed database pods by name. */
  public final Map<String, ObjectNode> pods = new TreeMap<>();

  /** Patroni's ConfigMaps (related objects) by name. */
  public final Map<String, ObjectNode> configMaps = new TreeMap<>();

  /** Secrets of the namespace the spec names (the TLS Secret, a standby's source Secrets), by name. */
  public final Map<String, ObjectNode> relatedSecrets = new TreeMap<>();

  /**
   * Whether whoever may read them has given the spec's Secrets to this cluster: then each Secret of
   * {@link #relatedSecrets} is sent with the cluster's mark, and each store or key Secret the spec names is there,
   * marked, with the keys it reads. Off: only what carries the mark itself is sent, as Metacontroller relates it.
   */
  boolean secretsGiven = true;

  /** Whether Metacontroller still holds a customize answer of the earlier release, which related no Secrets. */
  boolean earlierCustomizeAnswer;

  /** Other PostgresClusters of the namespace, by name, as the customize hook relates them. */
  public final Map<String, ObjectNode> otherClusters = new TreeMap<>();

  /** The cluster's volume claims and the StorageClasses, related (and sent) only once {@link #relateVolumes} ran. */
  public final Map<String, ObjectNode> claims = new TreeMap<>();

  final Map<String, ObjectNode> storageClasses = new TreeMap<>();
  boolean volumesRelated;

  /** Time and secrets for the hooks: pinned unless a test needs other passwords. */
  public dev.metahooks.api.Sources sources = FixedSources.INSTANCE;

  /** Whether the controller declares PodMonitors (the optional component is installed). */
  public boolean podMonitorsDeclared;

  private int resourceVersion = 1000;
  private int clusterIps = 10;

  public ObservedRequests(String name, ObjectNode spec) {
    this(name, spec, NAMESPACE);
  }

  public ObservedRequests(String name, ObjectNode spec, String namespace) {
    this(
        name,
        spec,
        namespace,
        UUID.nameUUIDFromBytes(("parent/" + name).getBytes(StandardCharsets.UTF_8)).toString());
  }

  /** {@code uid}: another incarnation of a cluster of the same name (created again, or restored under it). */
  public ObservedRequests(String name, ObjectNode spec, String namespace, String uid) {
    this.name = name;
    this.namespace = namespace;
    this.uid = uid;
    this.spec = spec;
  }

  /** The requests for one of the sample custom resources in manifests/examples. */
  public static ObservedRequests fromSample(String file) {
    ObjectNode sample = sample(file);
    return new ObservedRequests(
        sample.path("metadata").path("name").asText(), (ObjectNode) sample.get("spec"));
  }

  static ObjectNode sample(String file) {
    try {
      return (ObjectNode)
          new YAMLMapper()
              .readTree(Resources.projectDir().resolve("manifests/examples/" + file).toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The manifest, read once: a request is made per call, and YAML parsing is what would cost. */
  private static final ObjectNode CONTROLLER_MANIFEST = readControllerManifest();

  private static ObjectNode readControllerManifest() {
    try {
      return (ObjectNode)
          new YAMLMapper()
              .readTree(
                  Resources.projectDir().resolve("metacontroller/postgrescluster.yaml").toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The CompositeController of metacontroller/postgrescluster.yaml, with every hook at the given version. */
  static ObjectNode controller(String version) {
    ObjectNode controller = CONTROLLER_MANIFEST.deepCopy();
    controller
        .withObjectProperty("metadata")
        .put("uid", "2f1e3b7c-6a55-4c1d-9f0e-8d7c6b5a4f3e")
        .put("generation", 1);
    controller
        .withObjectProperty("spec")
        .withObjectProperty("hooks")
        .properties()
        .forEach(hook -> ((ObjectNode) hook.getValue()).put("version", version));
    controller.putObject("status");
    return controller;
  }

  public ObjectNode parent() {
    ObjectNode parent =
        Json.object().put("apiVersion", "metahooks.dev/v1alpha1").put("kind", "PostgresCluster");
    ObjectNode metadata =
        parent
            .putObject("metadata")
            .put("name", name)
            .put("namespace", namespace)
            .put("uid", uid)
            .put("resourceVersion", String.valueOf(resourceVersion))
            .put("generation", generation)
            .put("creationTimestamp", CREATED);
    if (deletionTimestamp != null) {
      metadata.put("deletionTimestamp", deletionTimestamp);
    }
    if (!annotations.isEmpty()) {
      metadata.set("annotations", annotations.deepCopy());
    }
    metadata.putArray("finalizers").add("metacontroller.io/compositecontroller-postgrescluster");
    parent.set("spec", spec.deepCopy());
    if (status != null) {
      parent.set("status", status.deepCopy());
    }
    return parent;
  }

  /** What the hook observes of the request Metacontroller would send now (a sync). */
  public ObservedCluster observed() {
    return ObservedCluster.of(
        CompositeRequest.read(request(false), Hook.SYNC), SpecReader.read(parent()).spec());
  }

  /** The request Metacontroller would send now, with this builder's hook version for keys. */
  ObjectNode request(boolean finalizing) {
    ObjectNode request = Json.object();
    ObjectNode controller = controller(hookVersion);
    if (podMonitorsDeclared) {
      controller
          .withObjectProperty("spec")
          .withArrayProperty("childResources")
          .addObject()
          .put("apiVersion", ChildTypes.POD_MONITOR.apiVersion())
          .put("resource", "podmonitors")
          .putObject("updateStrategy")
          .put("method", "InPlace");
    }
    request.set("controller", controller);
    request.set("parent", parent());
    ObjectNode childMap = request.putObject("children");
    List<ChildTypes.ChildType> types = new ArrayList<>(ChildTypes.ALL);
    if (podMonitorsDeclared) {
      types.add(ChildTypes.POD_MONITOR);
    }
    for (ChildTypes.ChildType type : types) {
      ObjectNode group = childMap.putObject(ObjectMap.groupKey(type.apiVersion(), type.kind()));
      children.forEach(
          (key, child) -> {
            if (key.startsWith(type.kind() + "/")
                && child.path("apiVersion").asText().equals(type.apiVersion())) {
              group.set(key(child), child.deepCopy());
            }
          });
    }
    ObjectNode related = request.putObject("related");
    ObjectNode podGroup = related.putObject("Pod.v1");
    pods.values().forEach(pod -> podGroup.set(key(pod), pod.deepCopy()));
    ObjectNode configMapGroup = related.putObject("ConfigMap.v1");
    configMaps
        .values()
        .forEach(configMap -> configMapGroup.set(key(configMap), configMap.deepCopy()));
    // The namespace's clusters: this one alone (the customize hook selects them all).
    ObjectNode parent = parent();
    ObjectNode clusterGroup =
        related.putObject(
            ObjectMap.groupKey(
                ObservedCluster.CLUSTERS.apiVersion(), ObservedCluster.CLUSTERS.kind()));
    clusterGroup.set(key(parent), parent);
    otherClusters.values().forEach(other -> clusterGroup.set(key(other), other.deepCopy()));
    // Metacontroller sends a related group for every rule the customize hook gave: Secrets, by the
    // cluster's mark,
    // whenever the spec names one.
    ClusterSpec read = SpecReader.read(parent).spec();
    boolean earlierRelated = read.tls().isPresent() || read.standby().isPresent();
    if (ObservedCluster.relatedTypes(read).contains(ObservedCluster.GIVEN_SECRETS)
        && (!earlierCustomizeAnswer || earlierRelated)) {
      ObjectNode secretGroup = related.putObject("Secret.v1");
      for (ObjectNode secret : namespaceSecrets(read)) {
        if (SecretMarks.givenTo(secret, name)) {
          secretGroup.set(key(secret), secret);
        }
      }
    }
    if (volumesRelated) {
      ObjectNode claimGroup = related.putObject("PersistentVolumeClaim.v1");
      claims.values().forEach(claim -> claimGroup.set(key(claim), claim.deepCopy()));
      ObjectNode classGroup =
          related.putObject(
              ObjectMap.groupKey(
                  ObservedCluster.STORAGE_CLASSES.apiVersion(),
                  ObservedCluster.STORAGE_CLASSES.kind()));
      storageClasses
          .values()
          .forEach(c -> classGroup.set(c.path("metadata").path("name").asText(), c.deepCopy()));
    }
    request.put("finalizing", finalizing);
    return request;
  }

  /** The Secrets the spec names, as the namespace holds them (given to the cluster with {@link #secretsGiven}). */
  private List<ObjectNode> namespaceSecrets(ClusterSpec read) {
    Map<String, ObjectNode> secrets = new TreeMap<>();
    relatedSecrets.forEach((secretName, secret) -> secrets.put(secretName, secret.deepCopy()));
    if (secretsGiven) {
      for (SecretReferences.Reference reference : SecretReferences.of(read)) {
        ObjectNode secret =
            secrets.computeIfAbsent(
                reference.secret(),
                secretName -> {
                  ObjectNode created = Json.object().put("apiVersion", "v1").put("kind", "Secret");
                  created.putObject("metadata").put("name", secretName).put("namespace", namespace);
                  return created.put("type", "Opaque");
                });
        reference
            .keys()
            .forEach(
                key ->
                    secret
                        .withObjectProperty("data")
                        .put(
                            key,
                            Base64.getEncoder()
                                .encodeToString(
                                    ("example-" + key).getBytes(StandardCharsets.UTF_8))));
      }
      secrets.values().forEach(secret -> SecretMarks.markOwn(secret, name));
    }
    return List.copyOf(secrets.values());
  }

  /**
   * The claims the StatefulSet controller made for the pods (bound, at the claim template's size, the class filled
   * in as the API server's DefaultStorageClass admission does) and one default StorageClass {@code className}.
   */
  public void relateVolumes(String className, boolean allowVolumeExpansion) {
    relateStorageClass(className, allowVolumeExpansion);
    JsonNode template = children.get("StatefulSet/" + name).at("/spec/volumeClaimTemplates/0");
    for (String pod : pods.keySet()) {
      String claimName = template.at("/metadata/name").asText() + "-" + pod;
      ObjectNode claim = Json.object().put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
      ObjectNode metadata =
          claim
              .putObject("metadata")
              .put("name", claimName)
              .put("namespace", namespace)
              .put(
                  "uid",
                  UUID.nameUUIDFromBytes(("claim/" + claimName).getBytes(StandardCharsets.UTF_8))
                      .toString())
              .put("resourceVersion", String.valueOf(++resourceVersion))
              .put("creationTimestamp", CREATED);
      metadata.set("labels", template.at("/metadata/labels").deepCopy());
      ObjectNode claimSpec = ((ObjectNode) template.get("spec")).deepCopy();
      claimSpec
          .put("storageClassName", className)
          .put("volumeName", "pvc-" + metadata.path("uid").asText());
      claim.set("spec", claimSpec);
      ObjectNode claimStatus = claim.putObject("status").put("phase", "Bound");
      claimStatus.set("accessModes", claimSpec.get("accessModes").deepCopy());
      claimStatus.set("capacity", claimSpec.at("/resources/requests").deepCopy());
      claims.put(claimName, claim);
    }
  }

  /** The claims and StorageClasses sent from now on, with one default StorageClass {@code className}. */
  void relateStorageClass(String className, boolean allowVolumeExpansion) {
    volumesRelated = true;
    ObjectNode storageClass =
        Json.object().put("apiVersion", "storage.k8s.io/v1").put("kind", "StorageClass");
    storageClass
        .putObject("metadata")
        .put("name", className)
        .put(
            "uid",
            UUID.nameUUIDFromBytes(("class/" + className).getBytes(StandardCharsets.UTF_8))
                .toString())
        .put("resourceVersion", "10")
        .putObject("annotations")
        .put("storageclass.kubernetes.io/is-default-class", "true");
    storageClass
        .put("provisioner", "csi.example.com")
        .put("reclaimPolicy", "Delete")
        .put("volumeBindingMode", "WaitForFirstConsumer")
        .put("allowVolumeExpansion", allowVolumeExpansion);
    storageClasses.put(className, storageClass);
  }

  private String key(JsonNode object) {
    String objectName = object.path("metadata").path("name").asText();
    return hookVersion.equals("v2") ? namespace + "/" + objectName : objectName;
  }

  /** Calls the hook in-process with pinned time and secrets, and returns the answer as JSON. */
  public JsonNode call(boolean finalizing) {
    ObjectNode body = request(finalizing);
    CompositeRequest request = CompositeRequest.read(body, finalizing ? Hook.FINALIZE : Hook.SYNC);
    CompositeResponse response =
        finalizing
            ? PostgresClusterController.finalize(request, sources)
            : PostgresClusterController.sync(request, sources);
    return JsonTrees.MAPPER.valueToTree(response);
  }

  /** Calls sync and applies the answer; returns the answer. */
  public JsonNode sync() {
    JsonNode answer = call(false);
    apply(answer);
    return answer;
  }

  /** What Metacontroller does with an answer: status replaced, children created, updated or deleted. */
  public void apply(JsonNode answer) {
    status = answer.path("status").isObject() ? (ObjectNode) answer.get("status").deepCopy() : null;
    Map<String, ObjectNode> desired = new TreeMap<>();
    for (JsonNode child : answer.path("children")) {
      desired.put(
          child.path("kind").asText() + "/" + child.path("metadata").path("name").asText(),
          (ObjectNode) child);
    }
    children.keySet().removeIf(key -> !desired.containsKey(key));
    desired.forEach(
        (key, child) -> {
          ObjectNode observed = children.get(key);
          if (observed == null) {
            children.put(key, create(child));
          } else if (!ON_DELETE.contains(child.path("kind").asText())
              && !lastApplied(child).equals(lastAppliedOf(observed))) {
            children.put(key, update(observed, child));
          }
        });
  }

  /**
   * The last-applied text of each child's last desired state, by {@code kind/name}: an answer mostly repeats the
   * children of the one before, and the text is a function of the desired state alone (this cluster's namespace and
   * uid never change), so a child asked for as before is not written out again.
   */
  private final Map<String, Map.Entry<ObjectNode, String>> appliedTexts = new HashMap<>();

  private String lastApplied(ObjectNode desired) {
    String key =
        desired.path("kind").asText() + "/" + desired.path("metadata").path("name").asText();
    Map.Entry<ObjectNode, String> known = appliedTexts.get(key);
    if (known == null || !known.getKey().equals(desired)) {
      known = Map.entry(desired.deepCopy(), appliedText(desired));
      appliedTexts.put(key, known);
    }
    return known.getValue();
  }

  private String appliedText(ObjectNode desired) {
    ObjectNode applied = desired.deepCopy();
    ObjectNode metadata = applied.withObjectProperty("metadata");
    metadata.put("namespace", namespace);
    metadata.withObjectProperty("labels").put("controller-uid", uid);
    if (metadata.path("annotations").isObject()) {
      ((ObjectNode) metadata.get("annotations")).remove(Preserved.LAST_APPLIED);
    }
    try {
      return SORTED.writeValueAsString(SORTED.treeToValue(applied, Object.class));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String lastAppliedOf(ObjectNode observed) {
    return observed.path("metadata").path("annotations").path(Preserved.LAST_APPLIED).asText("");
  }

  private ObjectNode create(ObjectNode desired) {
    ObjectNode observed = desired.deepCopy();
    String kind = observed.path("kind").asText();
    ObjectNode metadata = observed.withObjectProperty("metadata");
    metadata.put("namespace", namespace);
    metadata.put(
        "uid",
        UUID.nameUUIDFromBytes(
                (kind + "/" + metadata.path("name").asText()).getBytes(StandardCharsets.UTF_8))
            .toString());
    metadata.put("resourceVersion", String.valueOf(++resourceVersion));
    metadata.put("creationTimestamp", CREATED);
    metadata.withObjectProperty("labels").put("controller-uid", uid);
    metadata.withObjectProperty("annotations").put(Preserved.LAST_APPLIED, lastApplied(desired));
    ObjectNode owner =
        metadata
            .putArray("ownerReferences")
            .addObject()
            .put("apiVersion", "metahooks.dev/v1alpha1")
            .put("kind", "PostgresCluster")
            .put("name", name)
            .put("uid", uid);
    owner.put("controller", true).put("blockOwnerDeletion", true);
    switch (kind) {
      case "StatefulSet", "Job", "PodDisruptionBudget" -> metadata.put("generation", 1);
      case "Service" -> {
        ObjectNode serviceSpec = observed.withObjectProperty("spec");
        if (!"None".equals(serviceSpec.path("clusterIP").asText())) {
          String ip = "10.96.0." + (clusterIps++);
          serviceSpec.put("clusterIP", ip);
          serviceSpec.putArray("clusterIPs").add(ip);
        }
        serviceSpec.put("sessionAffinity", "None");
        serviceSpec.put("internalTrafficPolicy", "Cluster");
        for (JsonNode port : serviceSpec.path("ports")) {
          ((ObjectNode) port).put("protocol", "TCP");
        }
        observed.putObject("status").putObject("loadBalancer");
      }
      default -> {
        // no server fields worth simulating
      }
    }
    if (kind.equals("StatefulSet")) {
      statefulSetStatus(observed, 0, 0, false);
    }
    if (kind.equals("Job")) {
      observed.putObject("status").put("active", 1);
    }
    return observed;
  }

  private ObjectNode update(ObjectNode observed, ObjectNode desired) {
    ObjectNode updated = create(desired);
    ObjectNode metadata = updated.withObjectProperty("metadata");
    metadata.put("uid", observed.path("metadata").path("uid").asText());
    if (observed.path("metadata").has("generation")) {
      boolean specChanged = !observed.path("spec").equals(updated.path("spec"));
      metadata.put(
          "generation",
          observed.path("metadata").path("generation").asLong() + (specChanged ? 1 : 0));
    }
    if (observed.has("status")) {
      updated.set("status", observed.get("status").deepCopy());
    }
    if (observed.path("spec").has("clusterIP")) {
      updated.withObjectProperty("spec").set("clusterIP", observed.path("spec").get("clusterIP"));
      if (observed.path("spec").has("clusterIPs")) {
        updated
            .withObjectProperty("spec")
            .set("clusterIPs", observed.path("spec").get("clusterIPs"));
      }
    }
    return updated;
  }

  public ObjectNode statefulSet() {
    return children.get("StatefulSet/" + name);
  }

  /**
   * Runs the StatefulSet's pods: {@code spec.replicas} pods, those in {@code notReady} not ready, the pod at
   * {@code primary} labelled leader (-1 for none), and the status the StatefulSet controller would report.
   */
  public void runPods(Set<Integer> notReady, int primary, boolean rolling) {
    pods.clear();
    ObjectNode sts = statefulSet();
    int replicas = sts == null ? 0 : sts.path("spec").path("replicas").asInt();
    int ready = 0;
    for (int i = 0; i < replicas; i++) {
      boolean isReady = !notReady.contains(i);
      ready += isReady ? 1 : 0;
      pods.put(name + "-" + i, pod(i, isReady, i == primary));
    }
    if (sts != null) {
      statefulSetStatus(sts, replicas, ready, rolling);
    }
  }

  /** Every pod ready, the first one primary. */
  public void runAllReady() {
    runPods(Set.of(), 0, false);
  }

  ObjectNode pod(int ordinal, boolean ready, boolean leader) {
    String podName = name + "-" + ordinal;
    ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
    ObjectNode metadata =
        pod.putObject("metadata")
            .put("name", podName)
            .put("namespace", namespace)
            .put(
                "uid",
                UUID.nameUUIDFromBytes(("pod/" + podName).getBytes(StandardCharsets.UTF_8))
                    .toString())
            .put("resourceVersion", String.valueOf(++resourceVersion))
            .put("creationTimestamp", CREATED);
    ObjectNode labels = Labels.pod(name);
    labels.put("controller-revision-hash", name + "-7d9c5b8f6d");
    labels.put("statefulset.kubernetes.io/pod-name", podName);
    if (ready) {
      labels.put(Labels.ROLE, leader ? Labels.LEADER : Labels.REPLICA);
    }
    metadata.set("labels", labels);
    // What Patroni (4.0.4, the default image's) publishes: a ready member runs, a replica streams,
    // caught up.
    String ip = "10.244.1." + (20 + ordinal);
    metadata
        .putObject("annotations")
        .put(
            "status",
            !ready
                ? PatroniMemberData.starting(PatroniMemberData.Version.V4_0_4, ip)
                : leader
                    ? PatroniMemberData.leader(
                        PatroniMemberData.Version.V4_0_4, ip, PatroniMemberData.POSITION, 1)
                    : PatroniMemberData.replica(
                        PatroniMemberData.Version.V4_0_4,
                        ip,
                        PatroniMemberData.POSITION,
                        1,
                        "streaming"));
    metadata
        .putArray("ownerReferences")
        .addObject()
        .put("apiVersion", "apps/v1")
        .put("kind", "StatefulSet")
        .put("name", name)
        .put("controller", true)
        .put("blockOwnerDeletion", true);
    ObjectNode status =
        pod.putObject("status").put("phase", "Running").put("podIP", "10.244.1." + (20 + ordinal));
    ArrayNode conditions = status.putArray("conditions");
    conditions.addObject().put("type", "PodScheduled").put("status", "True");
    conditions.addObject().put("type", "ContainersReady").put("status", ready ? "True" : "False");
    conditions.addObject().put("type", "Ready").put("status", ready ? "True" : "False");
    return pod;
  }

  private static void statefulSetStatus(ObjectNode sts, int replicas, int ready, boolean rolling) {
    long generation = sts.path("metadata").path("generation").asLong(1);
    ObjectNode status =
        sts.putObject("status")
            .put("observedGeneration", generation)
            .put("replicas", replicas)
            .put("readyReplicas", ready)
            .put("availableReplicas", ready)
            .put("currentReplicas", rolling ? replicas - 1 : replicas)
            .put("updatedReplicas", rolling ? 1 : replicas)
            .put("currentRevision", sts.path("metadata").path("name").asText() + "-7d9c5b8f6d")
            .put(
                "updateRevision",
                sts.path("metadata").path("name").asText()
                    + (rolling ? "-5f6b8c9d7a" : "-7d9c5b8f6d"))
            .put("collisionCount", 0);
    if (replicas == 0) {
      status.remove("readyReplicas");
      status.remove("availableReplicas");
    }
  }

  /** The users Job, marked complete or failed. */
  public void finishUsersJob(boolean succeeded) {
    children.forEach(
        (key, child) -> {
          if (key.startsWith("Job/")) {
            ObjectNode status = child.putObject("status");
            status.put(succeeded ? "succeeded" : "failed", succeeded ? 1 : 7);
            ArrayNode conditions = status.putArray("conditions");
            conditions
                .addObject()
                .put("type", succeeded ? "Complete" : "Failed")
                .put("status", "True");
          }
        });
  }

  /** Patroni's ConfigMap {@code <n>-<suffix>} as Patroni writes it (scope label, KUBERNETES_LABELS). */
  public void patroniConfigMap(String suffix) {
    ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    ObjectNode metadata =
        configMap
            .putObject("metadata")
            .put("name", name + "-" + suffix)
            .put("namespace", namespace)
            .put(
                "uid",
                UUID.nameUUIDFromBytes(
                        ("ConfigMap/" + name + "-" + suffix).getBytes(StandardCharsets.UTF_8))
                    .toString())
            .put("resourceVersion", String.valueOf(++resourceVersion));
    metadata.putObject("labels").put(Labels.CLUSTER_NAME, name).put(Labels.NAME, Labels.APP);
    if (suffix.equals("config")) {
      metadata.putObject("annotations").put("initialize", "7450000000000000000");
    }
    configMaps.put(name + "-" + suffix, configMap);
  }

  /** Changes the spec the way a user edit does: a new generation. */
  public void edit(java.util.function.Consumer<ObjectNode> change) {
    change.accept(spec);
    generation++;
  }

  public List<ObjectNode> observedSecrets() {
    List<ObjectNode> secrets = new ArrayList<>();
    children.forEach(
        (key, child) -> {
          if (key.startsWith("Secret/")) {
            secrets.add(child);
          }
        });
    return secrets;
  }
}
