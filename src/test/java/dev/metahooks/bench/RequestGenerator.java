package dev.metahooks.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.Resources;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Realistic hook requests of any size, the way Metacontroller sends them: whole objects with uids, resource
 * versions, last-applied annotations, managedFields and status. Seeded, so a size always gives the same bytes.
 * A CatSet of 10,000 Pods comes to about 39 MB, as in a real cluster.
 *
 * <p>The controllers with many children (or attachments, or related objects) get a size; the others get their
 * golden fixture with every object filled in the way the API server would ({@link #filled}). Each sized request
 * is a steady state: everything the hook asks for is already observed, which is what a resync sends.
 */
public final class RequestGenerator {
  private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
  private final Random random;

  public RequestGenerator(long seed) {
    this.random = new Random(seed);
  }

  /**
   * Writes one benchmark request to a file: {@code RequestGenerator <case> <file>}, the case named as in
   * {@link BenchCase} ({@code catset:10000}, {@code hello-world}, ...). Used by {@code scripts/load.sh}.
   */
  public static void main(String[] args) throws java.io.IOException {
    java.nio.file.Files.write(java.nio.file.Path.of(args[1]), BenchCase.of(args[0]).body());
  }

  /**
   * A CatSet sync request with {@code pods} Running and Ready Pods, as observed. The CatSet has no volume claim
   * templates, so the claims group is empty: the size is the Pods' (about 3 KB each, as in a real cluster).
   */
  public byte[] catset(int pods) {
    ObjectNode request = Json.object();
    request.set(
        "controller",
        controller(
            "catset-controller",
            "ctl.enisoc.com/v1",
            "catsets",
            "catset",
            "RollingRecreate",
            true));
    ObjectNode parent = object("ctl.enisoc.com/v1", "CatSet", "default", "web");
    ObjectNode spec = parent.putObject("spec").put("replicas", pods).put("serviceName", "web");
    spec.putObject("selector").putObject("matchLabels").put("app", "web");
    ObjectNode template = spec.putObject("template");
    template
        .putObject("metadata")
        .putObject("labels")
        .put("app", "web")
        .put("component", "frontend");
    template.set("spec", podSpec("web", 0).without(List.of("nodeName", "hostname", "subdomain")));
    parent
        .putObject("status")
        .put("replicas", pods)
        .put("readyReplicas", pods)
        .put("observedGeneration", 1);
    request.set("parent", fill(parent, "default", "web", "CatSet"));
    ObjectNode children = request.putObject("children");
    ObjectNode podGroup = children.putObject("Pod.v1");
    children.putObject("PersistentVolumeClaim.v1");
    for (int i = 0; i < pods; i++) {
      podGroup.set("web-" + i, pod("web", i));
    }
    request.putObject("related");
    request.put("finalizing", false);
    return bytes(request);
  }

  /** An IndexedJob sync request with {@code pods} of its pods observed, most Succeeded, some Running. */
  public byte[] indexedjob(int pods) {
    ObjectNode request = Json.object();
    request.set(
        "controller",
        controller(
            "indexedjob-controller",
            "ctl.enisoc.com/v1",
            "indexedjobs",
            "indexedjob",
            "OnDelete",
            false));
    ObjectNode parent = object("ctl.enisoc.com/v1", "IndexedJob", "default", "print-index");
    ObjectNode spec = parent.putObject("spec").put("completions", pods + 10).put("parallelism", 20);
    ObjectNode template = spec.putObject("template");
    template.putObject("metadata").putObject("labels").put("app", "print-index");
    template.set(
        "spec", podSpec("print-index", 0).without(List.of("nodeName", "hostname", "subdomain")));
    request.set("parent", fill(parent, "default", "print-index", "IndexedJob"));
    ObjectNode group = request.putObject("children").putObject("Pod.v1");
    for (int i = 0; i < pods; i++) {
      ObjectNode pod = pod("print-index", i);
      if (i < pods - 20) {
        ((ObjectNode) pod.get("status")).put("phase", "Succeeded");
      }
      group.set("print-index-" + i, pod);
    }
    request.putObject("related");
    request.put("finalizing", false);
    return bytes(request);
  }

  /** A service-per-pod sync: a StatefulSet of {@code replicas} and its observed Service per Pod (hook v1). */
  public byte[] servicePerPod(int replicas) {
    ObjectNode request = template("service-per-pod/sync/02-v1-all-services-present.request.json");
    ObjectNode statefulSet = object("apps/v1", "StatefulSet", "default", "nginx");
    ((ObjectNode) statefulSet.get("metadata"))
        .putObject("annotations")
        .put("service-per-pod-label", "pod-name")
        .put("service-per-pod-ports", "80:8080,443:8443");
    ObjectNode spec =
        statefulSet.putObject("spec").put("replicas", replicas).put("serviceName", "nginx");
    spec.putObject("selector").putObject("matchLabels").put("app", "nginx");
    ObjectNode template = spec.putObject("template");
    template.putObject("metadata").putObject("labels").put("app", "nginx");
    template.set("spec", podSpec("nginx", 0).without(List.of("nodeName", "hostname", "subdomain")));
    statefulSet
        .putObject("status")
        .put("replicas", replicas)
        .put("readyReplicas", replicas)
        .put("currentReplicas", replicas)
        .put("updatedReplicas", replicas)
        .put("observedGeneration", 1);
    request.set("object", fill(statefulSet, "default", "nginx", "StatefulSet"));
    ObjectNode services = request.putObject("attachments").putObject("Service.v1");
    for (int i = 0; i < replicas; i++) {
      ObjectNode service = object("v1", "Service", "default", "nginx-" + i);
      ObjectNode metadata = (ObjectNode) service.get("metadata");
      metadata.putObject("labels").put("app", "service-per-pod");
      metadata
          .putObject("annotations")
          .put("metacontroller.k8s.io/decorator-controller", "service-per-pod");
      ownedBy(metadata, "apps/v1", "StatefulSet", "nginx");
      ObjectNode serviceSpec =
          service
              .putObject("spec")
              .put("type", "ClusterIP")
              .put("clusterIP", ip())
              .put("sessionAffinity", "None")
              .put("internalTrafficPolicy", "Cluster");
      serviceSpec.putArray("clusterIPs").add(serviceSpec.get("clusterIP").asText());
      serviceSpec.putArray("ipFamilies").add("IPv4");
      serviceSpec.putObject("selector").put("pod-name", "nginx-" + i);
      ArrayNode ports = serviceSpec.putArray("ports");
      ports
          .addObject()
          .put("name", "port-80")
          .put("port", 80)
          .put("targetPort", 8080)
          .put("protocol", "TCP");
      ports
          .addObject()
          .put("name", "port-443")
          .put("port", 443)
          .put("targetPort", 8443)
          .put("protocol", "TCP");
      service.putObject("status").putObject("loadBalancer");
      services.set("nginx-" + i, fill(service, "default", "nginx-" + i, "Service"));
    }
    request.put("finalizing", false);
    return bytes(request);
  }

  /** A global-configmap sync: a source ConfigMap, {@code namespaces} Namespaces and a copy in each. */
  public byte[] globalConfigMap(int namespaces) {
    ObjectNode request = template("global-configmap/sync/02-steady-state.request.json");
    ObjectNode parent =
        object("examples.metacontroller.io/v1alpha1", "GlobalConfigMap", "", "globalsettings");
    parent.putObject("spec").put("sourceName", "globalsettings").put("sourceNamespace", "global");
    parent.putObject("status").put("working", "fine").put("observedGeneration", 1);
    request.set("parent", fill(parent, "", "globalsettings", "GlobalConfigMap"));
    ObjectNode source = configMap("global", "globalsettings");
    ObjectNode related = request.putObject("related");
    related.putObject("ConfigMap.v1").set("global/globalsettings", source);
    ObjectNode namespaceGroup = related.putObject("Namespace.v1");
    namespaceGroup.set("global", namespace("global", false));
    ObjectNode copies = request.putObject("children").putObject("ConfigMap.v1");
    for (int i = 0; i < namespaces; i++) {
      String namespace = "team-" + i;
      namespaceGroup.set(namespace, namespace(namespace, false));
      copies.set(
          namespace + "/globalsettings",
          copyOf(source, namespace, "GlobalConfigMap", "globalsettings"));
    }
    request.put("finalizing", false);
    return bytes(request);
  }

  /** A configmap-propagation sync: a source ConfigMap, {@code targets} target namespaces and a copy in each. */
  public byte[] configMapPropagation(int targets) {
    ObjectNode request =
        template("configmap-propagation/sync/02-steady-state-all-copies-observed.request.json");
    ObjectNode parent =
        object(
            "examples.metacontroller.io/v1alpha1",
            "ConfigMapPropagation",
            "",
            "settings-propagation");
    ObjectNode spec =
        parent.putObject("spec").put("sourceName", "settings").put("sourceNamespace", "original");
    ArrayNode targetNamespaces = spec.putArray("targetNamespaces");
    for (int i = 0; i < targets; i++) {
      targetNamespaces.add("team-" + i);
    }
    parent
        .putObject("status")
        .put("expected_copies", targets)
        .put("actual_copies", targets)
        .put("observedGeneration", 1);
    request.set("parent", fill(parent, "", "settings-propagation", "ConfigMapPropagation"));
    ObjectNode source = configMap("original", "settings");
    request.putObject("related").putObject("ConfigMap.v1").set("original/settings", source);
    ObjectNode copies = request.putObject("children").putObject("ConfigMap.v1");
    for (int i = 0; i < targets; i++) {
      copies.set(
          "team-" + i + "/settings",
          copyOf(source, "team-" + i, "ConfigMapPropagation", "settings-propagation"));
    }
    request.put("finalizing", false);
    return bytes(request);
  }

  /** A secret-propagation sync: a source Secret, {@code namespaces} labelled Namespaces and a copy in each. */
  public byte[] secretPropagation(int namespaces) {
    ObjectNode request =
        template(
            "secret-propagation/sync/01-first-sync-copies-into-matching-namespaces.request.json");
    ObjectNode parent =
        object(
            "examples.metacontroller.io/v1alpha1", "SecretPropagation", "", "secret-propagation");
    parent
        .putObject("spec")
        .put("sourceName", "shareable")
        .put("sourceNamespace", "omega")
        .putObject("targetNamespaceLabelSelector")
        .putObject("matchLabels")
        .put("propagate", "true");
    parent.putObject("status").put("working", "fine").put("observedGeneration", 1);
    request.set("parent", fill(parent, "", "secret-propagation", "SecretPropagation"));
    ObjectNode source = object("v1", "Secret", "omega", "shareable").put("type", "Opaque");
    ObjectNode data = source.putObject("data");
    for (int k = 0; k < 4; k++) {
      data.put("key-" + k, java.util.Base64.getEncoder().encodeToString(hex(48).getBytes()));
    }
    fill(source, "omega", "shareable", "Secret");
    ObjectNode related = request.putObject("related");
    ObjectNode namespaceGroup = related.putObject("Namespace.v1");
    related.putObject("Secret.v1").set("omega/shareable", source);
    ObjectNode copies = request.putObject("children").putObject("Secret.v1");
    for (int i = 0; i < namespaces; i++) {
      String namespace = "team-" + i;
      namespaceGroup.set(namespace, namespace(namespace, true));
      copies.set(
          namespace + "/shareable",
          copyOf(source, namespace, "SecretPropagation", "secret-propagation"));
    }
    request.put("finalizing", false);
    return bytes(request);
  }

  /** A namespace-list sync (hook v2): {@code namespaces} matching Namespaces and the list ConfigMap. */
  public byte[] namespaceList(int namespaces) {
    ObjectNode request = template("namespace-list/sync/02-steady-state.request.json");
    ObjectNode parent =
        object(
            "examples.metacontroller.io/v1alpha1",
            "NamespaceList",
            "test-ns",
            "filtered-namespaces");
    parent
        .putObject("spec")
        .putObject("labelSelector")
        .putObject("matchLabels")
        .put("example-controller", "namespace-list");
    parent.putObject("status").put("count", namespaces).put("observedGeneration", 1);
    request.set("parent", fill(parent, "test-ns", "filtered-namespaces", "NamespaceList"));
    ObjectNode group = request.putObject("related").putObject("Namespace.v1");
    StringBuilder names = new StringBuilder();
    for (int i = 0; i < namespaces; i++) {
      ObjectNode namespace = namespace("team-" + i, false);
      ((ObjectNode) namespace.at("/metadata/labels")).put("example-controller", "namespace-list");
      group.set("team-" + i, namespace);
      names.append(i == 0 ? "" : "\n").append("team-").append(i);
    }
    ObjectNode list = object("v1", "ConfigMap", "test-ns", "filtered-namespaces-list");
    ownedBy(
        (ObjectNode) list.get("metadata"),
        "examples.metacontroller.io/v1alpha1",
        "NamespaceList",
        "filtered-namespaces");
    list.putObject("data").put("namespaces", names.toString());
    request
        .putObject("children")
        .putObject("ConfigMap.v1")
        .set(
            "test-ns/filtered-namespaces-list",
            fill(list, "test-ns", "filtered-namespaces-list", "ConfigMap"));
    request.put("finalizing", false);
    return bytes(request);
  }

  /** A configmap-list sync (hook v2): {@code configMaps} labelled ConfigMaps across namespaces and the list. */
  public byte[] configMapList(int configMaps) {
    ObjectNode request = template("configmap-list/sync/02-steady-state.request.json");
    ObjectNode parent =
        object(
            "examples.metacontroller.io/v1alpha1",
            "ConfigMapList",
            "target-ns",
            "all-configs-list");
    parent.putObject("spec").putObject("sourceLabels").put("app", "my-app");
    parent.putObject("status").put("count", configMaps).put("observedGeneration", 1);
    request.set("parent", fill(parent, "target-ns", "all-configs-list", "ConfigMapList"));
    ObjectNode group = request.putObject("related").putObject("ConfigMap.v1");
    StringBuilder keys = new StringBuilder();
    for (int i = 0; i < configMaps; i++) {
      String namespace = "team-" + (i % 100);
      ObjectNode configMap = configMap(namespace, "cm-" + i);
      ((ObjectNode) configMap.get("metadata")).withObject("/labels").put("app", "my-app");
      group.set(namespace + "/cm-" + i, configMap);
      keys.append(i == 0 ? "" : "\n").append(namespace).append("/cm-").append(i);
    }
    ObjectNode list = object("v1", "ConfigMap", "target-ns", "all-configs-list-list");
    ownedBy(
        (ObjectNode) list.get("metadata"),
        "examples.metacontroller.io/v1alpha1",
        "ConfigMapList",
        "all-configs-list");
    list.putObject("data").put("configmaps", keys.toString());
    request
        .putObject("children")
        .putObject("ConfigMap.v1")
        .set(
            "target-ns/all-configs-list-list",
            fill(list, "target-ns", "all-configs-list-list", "ConfigMap"));
    request.put("finalizing", false);
    return bytes(request);
  }

  /**
   * A golden fixture request (a path below {@code fixtures/}) with every object in it filled the way the API
   * server and clients would: uid, resourceVersion, timestamps, managedFields, last-applied annotation.
   */
  public byte[] filled(String fixture) {
    ObjectNode request = template(fixture);
    for (String field : List.of("controller", "parent", "object")) {
      if (request.get(field) instanceof ObjectNode object) {
        fillIdentified(object);
      }
    }
    for (String field : List.of("children", "attachments", "related")) {
      if (request.get(field) instanceof ObjectNode groups) {
        groups.forEach(
            group ->
                group.forEach(
                    object -> {
                      if (object instanceof ObjectNode o) {
                        fillIdentified(o);
                      }
                    }));
      }
    }
    return bytes(request);
  }

  private void fillIdentified(ObjectNode object) {
    if (object.path("metadata").path("managedFields").isMissingNode()) {
      String namespace = object.path("metadata").path("namespace").asText("");
      String name = object.path("metadata").path("name").asText("");
      ObjectNode metadata = (ObjectNode) object.get("metadata");
      String uid = metadata.path("uid").asText(null);
      String version = metadata.path("resourceVersion").asText(null);
      fill(object, namespace, name, object.path("kind").asText());
      if (uid != null) { // keep what the fixture says: hooks may compare it
        metadata.put("uid", uid);
      }
      if (version != null) {
        metadata.put("resourceVersion", version);
      }
    }
  }

  private static ObjectNode template(String fixture) {
    return Resources.readObject(Resources.path("fixtures/" + fixture));
  }

  private ObjectNode configMap(String namespace, String name) {
    ObjectNode configMap = object("v1", "ConfigMap", namespace, name);
    ObjectNode data = configMap.putObject("data");
    data.put("log-level", "info")
        .put("region", "eu-west-" + random.nextInt(3))
        .put("endpoint", "https://api.example.com/" + hex(16));
    data.put(
        "settings.yaml",
        "replicas: 3\nmaxConnections: 200\ntimeoutSeconds: 30\nfeatures:\n  - a\n  - b\n");
    return fill(configMap, namespace, name, "ConfigMap");
  }

  private ObjectNode namespace(String name, boolean propagate) {
    ObjectNode namespace = object("v1", "Namespace", "", name);
    ObjectNode labels =
        ((ObjectNode) namespace.get("metadata"))
            .putObject("labels")
            .put("kubernetes.io/metadata.name", name)
            .put("team", name);
    if (propagate) {
      labels.put("propagate", "true");
    }
    namespace.putObject("spec").putArray("finalizers").add("kubernetes");
    namespace.putObject("status").put("phase", "Active");
    return fill(namespace, "", name, "Namespace");
  }

  /** An observed copy of {@code source} (ConfigMap or Secret) in {@code namespace}, owned by the parent. */
  private ObjectNode copyOf(
      ObjectNode source, String namespace, String parentKind, String parentName) {
    String name = source.at("/metadata/name").asText();
    ObjectNode copy =
        object(source.get("apiVersion").asText(), source.get("kind").asText(), namespace, name);
    ownedBy(
        (ObjectNode) copy.get("metadata"),
        "examples.metacontroller.io/v1alpha1",
        parentKind,
        parentName);
    copy.set("data", source.get("data").deepCopy());
    if (source.has("type")) {
      copy.set("type", source.get("type"));
    }
    return fill(copy, namespace, name, copy.get("kind").asText());
  }

  private void ownedBy(ObjectNode metadata, String apiVersion, String kind, String name) {
    String uid = uuid();
    metadata.withObject("/labels").put("controller-uid", uid);
    metadata
        .putArray("ownerReferences")
        .addObject()
        .put("apiVersion", apiVersion)
        .put("kind", kind)
        .put("name", name)
        .put("uid", uid)
        .put("controller", true)
        .put("blockOwnerDeletion", true);
  }

  private ObjectNode controller(
      String name,
      String parentApiVersion,
      String resource,
      String path,
      String method,
      boolean finalize) {
    ObjectNode controller =
        object("metacontroller.k8s.io/v1alpha1", "CompositeController", "", name);
    ObjectNode spec = controller.putObject("spec");
    spec.putObject("parentResource").put("apiVersion", parentApiVersion).put("resource", resource);
    spec.putArray("childResources")
        .addObject()
        .put("apiVersion", "v1")
        .put("resource", "pods")
        .putObject("updateStrategy")
        .put("method", method);
    ObjectNode hooks = spec.putObject("hooks");
    hooks
        .putObject("sync")
        .put("version", "v1")
        .putObject("webhook")
        .put("url", "http://metahooks.metahooks/" + path + "/sync");
    if (finalize) {
      hooks
          .putObject("finalize")
          .put("version", "v1")
          .putObject("webhook")
          .put("url", "http://metahooks.metahooks/" + path + "/finalize");
    }
    controller.putObject("status");
    return fill(controller, "", name, "CompositeController");
  }

  private ObjectNode pod(String owner, int ordinal) {
    String name = owner + "-" + ordinal;
    ObjectNode pod = object("v1", "Pod", "default", name);
    ObjectNode metadata = (ObjectNode) pod.get("metadata");
    metadata
        .putObject("labels")
        .put("app", owner)
        .put("component", "frontend")
        .put("controller-revision-hash", owner + "-7d9f8b6c5");
    metadata
        .putArray("ownerReferences")
        .addObject()
        .put("apiVersion", "ctl.enisoc.com/v1")
        .put("kind", "CatSet")
        .put("name", owner)
        .put("uid", uuid())
        .put("controller", true)
        .put("blockOwnerDeletion", true);
    pod.set("spec", podSpec(owner, ordinal));
    ObjectNode status =
        pod.putObject("status")
            .put("phase", "Running")
            .put("podIP", ip())
            .put("hostIP", ip())
            .put("qosClass", "Burstable")
            .put("startTime", time());
    ArrayNode conditions = status.putArray("conditions");
    for (String type :
        new String[] {
          "PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"
        }) {
      conditions
          .addObject()
          .put("type", type)
          .put("status", "True")
          .put("lastTransitionTime", time())
          .putNull("lastProbeTime");
    }
    status
        .putArray("containerStatuses")
        .addObject()
        .put("name", "nginx")
        .put("ready", true)
        .put("started", true)
        .put("restartCount", 0)
        .put("image", "docker.io/library/nginx:1.27")
        .put("imageID", "docker.io/library/nginx@sha256:" + hex(64))
        .put("containerID", "containerd://" + hex(64))
        .putObject("state")
        .putObject("running")
        .put("startedAt", time());
    return fill(pod, "default", name, "Pod");
  }

  private ObjectNode podSpec(String owner, int ordinal) {
    ObjectNode spec =
        Json.object()
            .put("hostname", owner + "-" + ordinal)
            .put("subdomain", owner)
            .put("nodeName", "node-" + random.nextInt(50))
            .put("restartPolicy", "Always")
            .put("terminationGracePeriodSeconds", 30)
            .put("dnsPolicy", "ClusterFirst")
            .put("schedulerName", "default-scheduler")
            .put("serviceAccountName", "default");
    ObjectNode container =
        spec.putArray("containers")
            .addObject()
            .put("name", "nginx")
            .put("image", "nginx:1.27")
            .put("imagePullPolicy", "IfNotPresent")
            .put("terminationMessagePath", "/dev/termination-log")
            .put("terminationMessagePolicy", "File");
    container
        .putArray("ports")
        .addObject()
        .put("name", "web")
        .put("containerPort", 80)
        .put("protocol", "TCP");
    ArrayNode env = container.putArray("env");
    env.addObject().put("name", "ORDINAL").put("value", String.valueOf(ordinal));
    env.addObject().put("name", "CLUSTER").put("value", owner);
    ObjectNode resources = container.putObject("resources");
    resources.putObject("requests").put("cpu", "100m").put("memory", "128Mi");
    resources.putObject("limits").put("memory", "256Mi");
    container
        .putArray("volumeMounts")
        .addObject()
        .put("name", "www")
        .put("mountPath", "/usr/share/nginx/html");
    container
        .putObject("readinessProbe")
        .put("periodSeconds", 5)
        .putObject("httpGet")
        .put("path", "/")
        .put("port", 80);
    spec.putArray("volumes").addObject().put("name", "www").putObject("emptyDir");
    spec.putArray("tolerations")
        .addObject()
        .put("key", "node.kubernetes.io/not-ready")
        .put("operator", "Exists")
        .put("effect", "NoExecute")
        .put("tolerationSeconds", 300);
    return spec;
  }

  private static ObjectNode object(String apiVersion, String kind, String namespace, String name) {
    ObjectNode object = Json.object().put("apiVersion", apiVersion).put("kind", kind);
    ObjectNode metadata = object.putObject("metadata").put("name", name);
    if (!namespace.isEmpty()) {
      metadata.put("namespace", namespace);
    }
    return object;
  }

  /** What the API server and clients add: identity, versions, timestamps, managedFields, last-applied. */
  private ObjectNode fill(ObjectNode object, String namespace, String name, String kind) {
    ObjectNode metadata = (ObjectNode) object.get("metadata");
    metadata
        .put("uid", uuid())
        .put("resourceVersion", String.valueOf(100_000 + random.nextInt(900_000)))
        .put("generation", 1)
        .put("creationTimestamp", time());
    String applied = object.deepCopy().without(List.of("status")).toString();
    metadata
        .withObject("/annotations")
        .put(
            "metacontroller.k8s.io/last-applied-configuration",
            applied.length() > 600 ? applied.substring(0, 600) : applied);
    ArrayNode managed = metadata.putArray("managedFields");
    for (String manager : new String[] {"metacontroller", "kubelet"}) {
      ObjectNode entry =
          managed
              .addObject()
              .put("manager", manager)
              .put("operation", "Update")
              .put("apiVersion", object.path("apiVersion").asText())
              .put("time", time())
              .put("fieldsType", "FieldsV1");
      entry.set(
          "fieldsV1",
          fieldsOf(manager.equals("kubelet") ? object.path("status") : object.path("spec"), 0));
      if (manager.equals("kubelet")) {
        entry.put("subresource", "status");
      }
    }
    return object;
  }

  /** A FieldsV1 description of a subtree, as the API server records which manager owns which field. */
  private static ObjectNode fieldsOf(com.fasterxml.jackson.databind.JsonNode node, int depth) {
    ObjectNode fields = Json.object();
    if (depth > 4 || !node.isObject()) {
      return fields;
    }
    fields.putObject(".");
    node.fields()
        .forEachRemaining(f -> fields.set("f:" + f.getKey(), fieldsOf(f.getValue(), depth + 1)));
    return fields;
  }

  private String uuid() {
    return new UUID(random.nextLong(), random.nextLong()).toString();
  }

  private String ip() {
    return "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256);
  }

  private String time() {
    return EPOCH.plusSeconds(random.nextInt(86_400 * 30)).toString();
  }

  private String hex(int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(Character.forDigit(random.nextInt(16), 16));
    }
    return text.toString();
  }

  private static byte[] bytes(ObjectNode request) {
    try {
      return JsonTrees.MAPPER.writeValueAsBytes(request);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
