package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What a real API server adds to objects it stores, for the kinds hooks create most (profile v4.17.2):
 * field defaults of Pods (and Pod templates), Services, StatefulSets, Jobs and claims, and on Pod creation
 * the ServiceAccount and DefaultTolerationSeconds admission plugins. Metacontroller compares its desired
 * children with these stored objects by {@code reflect.DeepEqual} after a three-way merge in which a list
 * without a merge key is replaced whole, so an admission-added toleration makes a child whose template lists
 * tolerations differ forever (Metacontroller issue #863). Sources are Kubernetes'
 * {@code pkg/apis/core/v1/defaults.go}, {@code pkg/apis/apps/v1/defaults.go},
 * {@code pkg/apis/batch/v1/defaults.go} and {@code plugin/pkg/admission/{serviceaccount,defaulttolerationseconds}}.
 */
final class ApiDefaults {
  static final List<String> DEFAULT_TOLERATION_KEYS =
      List.of("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable");

  private ApiDefaults() {}

  /** Defaults an object about to be stored; {@code created} adds what admission adds on creation. */
  static void apply(ObjectNode object, boolean created, long serial) {
    String kind = Meta.kind(object);
    String apiVersion = Meta.apiVersion(object);
    ObjectNode spec = object.get("spec") instanceof ObjectNode s ? s : null;
    if (spec == null) {
      return;
    }
    switch (apiVersion + " " + kind) {
      case "v1 Pod" -> {
        podSpec(spec);
        if (created) {
          serviceAccount(spec, serial);
          defaultTolerations(spec);
          spec.put("priority", spec.path("priority").asInt(0));
          putIfAbsent(spec, "preemptionPolicy", "PreemptLowerPriority");
        }
      }
      case "v1 Service" -> service(spec, serial);
      case "v1 PersistentVolumeClaim" -> putIfAbsent(spec, "volumeMode", "Filesystem");
      case "apps/v1 StatefulSet" -> {
        putIfAbsent(spec, "replicas", 1);
        putIfAbsent(spec, "podManagementPolicy", "OrderedReady");
        putIfAbsent(spec, "revisionHistoryLimit", 10);
        // apps/v1 SetDefaults_StatefulSet: the type RollingUpdate, and then a partition of 0;
        // OnDelete gets nothing.
        ObjectNode strategy = spec.withObjectProperty("updateStrategy");
        putIfAbsent(strategy, "type", "RollingUpdate");
        if ("RollingUpdate".equals(strategy.path("type").asText())
            && !strategy.has("rollingUpdate")) {
          strategy.putObject("rollingUpdate").put("partition", 0);
        }
        if (!spec.has("persistentVolumeClaimRetentionPolicy")) {
          spec.putObject("persistentVolumeClaimRetentionPolicy")
              .put("whenDeleted", "Retain")
              .put("whenScaled", "Retain");
        }
        template(spec);
        for (JsonNode claim : spec.path("volumeClaimTemplates")) {
          if (claim.get("spec") instanceof ObjectNode claimSpec) {
            putIfAbsent(claimSpec, "volumeMode", "Filesystem");
          }
        }
      }
      case "batch/v1 Job" -> {
        if (!spec.has("completions") && !spec.has("parallelism")) {
          spec.put("completions", 1).put("parallelism", 1);
        }
        putIfAbsent(spec, "parallelism", 1);
        putIfAbsent(spec, "backoffLimit", 6);
        putIfAbsent(spec, "completionMode", "NonIndexed");
        putIfAbsent(spec, "suspend", false);
        putIfAbsent(spec, "podReplacementPolicy", "TerminatingOrFailed");
        template(spec);
      }
      case "apps/v1 Deployment", "apps/v1 ReplicaSet", "apps/v1 DaemonSet" -> template(spec);
      default -> {}
    }
  }

  private static void template(ObjectNode spec) {
    if (spec.path("template").get("spec") instanceof ObjectNode podSpec) {
      podSpec(podSpec);
    }
  }

  private static void podSpec(ObjectNode spec) {
    putIfAbsent(spec, "restartPolicy", "Always");
    putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
    putIfAbsent(spec, "terminationGracePeriodSeconds", 30);
    putIfAbsent(spec, "schedulerName", "default-scheduler");
    putIfAbsent(spec, "enableServiceLinks", true);
    if (!spec.has("securityContext")) {
      spec.putObject("securityContext");
    }
    for (String list : List.of("initContainers", "containers")) {
      for (JsonNode container : spec.path(list)) {
        if (container instanceof ObjectNode c) {
          container(c);
        }
      }
    }
  }

  private static void container(ObjectNode container) {
    putIfAbsent(container, "terminationMessagePath", "/dev/termination-log");
    putIfAbsent(container, "terminationMessagePolicy", "File");
    String image = container.path("image").asText("");
    String tag =
        image.contains("@")
            ? "digest"
            : image.substring(image.lastIndexOf('/') + 1).contains(":")
                ? image.substring(image.lastIndexOf(':') + 1)
                : "";
    putIfAbsent(
        container,
        "imagePullPolicy",
        tag.isEmpty() || tag.equals("latest") ? "Always" : "IfNotPresent");
    if (!container.has("resources")) {
      container.putObject("resources");
    }
    for (JsonNode port : container.path("ports")) {
      if (port instanceof ObjectNode p) {
        putIfAbsent(p, "protocol", "TCP");
      }
    }
  }

  /** The ServiceAccount admission plugin: the default account and its projected token volume. */
  private static void serviceAccount(ObjectNode spec, long serial) {
    String account = spec.path("serviceAccountName").asText("default");
    spec.put("serviceAccountName", account);
    spec.put("serviceAccount", account);
    if (!spec.path("automountServiceAccountToken").asBoolean(true)) {
      return;
    }
    String volume =
        "kube-api-access-" + Long.toString(36 * 36 * 36 * 36 + serial, 36).substring(0, 5);
    ObjectNode projected =
        spec.withArray("volumes").addObject().put("name", volume).putObject("projected");
    projected.put("defaultMode", 420);
    ArrayNode sources = projected.putArray("sources");
    sources
        .addObject()
        .putObject("serviceAccountToken")
        .put("expirationSeconds", 3607)
        .put("path", "token");
    sources
        .addObject()
        .putObject("configMap")
        .put("name", "kube-root-ca.crt")
        .putArray("items")
        .addObject()
        .put("key", "ca.crt")
        .put("path", "ca.crt");
    for (String list : List.of("initContainers", "containers")) {
      for (JsonNode container : spec.path(list)) {
        if (container instanceof ObjectNode c) {
          c.withArray("volumeMounts")
              .addObject()
              .put("name", volume)
              .put("mountPath", "/var/run/secrets/kubernetes.io/serviceaccount")
              .put("readOnly", true);
        }
      }
    }
  }

  /** DefaultTolerationSeconds: NoExecute tolerations of 300 s for not-ready and unreachable nodes. */
  private static void defaultTolerations(ObjectNode spec) {
    for (String key : DEFAULT_TOLERATION_KEYS) {
      boolean tolerated = false;
      for (JsonNode toleration : spec.path("tolerations")) {
        String effect = toleration.path("effect").asText("");
        boolean keyMatches =
            toleration.path("key").asText("").equals(key)
                || (toleration.path("key").asText("").isEmpty()
                    && toleration.path("operator").asText("").equals("Exists"));
        tolerated |= keyMatches && (effect.isEmpty() || effect.equals("NoExecute"));
      }
      if (!tolerated) {
        spec.withArray("tolerations")
            .addObject()
            .put("key", key)
            .put("operator", "Exists")
            .put("effect", "NoExecute")
            .put("tolerationSeconds", 300);
      }
    }
  }

  private static void service(ObjectNode spec, long serial) {
    String type = spec.path("type").asText("ClusterIP");
    spec.put("type", type);
    putIfAbsent(spec, "sessionAffinity", "None");
    if (!type.equals("ExternalName")) {
      String ip = spec.path("clusterIP").asText("");
      if (ip.isEmpty()) {
        ip = "10.96." + (serial / 250 % 250) + "." + (serial % 250 + 1);
        spec.put("clusterIP", ip);
      }
      if (!spec.has("clusterIPs")) {
        spec.putArray("clusterIPs").add(ip);
      }
      if (!spec.has("ipFamilies")) {
        spec.putArray("ipFamilies").add("IPv4");
      }
      putIfAbsent(spec, "ipFamilyPolicy", "SingleStack");
      putIfAbsent(spec, "internalTrafficPolicy", "Cluster");
    }
    for (JsonNode port : spec.path("ports")) {
      if (port instanceof ObjectNode p) {
        putIfAbsent(p, "protocol", "TCP");
        if (!p.has("targetPort") && p.has("port")) {
          p.set("targetPort", p.get("port").deepCopy());
        }
      }
    }
  }

  private static void putIfAbsent(ObjectNode node, String field, Object value) {
    if (node.has(field) && !node.get(field).isNull()) {
      return;
    }
    node.set(field, Trees.MAPPER.valueToTree(value));
  }
}
