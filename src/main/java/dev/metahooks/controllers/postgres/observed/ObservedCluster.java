package dev.metahooks.controllers.postgres.observed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.HookVersion;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
import dev.metahooks.controllers.postgres.base.ChildTypes;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SecretReferences;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What Metacontroller observed for one cluster: its children (of the declared child types, in the parent's
 * namespace) and its database pods (related through the customize hook). Reads defensively: an observed object
 * of an odd shape gives "absent", never an exception.
 */
public final class ObservedCluster {
  /** The label the StatefulSet controller puts on each pod: the revision of the template it was created from. */
  public static final String REVISION_LABEL = "controller-revision-hash";

  /** A type related through the customize hook; {@code resource} is what its rule names. */
  public record RelatedType(String apiVersion, String kind, String resource) {}

  public static final RelatedType PODS = new RelatedType("v1", "Pod", "pods");
  public static final RelatedType CONFIG_MAPS = new RelatedType("v1", "ConfigMap", "configmaps");

  /** The namespace's clusters, so that two do not claim one backup prefix. */
  public static final RelatedType CLUSTERS =
      new RelatedType("metahooks.dev/v1alpha1", "PostgresCluster", "postgresclusters");

  /** The Secrets given to the cluster ({@link SecretMarks}), whenever the spec names one of the user's. */
  public static final RelatedType GIVEN_SECRETS = new RelatedType("v1", "Secret", "secrets");

  /** The cluster's volume claims (by the claim templates' labels), read when a larger storage.size asks to grow them. */
  public static final RelatedType CLAIMS =
      new RelatedType("v1", "PersistentVolumeClaim", "persistentvolumeclaims");

  /** Every StorageClass (cluster-scoped), to tell whether a claim's class allows expansion. */
  public static final RelatedType STORAGE_CLASSES =
      new RelatedType("storage.k8s.io/v1", "StorageClass", "storageclasses");

  /**
   * The volume types: related for every cluster, but required in a request only when a claim is to grow
   * ({@link #requireVolumeGroups}), so that an answer never depends on them otherwise.
   */
  public static final List<RelatedType> VOLUME_TYPES = List.of(CLAIMS, STORAGE_CLASSES);

  private final String name;
  private final String namespace;
  private final List<ObjectNode> children;
  private final List<ObjectNode> pods;
  private final List<String> patroniConfigMaps;
  private final boolean podMonitorsDeclared;
  private final List<ObjectNode> relatedSecrets;
  private final List<String> syncStandbys;
  private List<String> liveClones = List.of();
  private final CompositeRequest request;

  private ObservedCluster(
      CompositeRequest request,
      String name,
      String namespace,
      List<ObjectNode> children,
      List<ObjectNode> pods,
      List<String> patroniConfigMaps,
      boolean podMonitorsDeclared,
      List<ObjectNode> relatedSecrets,
      List<String> syncStandbys) {
    this.name = name;
    this.namespace = namespace;
    this.children = children;
    this.pods = pods;
    this.patroniConfigMaps = patroniConfigMaps;
    this.podMonitorsDeclared = podMonitorsDeclared;
    this.relatedSecrets = relatedSecrets;
    this.syncStandbys = syncStandbys;
    this.request = request;
  }

  /**
   * Reads the request; a child type missing from {@code children} is a 422 (the request is incomplete, and
   * answering it could delete what was not shown), and so is a child whose apiVersion or kind is not that of
   * its group: children are found and re-emitted by their own apiVersion and kind, so such a Secret would be
   * generated anew, or a preserved child returned without them. A related type the customize hook asked for
   * ({@link #relatedTypes}) missing from {@code related} is a 422 too: read as "none", it would finalize a cluster
   * whose Patroni ConfigMaps still exist, or take a running cluster for one without pods.
   */
  public static ObservedCluster of(CompositeRequest request, ClusterSpec spec) {
    String namespace = request.namespace();
    List<ObjectNode> children = new ArrayList<>();
    boolean podMonitors =
        request.children().has(ChildTypes.POD_MONITOR.apiVersion(), ChildTypes.POD_MONITOR.kind());
    List<ChildTypes.ChildType> types = new ArrayList<>(ChildTypes.ALL);
    if (podMonitors) {
      types.add(ChildTypes.POD_MONITOR);
    }
    for (ChildTypes.ChildType type : types) {
      // The wire model already refuses children outside the parent's namespace; related objects of
      // v2 may cross.
      request.children().entries(type.apiVersion(), type.kind()).stream()
          .sorted(Comparator.comparing(ObjectMap.Entry::name))
          .forEach(entry -> children.add(checkedType(type, entry)));
    }
    requireRelatedGroups(request, spec);
    List<ObjectNode> pods =
        request.related().entries("v1", "Pod").stream()
            .filter(entry -> entry.namespace().equals(namespace))
            .map(ObjectMap.Entry::object)
            .filter(pod -> isDatabasePodOf(pod, request.name()))
            .sorted(Comparator.comparing(pod -> pod.path("metadata").path("name").asText()))
            .toList();
    List<String> scopeConfigMaps = Names.patroniConfigMaps(request.name());
    List<String> configMaps =
        request.related().entries("v1", "ConfigMap").stream()
            .filter(entry -> entry.namespace().equals(namespace))
            .map(ObjectMap.Entry::name)
            .filter(scopeConfigMaps::contains)
            .sorted()
            .toList();
    List<ObjectNode> secrets =
        request.related().entries("v1", "Secret").stream()
            .filter(entry -> entry.namespace().equals(namespace))
            .map(ObjectMap.Entry::object)
            .toList();
    ObservedCluster observed =
        new ObservedCluster(
            request,
            request.name(),
            namespace,
            List.copyOf(children),
            pods,
            configMaps,
            podMonitors,
            secrets,
            syncStandbys(request, namespace));
    observed.liveClones = liveClones(request, namespace);
    return observed;
  }

  /** The namespace's clusters that clone this one live ({@code spec.bootstrap.clone.cluster} and {@code live}). */
  private static List<String> liveClones(CompositeRequest request, String namespace) {
    return request.related().entries(CLUSTERS.apiVersion(), CLUSTERS.kind()).stream()
        .filter(
            entry -> entry.namespace().equals(namespace) && !entry.name().equals(request.name()))
        .filter(
            entry -> {
              JsonNode clone = entry.object().path("spec").path("bootstrap").path("clone");
              return request.name().equals(clone.path("cluster").asText(null))
                  && clone.path("live").isObject();
            })
        .map(ObjectMap.Entry::name)
        .sorted()
        .toList();
  }

  /** The clusters of the namespace that clone this one from its running primary (their pods connect to it). */
  public List<String> liveClones() {
    return liveClones;
  }

  /** The types the customize hook relates for a cluster of this spec, each one rule. */
  public static List<RelatedType> relatedTypes(ClusterSpec spec) {
    // The Secrets given to the cluster, whenever the spec names one (SecretGrants).
    return SecretReferences.any(spec)
        ? List.of(PODS, CONFIG_MAPS, CLUSTERS, GIVEN_SECRETS)
        : List.of(PODS, CONFIG_MAPS, CLUSTERS);
  }

  private static void requireRelatedGroups(CompositeRequest request, ClusterSpec spec) {
    for (RelatedType type : relatedTypes(spec)) {
      if (type.equals(GIVEN_SECRETS) && !secretsRequired(spec)) {
        continue;
      }
      request
          .related()
          .required(
              type.apiVersion(),
              type.kind(),
              "the customize hook asks for "
                  + type.resource()
                  + ", and Metacontroller sends a group for every rule it returned, {} when nothing matches");
    }
  }

  /**
   * Secrets are a required group only where the earlier release asked for them too (TLS, a standby): Metacontroller
   * keeps a customize answer for a parent's uid and generation for 20 minutes
   * (pkg/controller/common/customize/manager.go), so after an upgrade a cluster whose spec has not changed may be
   * synced with the earlier release's rules, without Secrets. Such a spec was rendered by the earlier release, and
   * any change to it brings a new generation and this release's rules.
   */
  private static boolean secretsRequired(ClusterSpec spec) {
    return spec.tls().isPresent() || spec.standby().isPresent();
  }

  /** Whether the request holds the Secrets the customize hook relates (see {@link #secretsRequired}). */
  public boolean secretsRelated() {
    return request.related().has(GIVEN_SECRETS.apiVersion(), "Secret");
  }

  /**
   * The volume claims and StorageClasses, needed to grow the volumes: a request without their groups is a 422,
   * as for {@link #relatedTypes} (read as "none", no claim would grow and the StorageClass check could not be made).
   */
  public void requireVolumeGroups() {
    for (RelatedType type : VOLUME_TYPES) {
      request
          .related()
          .required(
              type.apiVersion(),
              type.kind(),
              "growing the volumes needs the "
                  + type.resource()
                  + " the customize hook relates, and Metacontroller sends a group for every rule it returned");
    }
  }

  /** Whether the hooks run under version v1 (which relates no cluster-scoped StorageClass, see the customize hook). */
  public boolean hookVersionV1() {
    return request.version() == HookVersion.V1;
  }

  /** Whether the request carries the claims and StorageClasses. */
  public boolean hasVolumeGroups() {
    return VOLUME_TYPES.stream()
        .allMatch(type -> request.related().has(type.apiVersion(), type.kind()));
  }

  /**
   * The data volume claims of the members ({@code pgdata-<n>-<ordinal>}), sorted by ordinal; call
   * {@link #requireVolumeGroups} first.
   */
  public List<ObjectNode> dataClaims() {
    String prefix = Spilo.DATA_VOLUME + "-" + Names.statefulSet(name) + "-";
    return request.related().entries(CLAIMS.apiVersion(), CLAIMS.kind()).stream()
        .filter(
            entry ->
                entry.namespace().equals(namespace)
                    && entry.name().startsWith(prefix)
                    && entry.name().substring(prefix.length()).matches("0|[1-9][0-9]{0,4}"))
        .sorted(
            Comparator.comparingInt(
                entry -> Integer.parseInt(entry.name().substring(prefix.length()))))
        .map(ObjectMap.Entry::object)
        .toList();
  }

  /** The related StorageClass of that name. */
  public Optional<ObjectNode> storageClass(String className) {
    return request.related().entries(STORAGE_CLASSES.apiVersion(), STORAGE_CLASSES.kind()).stream()
        .filter(entry -> entry.name().equals(className))
        .map(ObjectMap.Entry::object)
        .findFirst();
  }

  /** The StorageClass annotated as the cluster's default (what a claim without a class was given). */
  public Optional<ObjectNode> defaultStorageClass() {
    return request.related().entries(STORAGE_CLASSES.apiVersion(), STORAGE_CLASSES.kind()).stream()
        .map(ObjectMap.Entry::object)
        .filter(
            c ->
                "true"
                    .equals(
                        c.path("metadata")
                            .path("annotations")
                            .path("storageclass.kubernetes.io/is-default-class")
                            .asText()))
        .min(Comparator.comparing(Names::of));
  }

  /** Whether the controller declares PodMonitors as a child type (the optional component is installed). */
  public boolean podMonitorsDeclared() {
    return podMonitorsDeclared;
  }

  /** Patroni's synchronous standbys: the comma-separated {@code sync_standby} annotation of {@code <scope>-sync}. */
  private static List<String> syncStandbys(CompositeRequest request, String namespace) {
    return request.related().entries("v1", "ConfigMap").stream()
        .filter(
            entry ->
                entry.namespace().equals(namespace)
                    && entry.name().equals(request.name() + "-sync"))
        .map(
            entry ->
                entry.object().path("metadata").path("annotations").path("sync_standby").asText(""))
        .flatMap(list -> java.util.Arrays.stream(list.split(",")))
        .map(String::strip)
        .filter(member -> !member.isEmpty())
        .sorted()
        .toList();
  }

  private static ObjectNode checkedType(ChildTypes.ChildType type, ObjectMap.Entry entry) {
    String path =
        "children['"
            + ObjectMap.groupKey(type.apiVersion(), type.kind())
            + "']['"
            + entry.key()
            + "']";
    if (!type.apiVersion().equals(entry.object().path("apiVersion").textValue())) {
      throw new InvalidRequestException(
          path + ".apiVersion", "must be \"" + type.apiVersion() + "\" in this group");
    }
    if (!type.kind().equals(entry.object().path("kind").textValue())) {
      throw new InvalidRequestException(
          path + ".kind", "must be \"" + type.kind() + "\" in this group");
    }
    return entry.object();
  }

  private static boolean isDatabasePodOf(ObjectNode pod, String cluster) {
    JsonNode labels = pod.path("metadata").path("labels");
    return cluster.equals(labels.path(Labels.CLUSTER_NAME).asText(null))
        && Labels.APP.equals(labels.path(Labels.NAME).asText(null));
  }

  public String name() {
    return name;
  }

  /** The cluster's uid, the incarnation (empty for a parent sent without one). */
  public String uid() {
    return request.parent().path("metadata").path("uid").asText("");
  }

  public String namespace() {
    return namespace;
  }

  /** Every observed child, grouped by {@link ChildTypes#ALL} and sorted by name within a type. */
  public List<ObjectNode> children() {
    return children;
  }

  public List<ObjectNode> children(String apiVersion, String kind) {
    return children.stream()
        .filter(
            c ->
                apiVersion.equals(c.path("apiVersion").asText())
                    && kind.equals(c.path("kind").asText()))
        .toList();
  }

  public Optional<ObjectNode> child(String apiVersion, String kind, String childName) {
    return children(apiVersion, kind).stream()
        .filter(c -> childName.equals(c.path("metadata").path("name").asText()))
        .findFirst();
  }

  public Optional<ObjectNode> statefulSet() {
    return child("apps/v1", "StatefulSet", Names.statefulSet(name));
  }

  public Optional<ObjectNode> secret(String secretName) {
    return child("v1", "Secret", secretName);
  }

  /**
   * A Secret given to this cluster ({@link SecretMarks}), related through the customize hook; one without the mark
   * is never used, whatever rule an earlier customize answer related it by.
   */
  public Optional<ObjectNode> relatedSecret(String secretName) {
    return relatedSecrets.stream()
        .filter(s -> secretName.equals(Names.of(s)) && SecretMarks.givenTo(s, name))
        .findFirst();
  }

  public Optional<ObjectNode> service(String serviceName) {
    return child("v1", "Service", serviceName);
  }

  public Optional<ObjectNode> job(String jobName) {
    return child("batch/v1", "Job", jobName);
  }

  /**
   * The revision the StatefulSet controller creates pods from ({@code status.updateRevision}), once it has observed
   * the current template; empty before. Which pods run it is read from their labels: under {@code OnDelete}
   * Kubernetes never moves {@code currentRevision} (stateful_set_control.go, completeRollingUpdate).
   */
  public Optional<String> updateRevision() {
    return statefulSet()
        .flatMap(
            sts -> {
              JsonNode status = sts.path("status");
              String revision = status.path("updateRevision").asText("");
              boolean seen =
                  status.path("observedGeneration").asLong(-1)
                      >= sts.path("metadata").path("generation").asLong(0);
              return seen && !revision.isEmpty() ? Optional.of(revision) : Optional.empty();
            });
  }

  /** Every live pod runs the {@linkplain #updateRevision() update revision} (none before it is known). */
  public boolean everyPodOnUpdateRevision() {
    return updateRevision()
        .map(revision -> livePods().stream().allMatch(pod -> fromRevision(pod, revision)))
        .orElse(false);
  }

  /** The pod was created from this revision of its StatefulSet ({@link #REVISION_LABEL}). */
  public static boolean fromRevision(JsonNode pod, String revision) {
    return revision.equals(pod.path("metadata").path("labels").path(REVISION_LABEL).asText(""));
  }

  /** Database pods that are not being deleted, sorted by name. */
  public List<ObjectNode> livePods() {
    return pods.stream().filter(pod -> !pod.path("metadata").has("deletionTimestamp")).toList();
  }

  /** The names of Patroni's ConfigMaps of this cluster that exist (related through the customize hook). */
  public List<String> patroniConfigMaps() {
    return patroniConfigMaps;
  }

  /** The members Patroni names synchronous standbys (none outside synchronous mode). */
  public List<String> syncStandbys() {
    return syncStandbys;
  }

  /** Every database pod, including those being deleted. */
  public List<ObjectNode> allPods() {
    return pods;
  }

  public static boolean ready(JsonNode pod) {
    for (JsonNode condition : pod.path("status").path("conditions")) {
      if ("Ready".equals(condition.path("type").asText())
          && "True".equals(condition.path("status").asText())) {
        return true;
      }
    }
    return false;
  }

  public static boolean leader(JsonNode pod) {
    return Labels.LEADER.equals(pod.path("metadata").path("labels").path(Labels.ROLE).asText(null));
  }

  /** The pod Patroni labelled leader; a ready one first, then by name, if a failover left two for a moment. */
  public Optional<String> primary() {
    return primaryPod().map(Names::of);
  }

  /** The pod of {@link #primary}. */
  public Optional<ObjectNode> primaryPod() {
    return livePods().stream()
        .filter(ObservedCluster::leader)
        .sorted(Comparator.comparing((ObjectNode pod) -> !ready(pod)).thenComparing(Names::of))
        .findFirst();
  }

  /**
   * The pods whose Patroni reports {@code pending_restart} (a changed setting that needs a restart): Patroni keeps
   * each member's state as JSON in its pod's {@code status} annotation.
   */
  public List<String> pendingRestart() {
    return livePods().stream()
        .filter(pod -> MemberStatus.of(pod).map(MemberStatus::pendingRestart).orElse(false))
        .map(Names::of)
        .toList();
  }

  public int readyPods() {
    return (int) livePods().stream().filter(ObservedCluster::ready).count();
  }

  /**
   * The live pods whose PostgreSQL container was not started with these local settings ({@code postgresql.parameters}
   * of its SPILO_CONFIGURATION, an empty object for none), by name: each needs a restart to run them. A pod shown
   * without containers (an observation made by hand; the API server always has them) is not judged.
   */
  public List<String> podsStartedWithout(JsonNode localParameters) {
    return livePods().stream()
        .filter(pod -> !pod.path("spec").path("containers").isEmpty())
        .filter(pod -> !localParameters.equals(localParameters(pod)))
        .map(Names::of)
        .toList();
  }

  private static JsonNode localParameters(JsonNode pod) {
    Optional<String> configuration = spiloVariable(pod.path("spec"), "SPILO_CONFIGURATION");
    if (configuration.isEmpty()) {
      return Json.object();
    }
    try {
      JsonNode parameters =
          Json.reader().readTree(configuration.get()).path("postgresql").path("parameters");
      return parameters.isObject() ? parameters : Json.object();
    } catch (IOException e) {
      return Json.nodes().nullNode();
    }
  }

  // --- what the observed StatefulSet runs ---

  private Optional<JsonNode> postgresContainer() {
    return statefulSet().flatMap(sts -> spiloContainer(sts.at("/spec/template/spec")));
  }

  /** The Spilo container of a pod spec: a pod's {@code spec}, or a StatefulSet's {@code spec.template.spec}. */
  public static Optional<JsonNode> spiloContainer(JsonNode podSpec) {
    for (JsonNode container : podSpec.path("containers")) {
      if (Spilo.CONTAINER.equals(container.path("name").asText())) {
        return Optional.of(container);
      }
    }
    return Optional.empty();
  }

  /** The environment entries of that container (none without one). */
  public static JsonNode spiloEnv(JsonNode podSpec) {
    return spiloContainer(podSpec)
        .map(container -> container.path("env"))
        .orElse(MissingNode.getInstance());
  }

  /** The value the Spilo container of a pod spec gives {@code variable}, when it gives one as text. */
  public static Optional<String> spiloVariable(JsonNode podSpec, String variable) {
    for (JsonNode env : spiloEnv(podSpec)) {
      if (variable.equals(env.path("name").asText()) && env.path("value").isTextual()) {
        return Optional.of(env.path("value").asText());
      }
    }
    return Optional.empty();
  }

  /**
   * The Spilo container's variables whose names start with {@code prefix}, of the StatefulSet as last applied (as
   * observed when no record of that is kept).
   */
  public List<JsonNode> appliedSpiloEnv(String prefix) {
    return statefulSet()
        .map(sts -> spiloEnvStartingWith(Preserved.lastApplied(sts).orElse(sts), prefix))
        .orElse(List.of());
  }

  /** The same, of the StatefulSet as observed. */
  public List<JsonNode> observedSpiloEnv(String prefix) {
    return statefulSet().map(sts -> spiloEnvStartingWith(sts, prefix)).orElse(List.of());
  }

  private static List<JsonNode> spiloEnvStartingWith(JsonNode statefulSet, String prefix) {
    List<JsonNode> found = new ArrayList<>();
    for (JsonNode variable : spiloEnv(statefulSet.at("/spec/template/spec"))) {
      if (variable.path("name").asText().startsWith(prefix)) {
        found.add(variable);
      }
    }
    return found;
  }

  /** The Jobs labelled with component {@code component}. */
  public List<ObjectNode> jobsOf(String component) {
    return children("batch/v1", "Job").stream()
        .filter(
            job ->
                component.equals(
                    job.path("metadata").path("labels").path(Labels.COMPONENT).asText()))
        .toList();
  }

  /** The PostgreSQL major version the StatefulSet runs ({@code PGVERSION}). */
  public Optional<String> deployedVersion() {
    return statefulSet().flatMap(sts -> spiloVariable(sts.at("/spec/template/spec"), "PGVERSION"));
  }

  public Optional<String> deployedImage() {
    return postgresContainer()
        .map(c -> c.path("image"))
        .filter(JsonNode::isTextual)
        .map(JsonNode::asText);
  }

  private Optional<JsonNode> dataVolumeClaim() {
    return claimTemplate(Spilo.DATA_VOLUME).orElse(Optional.empty());
  }

  /** The observed StatefulSet's claim template of that name: empty without a StatefulSet, empty inside without the template. */
  public Optional<Optional<JsonNode>> claimTemplate(String name) {
    return statefulSet()
        .map(
            sts -> {
              for (JsonNode template : sts.path("spec").path("volumeClaimTemplates")) {
                if (name.equals(template.path("metadata").path("name").asText())) {
                  return Optional.of(template);
                }
              }
              return Optional.empty();
            });
  }

  /** The data volume size of the StatefulSet's claim template. */
  public Optional<String> deployedStorageSize() {
    return dataVolumeClaim()
        .map(t -> t.path("spec").path("resources").path("requests").path("storage"))
        .filter(JsonNode::isTextual)
        .map(JsonNode::asText);
  }

  /** The storage class of the claim template: empty when the template has none (the cluster default). */
  public Optional<Optional<String>> deployedStorageClass() {
    return dataVolumeClaim()
        .map(
            t -> {
              JsonNode className = t.path("spec").path("storageClassName");
              return className.isTextual() ? Optional.of(className.asText()) : Optional.empty();
            });
  }
}
