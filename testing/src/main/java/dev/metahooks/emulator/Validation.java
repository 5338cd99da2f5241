package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.ApiException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a real API server refuses, for the kinds hooks emit most: object names, namespaces, labels and
 * annotations, owner references (at most one controller), Service ports, selectors that must match their
 * template, and the fields that cannot change once created (Pod spec, StatefulSet spec, Job template and
 * selector, selectors of workloads, claim spec, a Service's cluster IPs, an immutable ConfigMap's or Secret's data,
 * a RoleBinding's roleRef).
 * Messages read as Kubernetes writes them ({@code Kind "name" is invalid: field: Reason: detail}); sources are
 * Kubernetes' {@code staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go},
 * {@code pkg/apis/core/validation/validation.go}, {@code pkg/apis/apps/validation/validation.go},
 * {@code pkg/apis/batch/validation/validation.go} and {@code pkg/apis/rbac/validation/validation.go}.
 */
final class Validation {
  private static final String DNS1123_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern SUBDOMAIN =
      Pattern.compile(DNS1123_LABEL + "(\\." + DNS1123_LABEL + ")*");
  private static final Pattern LABEL = Pattern.compile(DNS1123_LABEL);
  private static final Pattern DNS1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern QUALIFIED_NAME_PART =
      Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final long ANNOTATIONS_MAX_BYTES = 256 * 1024;
  private static final Set<String> RBAC =
      Set.of("Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding");
  private static final Set<String> WORKLOADS =
      Set.of("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet");

  /** The StatefulSet spec fields an update may change (ValidateStatefulSetUpdate). */
  private static final List<String> STATEFULSET_MUTABLE =
      List.of(
          "replicas",
          "ordinals",
          "template",
          "updateStrategy",
          "revisionHistoryLimit",
          "persistentVolumeClaimRetentionPolicy",
          "minReadySeconds");

  private final ApiResources.Type type;
  private final ObjectNode object;
  private final List<String> errors = new ArrayList<>();

  private Validation(ApiResources.Type type, ObjectNode object) {
    this.type = type;
    this.object = object;
  }

  /**
   * Refuses an object the API server would not store: {@code current} is the stored object for an update, null
   * for a create.
   *
   * @throws ApiException with reason {@code INVALID} and every error found
   */
  static void check(
      ApiResources.Type type, ObjectNode object, ObjectNode current, boolean builtIn) {
    Validation validation = new Validation(type, object);
    validation.objectMeta(builtIn);
    if (builtIn) {
      validation.kind();
      if (current != null) {
        validation.update(current);
      }
    }
    if (!validation.errors.isEmpty()) {
      String kind = type.group().isEmpty() ? type.kind() : type.kind() + "." + type.group();
      throw new ApiException(
          Reason.INVALID,
          kind
              + " \""
              + Meta.name(object)
              + "\" is invalid: "
              + (validation.errors.size() == 1
                  ? validation.errors.get(0)
                  : validation.errors.toString()));
    }
  }

  // ---- ObjectMeta (objectmeta.go ValidateObjectMeta; every kind, custom resources included)

  private void objectMeta(boolean builtIn) {
    JsonNode metadata = object.path("metadata");
    String name = Meta.name(object);
    if (RBAC.contains(type.kind()) && type.group().equals("rbac.authorization.k8s.io")) {
      // rbac validation: ValidateRBACName is path.IsValidPathSegmentName
      if (name.equals(".") || name.equals("..") || name.contains("/") || name.contains("%")) {
        errors.add(
            "metadata.name: Invalid value: \""
                + name
                + "\": may not be '.' or '..' nor contain '/' or '%'");
      }
    } else if (builtIn && type.kind().equals("Service") && type.group().isEmpty()) {
      // ValidateServiceName is NameIsDNS1035Label
      if (name.length() > 63 || !DNS1035_LABEL.matcher(name).matches()) {
        errors.add(
            "metadata.name: Invalid value: \""
                + name
                + "\": a DNS-1035 label must consist of lower case "
                + "alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric "
                + "character (at most 63)");
      }
    } else if (builtIn && type.kind().equals("Namespace") && type.group().isEmpty()) {
      label("metadata.name", name);
    } else {
      subdomain("metadata.name", name);
    }
    String namespace = Meta.namespace(object);
    if (!namespace.isEmpty()) {
      label("metadata.namespace", namespace);
    }
    labels("metadata.labels", metadata.path("labels"));
    annotations("metadata.annotations", metadata.path("annotations"));
    ownerReferences(metadata.path("ownerReferences"));
  }

  private void subdomain(String field, String value) {
    if (value.length() > 253 || !SUBDOMAIN.matcher(value).matches()) {
      errors.add(
          field
              + ": Invalid value: \""
              + value
              + "\": a lowercase RFC 1123 subdomain must consist of lower "
              + "case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
              + "(at most 253)");
    }
  }

  private void label(String field, String value) {
    if (value.length() > 63 || !LABEL.matcher(value).matches()) {
      errors.add(
          field
              + ": Invalid value: \""
              + value
              + "\": a lowercase RFC 1123 label must consist of lower case "
              + "alphanumeric characters or '-', and must start and end with an alphanumeric character (at most 63)");
    }
  }

  /** IsQualifiedName: an optional DNS-subdomain prefix and "/", then a name of at most 63 characters. */
  private void qualifiedName(String field, String key) {
    String name = key;
    int slash = key.indexOf('/');
    if (slash >= 0) {
      String prefix = key.substring(0, slash);
      name = key.substring(slash + 1);
      if (prefix.isEmpty()
          || prefix.length() > 253
          || !SUBDOMAIN.matcher(prefix).matches()
          || name.contains("/")) {
        errors.add(
            field
                + ": Invalid value: \""
                + key
                + "\": prefix part must be a lowercase RFC 1123 subdomain");
        return;
      }
    }
    if (name.isEmpty() || name.length() > 63 || !QUALIFIED_NAME_PART.matcher(name).matches()) {
      errors.add(
          field
              + ": Invalid value: \""
              + key
              + "\": name part must consist of alphanumeric characters, '-', "
              + "'_' or '.', and must start and end with an alphanumeric character (at most 63)");
    }
  }

  private void labels(String field, JsonNode labels) {
    for (Map.Entry<String, JsonNode> label : labels.properties()) {
      qualifiedName(field, label.getKey());
      String value = label.getValue().asText("");
      if (value.length() > 63
          || (!value.isEmpty() && !QUALIFIED_NAME_PART.matcher(value).matches())) {
        errors.add(
            field
                + ": Invalid value: \""
                + value
                + "\": a valid label must be an empty string or consist of "
                + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
                + "(at most 63)");
      }
    }
  }

  private void annotations(String field, JsonNode annotations) {
    long bytes = 0;
    for (Map.Entry<String, JsonNode> annotation : annotations.properties()) {
      qualifiedName(field, annotation.getKey().toLowerCase(java.util.Locale.ROOT));
      bytes +=
          annotation.getKey().getBytes(StandardCharsets.UTF_8).length
              + annotation.getValue().asText("").getBytes(StandardCharsets.UTF_8).length;
    }
    if (bytes > ANNOTATIONS_MAX_BYTES) {
      errors.add(field + ": Too long: may not be more than " + ANNOTATIONS_MAX_BYTES + " bytes");
    }
  }

  /** ValidateOwnerReferences: every reference complete, at most one with {@code controller: true}. */
  private void ownerReferences(JsonNode references) {
    List<String> controllers = new ArrayList<>();
    for (JsonNode reference : references) {
      for (String field : List.of("apiVersion", "kind", "name", "uid")) {
        if (reference.path(field).asText("").isEmpty()) {
          errors.add(
              "metadata.ownerReferences."
                  + field
                  + ": Invalid value: \"\": "
                  + field
                  + " must not be empty");
        }
      }
      if (reference.path("controller").asBoolean(false)) {
        controllers.add(reference.path("kind").asText() + "/" + reference.path("name").asText());
      }
    }
    if (controllers.size() > 1) {
      errors.add(
          "metadata.ownerReferences: Invalid value: "
              + references
              + ": Only one reference can have "
              + "Controller set to true. Found \"true\" in references for "
              + String.join(" and ", controllers));
    }
  }

  // ---- the kinds' own rules on every write

  private void kind() {
    JsonNode spec = object.path("spec");
    switch (type.group() + "/" + type.kind()) {
      case "/Service" -> {
        servicePorts(spec.path("ports"));
        clusterIpsInSync(spec);
      }
      case "apps/Deployment", "apps/ReplicaSet", "apps/StatefulSet", "apps/DaemonSet" ->
          selectorMatchesTemplate(spec);
      default -> {}
    }
    if (WORKLOADS.contains(type.kind()) || type.kind().equals("Job")) {
      labels(
          "spec.template.metadata.labels", spec.path("template").path("metadata").path("labels"));
    }
  }

  /** validateServicePort and the uniqueness checks of ValidateService. */
  private void servicePorts(JsonNode ports) {
    Set<String> names = new HashSet<>();
    Set<String> portProtocols = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      JsonNode port = ports.get(i);
      String at = "spec.ports[" + i + "]";
      String name = port.path("name").asText("");
      if (ports.size() > 1 && name.isEmpty()) {
        errors.add(at + ".name: Required value");
      } else if (!name.isEmpty()) {
        label(at + ".name", name);
        if (!names.add(name)) {
          errors.add(at + ".name: Duplicate value: \"" + name + "\"");
        }
      }
      int number = port.path("port").asInt(0);
      if (number < 1 || number > 65535) {
        errors.add(
            at
                + ".port: Invalid value: "
                + port.path("port")
                + ": must be between 1 and 65535, inclusive");
      }
      String protocol = port.path("protocol").asText("TCP");
      if (!portProtocols.add(number + "/" + protocol)) {
        errors.add(at + ": Duplicate value: {port: " + number + ", protocol: " + protocol + "}");
      }
    }
  }

  /**
   * ValidateServiceClusterIPsRelatedFields (pkg/apis/core/validation/validation.go:9073, its checks at
   * 9087-9101): {@code clusterIPs[0]} is the {@code clusterIP} (ExternalName Services have neither).
   */
  private void clusterIpsInSync(JsonNode spec) {
    if (!ServiceClusterIps.needsClusterIp(spec)) {
      return;
    }
    String ip = spec.path("clusterIP").asText("");
    List<String> ips = ServiceClusterIps.ips(spec);
    if (!ip.isEmpty() && ips.isEmpty()) {
      errors.add("spec.clusterIPs: Required value");
    } else if (!ip.isEmpty() && !ips.get(0).equals(ip)) {
      errors.add(
          "spec.clusterIPs: Invalid value: "
              + goStrings(ips)
              + ": first value must match `clusterIP`");
    } else if (ip.isEmpty() && !ips.isEmpty()) {
      errors.add(
          "spec.clusterIPs: Invalid value: "
              + goStrings(ips)
              + ": must be empty when `clusterIP` is not "
              + "specified");
    }
  }

  /**
   * validateUpgradeDowngradeClusterIPs (pkg/apis/core/validation/validation.go:9198-9253, from ValidateServiceUpdate
   * at 7048): the primary cluster IP never changes, headless ({@code None}) or not, unless the Service is or
   * becomes an ExternalName one; a second one may be added or released.
   */
  private void clusterIpsUpdate(JsonNode before, JsonNode after) {
    if (!ServiceClusterIps.needsClusterIp(before)
        || !ServiceClusterIps.needsClusterIp(after)
        || ServiceClusterIps.headless(before) && ServiceClusterIps.headless(after)) {
      return;
    }
    List<String> old = ServiceClusterIps.ips(before);
    List<String> ips = ServiceClusterIps.ips(after);
    String changed =
        "spec.clusterIPs[0]: Invalid value: " + goStrings(ips) + ": may not change once set";
    if (old.size() == ips.size()) {
      for (int i = 0; i < old.size(); i++) {
        if (!old.get(i).equals(ips.get(i))) {
          errors.add(
              "spec.clusterIPs["
                  + i
                  + "]: Invalid value: "
                  + goStrings(ips)
                  + ": may not change once set");
        }
      }
    } else if (old.size() > ips.size()) {
      if (ips.isEmpty()) {
        errors.add(
            "spec.clusterIPs[0]: Invalid value: []string(nil): primary clusterIP can not be unset");
      } else if (!ips.get(0).equals(old.get(0))) {
        errors.add(changed);
      }
      if (ips.size() == 1 && !after.path("ipFamilyPolicy").asText("").equals("SingleStack")) {
        errors.add(
            "spec.ipFamilyPolicy: Invalid value: "
                + after.path("ipFamilyPolicy")
                + ": must be set to "
                + "'SingleStack' when releasing the secondary clusterIP");
      }
    } else if (!old.isEmpty() && !ips.get(0).equals(old.get(0))) {
      errors.add(changed);
    }
  }

  /** A string list as Go's {@code %#v} prints it in field errors. */
  private static String goStrings(List<String> values) {
    return values.isEmpty()
        ? "[]string(nil)"
        : "[]string{" + String.join(", ", values.stream().map(v -> "\"" + v + "\"").toList()) + "}";
  }

  /** ValidateDeploymentSpec and its kin: a non-empty selector that selects the template's labels. */
  private void selectorMatchesTemplate(JsonNode spec) {
    JsonNode selector = spec.path("selector");
    if (!selector.isObject() || Selectors.isEmpty(selector)) {
      errors.add(
          "spec.selector: Invalid value: "
              + selector
              + ": empty selector is invalid for "
              + type.kind().toLowerCase(java.util.Locale.ROOT));
      return;
    }
    JsonNode template = spec.path("template");
    if (template.isObject() && !Selectors.matches(selector, Meta.labels(template))) {
      errors.add(
          "spec.template.metadata.labels: Invalid value: "
              + template.path("metadata").path("labels")
              + ": `selector` does not match template `labels`");
    }
  }

  // ---- what an update may not change

  private void update(ObjectNode current) {
    JsonNode spec = object.path("spec");
    JsonNode before = current.path("spec");
    switch (type.group() + "/" + type.kind()) {
      case "/Pod" -> podUpdate(before, spec);
      case "/Service" -> clusterIpsUpdate(before, spec);
      case "apps/StatefulSet" -> {
        if (!Trees.same(without(before, STATEFULSET_MUTABLE), without(spec, STATEFULSET_MUTABLE))) {
          errors.add(
              "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', "
                  + "'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and "
                  + "'minReadySeconds' are forbidden");
        }
      }
      case "apps/Deployment", "apps/ReplicaSet", "apps/DaemonSet" ->
          immutable("spec.selector", before, spec, "selector");
      case "batch/Job" -> {
        // ValidateJobSpecUpdate (pkg/apis/batch/validation/validation.go:623-635)
        for (String field :
            List.of(
                "selector",
                "completionMode",
                "podFailurePolicy",
                "backoffLimitPerIndex",
                "managedBy",
                "successPolicy")) {
          immutable("spec." + field, before, spec, field);
        }
        jobTemplateUpdate(current, before, spec);
        if (!spec.path("completionMode").asText("").equals("Indexed")) {
          immutable("spec.completions", before, spec, "completions");
        }
      }
      case "/PersistentVolumeClaim" -> {
        List<String> mutable = List.of("resources", "volumeAttributesClassName", "volumeName");
        if (!Trees.same(without(before, mutable), without(spec, mutable))) {
          errors.add(
              "spec: Forbidden: spec is immutable after creation except resources.requests and "
                  + "volumeAttributesClassName for bound claims");
        }
      }
      case "/ConfigMap", "/Secret" -> {
        if (current.path("immutable").asBoolean(false)) {
          for (String field : List.of("data", "binaryData", "immutable")) {
            if (!Trees.same(current.get(field), object.get(field))) {
              errors.add(field + ": Forbidden: field is immutable when `immutable` is set");
            }
          }
        }
      }
      case "rbac.authorization.k8s.io/RoleBinding",
          "rbac.authorization.k8s.io/ClusterRoleBinding" -> {
        if (!Trees.same(current.get("roleRef"), object.get("roleRef"))) {
          errors.add(
              "roleRef: Invalid value: " + object.path("roleRef") + ": cannot change roleRef");
        }
      }
      default -> {}
    }
  }

  /**
   * validatePodTemplateUpdate (pkg/apis/batch/validation/validation.go:637-676): a Job's template is immutable,
   * except the scheduling directives (node selector and affinity, tolerations, labels, annotations, scheduling
   * gates) of a Job that is suspended and has not started (pkg/registry/batch/job/strategy.go:201-203).
   */
  private void jobTemplateUpdate(ObjectNode current, JsonNode before, JsonNode after) {
    JsonNode old = before.path("template");
    JsonNode next = after.path("template");
    boolean mutableScheduling =
        before.path("suspend").asBoolean(false) && !current.path("status").has("startTime");
    if (mutableScheduling && old instanceof ObjectNode oldTemplate && next.isObject()) {
      ObjectNode copy = oldTemplate.deepCopy();
      for (String field : List.of("labels", "annotations")) {
        copyOrRemove(Meta.metadata(copy), next.path("metadata").get(field), field);
      }
      ObjectNode podSpec = copy.withObject("/spec");
      for (String field : List.of("nodeSelector", "tolerations", "schedulingGates")) {
        copyOrRemove(podSpec, next.path("spec").get(field), field);
      }
      JsonNode nodeAffinity = next.path("spec").path("affinity").get("nodeAffinity");
      if (podSpec.get("affinity") instanceof ObjectNode affinity) {
        copyOrRemove(affinity, nodeAffinity, "nodeAffinity");
        if (affinity.isEmpty() && !next.path("spec").has("affinity")) {
          podSpec.remove("affinity");
        }
      } else if (nodeAffinity != null) {
        podSpec.putObject("affinity").set("nodeAffinity", nodeAffinity.deepCopy());
      }
      old = copy;
    }
    if (!Trees.same(old, next)) {
      errors.add("spec.template: Invalid value: " + next + ": field is immutable");
    }
  }

  private static void copyOrRemove(ObjectNode target, JsonNode value, String field) {
    if (value == null || value.isNull()) {
      target.remove(field);
    } else {
      target.set(field, value.deepCopy());
    }
  }

  private void immutable(String path, JsonNode before, JsonNode after, String field) {
    if (!Trees.same(before.get(field), after.get(field))) {
      errors.add(path + ": Invalid value: " + after.path(field) + ": field is immutable");
    }
  }

  /**
   * ValidatePodUpdate: the spec may change only in container and init-container images,
   * activeDeadlineSeconds, added tolerations and a terminationGracePeriodSeconds that was negative.
   */
  private void podUpdate(JsonNode before, JsonNode after) {
    ObjectNode old = before.isObject() ? (ObjectNode) before.deepCopy() : Trees.object();
    ObjectNode next = after.isObject() ? (ObjectNode) after.deepCopy() : Trees.object();
    for (String containers : List.of("containers", "initContainers")) {
      JsonNode oldList = old.path(containers);
      JsonNode newList = next.path(containers);
      if (oldList.isArray() && newList.isArray() && oldList.size() == newList.size()) {
        for (int i = 0; i < oldList.size(); i++) {
          if (oldList.get(i) instanceof ObjectNode o && newList.get(i).has("image")) {
            o.set("image", newList.get(i).get("image").deepCopy());
          }
        }
      }
    }
    old.remove("activeDeadlineSeconds");
    next.remove("activeDeadlineSeconds");
    if (old.path("terminationGracePeriodSeconds").asLong(0) < 0) {
      old.remove("terminationGracePeriodSeconds");
      next.remove("terminationGracePeriodSeconds");
    }
    if (containsAll(next.path("tolerations"), old.path("tolerations"))) {
      old.remove("tolerations");
      next.remove("tolerations");
    }
    if (!Trees.same(old, next)) {
      errors.add(
          "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"
              + "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to "
              + "existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was "
              + "previously negative): "
              + JsonDiff.changes(before, after));
    }
  }

  private static boolean containsAll(JsonNode list, JsonNode items) {
    for (JsonNode item : items) {
      boolean found = false;
      for (JsonNode candidate : list) {
        found |= Trees.same(candidate, item);
      }
      if (!found) {
        return false;
      }
    }
    return true;
  }

  private static JsonNode without(JsonNode node, List<String> fields) {
    if (!(node instanceof ObjectNode object)) {
      return node;
    }
    ObjectNode copy = object.deepCopy();
    copy.remove(fields);
    return copy;
  }
}
