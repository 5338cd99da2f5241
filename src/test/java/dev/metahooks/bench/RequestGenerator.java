package dev.metahooks.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Realistic hook requests of any size, the way Metacontroller sends them: whole objects with uids, resource
 * versions, last-applied annotations, managedFields and status. Seeded, so a size always gives the same bytes.
 * A CatSet of 10,000 Pods comes to about 30 MB, as in a real cluster.
 */
public final class RequestGenerator {
  private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
  private final Random random;

  public RequestGenerator(long seed) {
    this.random = new Random(seed);
  }

  /**
   * A CatSet sync request with {@code pods} Running and Ready Pods, as observed. The CatSet has no volume claim
   * templates, so the claims group is empty: the size is the Pods' (about 3 KB each, as in a real cluster).
   */
  public byte[] catset(int pods) {
    ObjectNode request = Json.object();
    request.set("controller", controller("catset-controller", "ctl.enisoc.com/v1", "catsets", "catset",
        "RollingRecreate", true));
    ObjectNode parent = object("ctl.enisoc.com/v1", "CatSet", "default", "web");
    ObjectNode spec = parent.putObject("spec").put("replicas", pods).put("serviceName", "web");
    spec.putObject("selector").putObject("matchLabels").put("app", "web");
    ObjectNode template = spec.putObject("template");
    template.putObject("metadata").putObject("labels").put("app", "web").put("component", "frontend");
    template.set("spec", podSpec("web", 0).without(List.of("nodeName", "hostname", "subdomain")));
    parent.putObject("status").put("replicas", pods).put("readyReplicas", pods).put("observedGeneration", 1);
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
    request.set("controller", controller("indexedjob-controller", "ctl.enisoc.com/v1", "indexedjobs", "indexedjob",
        "OnDelete", false));
    ObjectNode parent = object("ctl.enisoc.com/v1", "IndexedJob", "default", "print-index");
    ObjectNode spec = parent.putObject("spec").put("completions", pods + 10).put("parallelism", 20);
    ObjectNode template = spec.putObject("template");
    template.putObject("metadata").putObject("labels").put("app", "print-index");
    template.set("spec", podSpec("print-index", 0).without(List.of("nodeName", "hostname", "subdomain")));
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

  private ObjectNode controller(String name, String parentApiVersion, String resource, String path, String method,
      boolean finalize) {
    ObjectNode controller = object("metacontroller.k8s.io/v1alpha1", "CompositeController", "", name);
    ObjectNode spec = controller.putObject("spec");
    spec.putObject("parentResource").put("apiVersion", parentApiVersion).put("resource", resource);
    spec.putArray("childResources").addObject().put("apiVersion", "v1").put("resource", "pods")
        .putObject("updateStrategy").put("method", method);
    ObjectNode hooks = spec.putObject("hooks");
    hooks.putObject("sync").put("version", "v1").putObject("webhook")
        .put("url", "http://metahooks.metahooks/" + path + "/sync");
    if (finalize) {
      hooks.putObject("finalize").put("version", "v1").putObject("webhook")
          .put("url", "http://metahooks.metahooks/" + path + "/finalize");
    }
    controller.putObject("status");
    return fill(controller, "", name, "CompositeController");
  }

  private ObjectNode pod(String owner, int ordinal) {
    String name = owner + "-" + ordinal;
    ObjectNode pod = object("v1", "Pod", "default", name);
    ObjectNode metadata = (ObjectNode) pod.get("metadata");
    metadata.putObject("labels").put("app", owner).put("component", "frontend")
        .put("controller-revision-hash", owner + "-7d9f8b6c5");
    metadata.putArray("ownerReferences").addObject().put("apiVersion", "ctl.enisoc.com/v1").put("kind", "CatSet")
        .put("name", owner).put("uid", uuid()).put("controller", true).put("blockOwnerDeletion", true);
    pod.set("spec", podSpec(owner, ordinal));
    ObjectNode status = pod.putObject("status").put("phase", "Running").put("podIP", ip()).put("hostIP", ip())
        .put("qosClass", "Burstable").put("startTime", time());
    ArrayNode conditions = status.putArray("conditions");
    for (String type : new String[] {"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady",
        "PodScheduled"}) {
      conditions.addObject().put("type", type).put("status", "True").put("lastTransitionTime", time())
          .putNull("lastProbeTime");
    }
    status.putArray("containerStatuses").addObject().put("name", "nginx").put("ready", true).put("started", true)
        .put("restartCount", 0).put("image", "docker.io/library/nginx:1.27")
        .put("imageID", "docker.io/library/nginx@sha256:" + hex(64))
        .put("containerID", "containerd://" + hex(64))
        .putObject("state").putObject("running").put("startedAt", time());
    return fill(pod, "default", name, "Pod");
  }

  private ObjectNode podSpec(String owner, int ordinal) {
    ObjectNode spec = Json.object().put("hostname", owner + "-" + ordinal).put("subdomain", owner)
        .put("nodeName", "node-" + random.nextInt(50)).put("restartPolicy", "Always")
        .put("terminationGracePeriodSeconds", 30).put("dnsPolicy", "ClusterFirst")
        .put("schedulerName", "default-scheduler").put("serviceAccountName", "default");
    ObjectNode container = spec.putArray("containers").addObject().put("name", "nginx").put("image", "nginx:1.27")
        .put("imagePullPolicy", "IfNotPresent").put("terminationMessagePath", "/dev/termination-log")
        .put("terminationMessagePolicy", "File");
    container.putArray("ports").addObject().put("name", "web").put("containerPort", 80).put("protocol", "TCP");
    ArrayNode env = container.putArray("env");
    env.addObject().put("name", "ORDINAL").put("value", String.valueOf(ordinal));
    env.addObject().put("name", "CLUSTER").put("value", owner);
    ObjectNode resources = container.putObject("resources");
    resources.putObject("requests").put("cpu", "100m").put("memory", "128Mi");
    resources.putObject("limits").put("memory", "256Mi");
    container.putArray("volumeMounts").addObject().put("name", "www").put("mountPath", "/usr/share/nginx/html");
    container.putObject("readinessProbe").put("periodSeconds", 5).putObject("httpGet").put("path", "/")
        .put("port", 80);
    spec.putArray("volumes").addObject().put("name", "www").putObject("emptyDir");
    spec.putArray("tolerations").addObject().put("key", "node.kubernetes.io/not-ready").put("operator", "Exists")
        .put("effect", "NoExecute").put("tolerationSeconds", 300);
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
    metadata.put("uid", uuid()).put("resourceVersion", String.valueOf(100_000 + random.nextInt(900_000)))
        .put("generation", 1).put("creationTimestamp", time());
    String applied = object.deepCopy().without(List.of("status")).toString();
    metadata.withObject("/annotations").put("metacontroller.k8s.io/last-applied-configuration",
        applied.length() > 600 ? applied.substring(0, 600) : applied);
    ArrayNode managed = metadata.putArray("managedFields");
    for (String manager : new String[] {"metacontroller", "kubelet"}) {
      ObjectNode entry = managed.addObject().put("manager", manager).put("operation", "Update")
          .put("apiVersion", object.path("apiVersion").asText()).put("time", time()).put("fieldsType", "FieldsV1");
      entry.set("fieldsV1", fieldsOf(manager.equals("kubelet") ? object.path("status") : object.path("spec"), 0));
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
    node.fields().forEachRemaining(f -> fields.set("f:" + f.getKey(), fieldsOf(f.getValue(), depth + 1)));
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
      return Json.MAPPER.writeValueAsBytes(request);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
