package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.kube.Crds;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the emulated API server knows about kinds: plural resource name, scope and whether status is a
 * subresource. Versions are not told apart (one object answers to every version of its group), as the
 * emulator stores one copy of each object.
 */
public final class ApiResources {
  /** A kind in a group; {@code group} is "" for the core group. */
  public record Type(
      String group, String kind, String plural, boolean namespaced, boolean statusSubresource) {
    public String groupKind() {
      return group.isEmpty() ? kind : kind + "." + group;
    }
  }

  private final Map<String, Type> byKind = new HashMap<>();
  private final Map<String, Type> byPlural = new HashMap<>();

  /** The CustomResourceDefinitions of the custom kinds, by {@code group/Kind}. */
  private final Map<String, JsonNode> crds = new HashMap<>();

  /** The kinds of Kubernetes itself ({@code group/Kind}), whose objects are Go structs. */
  private final java.util.Set<String> builtIn = new java.util.HashSet<>();

  private ApiResources() {}

  /** The built-in kinds plus the kinds these CRDs define. */
  public static ApiResources withCrds(Crds crds) {
    ApiResources resources = builtIn();
    crds.all().forEach(resources::registerCrd);
    return resources;
  }

  /** Kubernetes' own kinds that controllers commonly use, with their real scopes. */
  public static ApiResources builtIn() {
    ApiResources r = new ApiResources();
    r.namespaced("", "Pod", "pods", true);
    r.namespaced("", "Service", "services", true);
    r.namespaced("", "ConfigMap", "configmaps", false);
    r.namespaced("", "Secret", "secrets", false);
    r.namespaced("", "ServiceAccount", "serviceaccounts", false);
    r.namespaced("", "PersistentVolumeClaim", "persistentvolumeclaims", true);
    r.namespaced("", "Endpoints", "endpoints", false);
    r.namespaced("", "Event", "events", false);
    r.namespaced("", "LimitRange", "limitranges", false);
    r.namespaced("", "ResourceQuota", "resourcequotas", true);
    r.namespaced("", "ReplicationController", "replicationcontrollers", true);
    r.namespaced("", "PodTemplate", "podtemplates", false);
    r.clusterScoped("", "Namespace", "namespaces", true);
    r.clusterScoped("", "Node", "nodes", true);
    r.clusterScoped("", "PersistentVolume", "persistentvolumes", true);
    r.namespaced("apps", "Deployment", "deployments", true);
    r.namespaced("apps", "ReplicaSet", "replicasets", true);
    r.namespaced("apps", "StatefulSet", "statefulsets", true);
    r.namespaced("apps", "DaemonSet", "daemonsets", true);
    r.namespaced("apps", "ControllerRevision", "controllerrevisions", false);
    r.namespaced("batch", "Job", "jobs", true);
    r.namespaced("batch", "CronJob", "cronjobs", true);
    r.namespaced("policy", "PodDisruptionBudget", "poddisruptionbudgets", true);
    r.namespaced("autoscaling", "HorizontalPodAutoscaler", "horizontalpodautoscalers", true);
    r.namespaced("coordination.k8s.io", "Lease", "leases", false);
    r.namespaced("discovery.k8s.io", "EndpointSlice", "endpointslices", false);
    r.namespaced("networking.k8s.io", "NetworkPolicy", "networkpolicies", false);
    r.namespaced("networking.k8s.io", "Ingress", "ingresses", true);
    r.clusterScoped("networking.k8s.io", "IngressClass", "ingressclasses", false);
    r.namespaced("rbac.authorization.k8s.io", "Role", "roles", false);
    r.namespaced("rbac.authorization.k8s.io", "RoleBinding", "rolebindings", false);
    r.clusterScoped("rbac.authorization.k8s.io", "ClusterRole", "clusterroles", false);
    r.clusterScoped(
        "rbac.authorization.k8s.io", "ClusterRoleBinding", "clusterrolebindings", false);
    r.clusterScoped(
        "apiextensions.k8s.io", "CustomResourceDefinition", "customresourcedefinitions", true);
    r.clusterScoped("storage.k8s.io", "StorageClass", "storageclasses", false);
    r.clusterScoped("scheduling.k8s.io", "PriorityClass", "priorityclasses", false);
    r.clusterScoped(
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
        "validatingwebhookconfigurations",
        false);
    r.clusterScoped(
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
        "mutatingwebhookconfigurations",
        false);
    r.clusterScoped("metacontroller.k8s.io", "CompositeController", "compositecontrollers", true);
    r.clusterScoped("metacontroller.k8s.io", "DecoratorController", "decoratorcontrollers", true);
    r.namespaced("metacontroller.k8s.io", "ControllerRevision", "controllerrevisions", false);
    r.builtIn.addAll(r.byKind.keySet());
    return r;
  }

  private void namespaced(String group, String kind, String plural, boolean status) {
    register(new Type(group, kind, plural, true, status));
  }

  private void clusterScoped(String group, String kind, String plural, boolean status) {
    register(new Type(group, kind, plural, false, status));
  }

  public void register(Type type) {
    byKind.put(type.group() + "/" + type.kind(), type);
    byPlural.put(type.group() + "/" + type.plural(), type);
  }

  /** Registers the kind a CustomResourceDefinition defines (status subresource if any version has it). */
  public Type registerCrd(JsonNode crd) {
    JsonNode spec = crd.path("spec");
    boolean status = false;
    for (JsonNode version : spec.path("versions")) {
      status |= version.path("subresources").has("status");
    }
    status |= spec.path("subresources").has("status");
    Type type =
        new Type(
            spec.path("group").asText(),
            spec.path("names").path("kind").asText(),
            spec.path("names").path("plural").asText(),
            !"Cluster".equals(spec.path("scope").asText()),
            status);
    if (type.kind().isEmpty() || type.plural().isEmpty()) {
      throw new IllegalArgumentException(
          "CRD "
              + crd.path("metadata").path("name").asText()
              + " lacks spec.names.kind or spec.names.plural");
    }
    register(type);
    crds.put(type.group() + "/" + type.kind(), crd.deepCopy());
    return type;
  }

  /** Whether the kind is one of Kubernetes' own (or Metacontroller's), decoded into Go structs. */
  public boolean isBuiltIn(Type type) {
    return builtIn.contains(type.group() + "/" + type.kind());
  }

  /** Every CustomResourceDefinition given or created, in no particular order. */
  public java.util.Collection<JsonNode> crds() {
    return java.util.List.copyOf(crds.values());
  }

  /** The CustomResourceDefinition that defines the kind, if one was given or created. */
  public Optional<JsonNode> crdOf(Type type) {
    return Optional.ofNullable(crds.get(type.group() + "/" + type.kind()));
  }

  public Optional<Type> byKind(String apiVersion, String kind) {
    return Optional.ofNullable(byKind.get(group(apiVersion) + "/" + kind));
  }

  public Type requireKind(String apiVersion, String kind) {
    return byKind(apiVersion, kind)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown kind "
                        + kind
                        + " in "
                        + apiVersion
                        + ": pass its CRD to the cluster (Cluster.withCrds), create the CRD, or register it with "
                        + "Cluster.register(...)"));
  }

  public Optional<Type> findResource(String apiVersion, String resource) {
    return Optional.ofNullable(byPlural.get(group(apiVersion) + "/" + resource));
  }

  public Type requireResource(String apiVersion, String resource) {
    Type type = byPlural.get(group(apiVersion) + "/" + resource);
    if (type == null) {
      throw new IllegalArgumentException(
          "can't find resource \""
              + resource
              + "\" in apiVersion "
              + apiVersion
              + " (register its kind first)");
    }
    return type;
  }

  /** The group of an apiVersion: "" for {@code v1}, {@code apps} for {@code apps/v1}. */
  public static String group(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }
}
