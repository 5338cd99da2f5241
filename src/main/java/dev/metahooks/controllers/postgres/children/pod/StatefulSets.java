package dev.metahooks.controllers.postgres.children.pod;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ReloadableParameters;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.base.SpiloPinnedParameters;
import dev.metahooks.controllers.postgres.children.ApiToken;
import dev.metahooks.controllers.postgres.children.PodPlacement;
import dev.metahooks.controllers.postgres.children.PodSecurity;
import dev.metahooks.controllers.postgres.children.backup.WalArchive;
import dev.metahooks.controllers.postgres.children.standby.StandbyEnv;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.kube.KubeletText;
import java.util.Map;
import java.util.Optional;

/**
 * The StatefulSet {@code <n>}: Spilo (PostgreSQL with Patroni) with Patroni on the Kubernetes API, its state in
 * ConfigMaps, and the role label {@code spilo-role} on each pod. Every environment variable is one Spilo's
 * ENVIRONMENT.rst documents (see docs/postgrescluster/internals.md for the list and meanings), or POD_IP/POD_NAMESPACE.
 */
public final class StatefulSets {
  /**
   * Holds the REST API password for the Kubernetes reference {@code $(...)} in SPILO_CONFIGURATION; no Spilo
   * placeholder is called so, and Spilo's runit script keeps it from Patroni's environment.
   */
  public static final String RESTAPI_PASSWORD_VARIABLE = "METAHOOKS_RESTAPI_PASSWORD";

  private StatefulSets() {}

  /**
   * The StatefulSet, whole: the pod template of {@link #podTemplate}; under {@code updates.method: switchover}
   * {@code updateStrategy: OnDelete} (a pod starts from a new template only once the rollout's restart Job deletes
   * it, see {@code Rollout}), under {@code restart} Kubernetes' own rolling update; and {@code replicas} (the spec's
   * instances, unless a scale-down waits for the primary to move off a removed ordinal).
   */
  public static ObjectNode build(
      String cluster,
      String namespace,
      ClusterSpec spec,
      ObjectNode bootstrap,
      Optional<Tls.Rendering> tls,
      int replicas) {
    return build(cluster, namespace, spec, bootstrap, tls, replicas, spec.storage().size());
  }

  /**
   * The same with the data claim template of {@code dataSize}: the size the StatefulSet has while its volumes grow
   * ({@code jobs.VolumeResize}), its claim templates being immutable.
   */
  public static ObjectNode build(
      String cluster,
      String namespace,
      ClusterSpec spec,
      ObjectNode bootstrap,
      Optional<Tls.Rendering> tls,
      int replicas,
      String dataSize) {
    ObjectNode sts = Json.object().put("apiVersion", "apps/v1").put("kind", "StatefulSet");
    ObjectNode metadata = sts.putObject("metadata").put("name", Names.statefulSet(cluster));
    metadata.set("labels", Labels.child(cluster, "database"));
    ObjectNode stsSpec =
        sts.putObject("spec")
            .put("replicas", replicas)
            .put("serviceName", Names.headlessService(cluster));
    stsSpec.putObject("selector").set("matchLabels", Labels.podSelector(cluster));
    // Ordered start: the first pod bootstraps the cluster, the others join it as replicas.
    stsSpec.put("podManagementPolicy", "OrderedReady");
    stsSpec
        .putObject("updateStrategy")
        .put("type", spec.updates().switchover() ? "OnDelete" : "RollingUpdate");
    stsSpec
        .putObject("persistentVolumeClaimRetentionPolicy")
        .put("whenDeleted", spec.storage().whenDeleted())
        .put("whenScaled", whenScaled(spec));
    stsSpec.set("template", podTemplate(cluster, namespace, spec, bootstrap, tls));
    ArrayNode claims = stsSpec.putArray("volumeClaimTemplates");
    claims.add(
        claimTemplate(cluster, Spilo.DATA_VOLUME, dataSize, spec.storage().storageClassName()));
    spec.walVolume().ifPresent(wal -> claims.add(WalVolumes.claimTemplate(cluster, wal)));
    return sts;
  }

  /**
   * The pods' template: Spilo with its environment, Patroni's bootstrap settings ({@code PatroniSettings}) and the
   * user's certificate when one is rendered ({@link Tls}), and the exporter's sidecar. A pure function of its
   * inputs, so that the plan can tell whether an answer changes it (and so restarts the pods) before rendering.
   */
  public static ObjectNode podTemplate(
      String cluster,
      String namespace,
      ClusterSpec spec,
      ObjectNode bootstrap,
      Optional<Tls.Rendering> tls) {
    ObjectNode template = Json.object();
    template.putObject("metadata").set("labels", Labels.pod(cluster));
    template.set("spec", podSpec(cluster, namespace, spec, bootstrap, tls));
    PodPlacement.apply(template, spec.scheduling().database(), Labels.podSelector(cluster));
    return template;
  }

  /**
   * Hibernation (0 instances) keeps every volume even under {@code whenScaled: Delete}: the policy and the
   * replica count change in one update, so the StatefulSet controller scales to zero under Retain.
   */
  public static String whenScaled(ClusterSpec spec) {
    return spec.instances() == 0 ? "Retain" : spec.storage().whenScaled();
  }

  private static ObjectNode podSpec(
      String cluster,
      String namespace,
      ClusterSpec spec,
      ObjectNode bootstrap,
      Optional<Tls.Rendering> tls) {
    ObjectNode pod = Json.object();
    pod.put("serviceAccountName", Names.patroni(cluster));
    // Patroni needs time to stop PostgreSQL cleanly and hand over the leader key.
    pod.put("terminationGracePeriodSeconds", 300);
    pod.set("securityContext", PodSecurity.pod());
    affinity(cluster, spec.availability()).ifPresent(affinity -> pod.set("affinity", affinity));
    ObjectNode postgres = container(cluster, namespace, spec, bootstrap, tls);
    ArrayNode containers = pod.putArray("containers").add(postgres);
    Exporters.container(cluster, spec).ifPresent(containers::add);
    // PostgreSQL's shared memory needs more than the runtime's default 64 MiB /dev/shm.
    ArrayNode volumes = pod.putArray("volumes");
    volumes.addObject().put("name", "dshm").putObject("emptyDir").put("medium", "Memory");
    tls.ifPresent(rendering -> volumes.add(TlsMounts.volume(rendering)));
    // Patroni calls the API server, the exporter never does: beside a sidecar, the token goes into
    // Patroni's
    // container alone. Alone, Patroni's container holds the automatic mount, the same token at the
    // same path (and a
    // cluster without a sidecar keeps the template it has, with no pod restarted for this).
    if (containers.size() > 1) {
      ApiToken.onlyInto(pod, postgres);
    }
    return pod;
  }

  public static Optional<ObjectNode> affinity(
      String cluster, ClusterSpec.Availability availability) {
    ObjectNode selector = Json.object();
    selector.set("matchLabels", Labels.podSelector(cluster));
    ObjectNode antiAffinity = Json.object();
    switch (availability.podAntiAffinity()) {
      case "required" -> {
        ObjectNode term =
            antiAffinity.putArray("requiredDuringSchedulingIgnoredDuringExecution").addObject();
        term.set("labelSelector", selector);
        term.put("topologyKey", availability.topologyKey());
      }
      case "preferred" -> {
        ObjectNode weighted =
            antiAffinity
                .putArray("preferredDuringSchedulingIgnoredDuringExecution")
                .addObject()
                .put("weight", 100);
        ObjectNode term = weighted.putObject("podAffinityTerm");
        term.set("labelSelector", selector);
        term.put("topologyKey", availability.topologyKey());
      }
      default -> {
        return Optional.empty();
      }
    }
    ObjectNode affinity = Json.object();
    affinity.set("podAntiAffinity", antiAffinity);
    return Optional.of(affinity);
  }

  private static ObjectNode container(
      String cluster,
      String namespace,
      ClusterSpec spec,
      ObjectNode bootstrap,
      Optional<Tls.Rendering> tls) {
    ObjectNode container =
        Json.object()
            .put("name", Spilo.CONTAINER)
            .put("image", spec.image())
            .put("imagePullPolicy", "IfNotPresent");
    ArrayNode ports = container.putArray("ports");
    ports.addObject().put("name", "postgresql").put("containerPort", Spilo.POSTGRES_PORT);
    ports.addObject().put("name", "patroni").put("containerPort", Spilo.PATRONI_PORT);
    ArrayNode env = env(cluster, spec, bootstrap);
    tls.ifPresent(rendering -> env.addAll(TlsMounts.env(rendering, cluster, namespace)));
    container.set("env", env);
    container.set("resources", spec.resources().deepCopy());
    container.set("securityContext", PodSecurity.container());
    ArrayNode mounts = container.putArray("volumeMounts");
    mounts.addObject().put("name", Spilo.DATA_VOLUME).put("mountPath", Spilo.DATA_PATH);
    spec.walVolume().ifPresent(wal -> mounts.add(WalVolumes.volumeMount()));
    mounts.addObject().put("name", "dshm").put("mountPath", "/dev/shm");
    tls.ifPresent(rendering -> mounts.add(TlsMounts.volumeMount()));
    // Patroni's REST API answers 200 on /readiness once PostgreSQL runs as leader or as a streaming
    // replica.
    ObjectNode readiness = container.putObject("readinessProbe");
    ObjectNode probe =
        readiness.putObject("httpGet").put("path", "/readiness").put("port", Spilo.PATRONI_PORT);
    if (tls.map(Tls.Rendering::restApiServing).orElse(false)) {
      probe.put("scheme", "HTTPS");
    }
    readiness
        .put("initialDelaySeconds", 6)
        .put("periodSeconds", 10)
        .put("timeoutSeconds", 5)
        .put("failureThreshold", 3);
    return container;
  }

  /** Spilo's environment, in a fixed order. Each variable's documented meaning is in docs/postgrescluster/internals.md. */
  public static ArrayNode env(String cluster, ClusterSpec spec, ObjectNode bootstrap) {
    ArrayNode env = Json.array();
    value(env, "SCOPE", cluster);
    value(env, "PGVERSION", String.valueOf(spec.postgresVersion()));
    value(env, "PGROOT", Spilo.DATA_PATH + "/pgroot");
    value(env, "DCS_ENABLE_KUBERNETES_API", "true");
    value(env, "KUBERNETES_USE_CONFIGMAPS", "true");
    value(env, "KUBERNETES_SCOPE_LABEL", Labels.CLUSTER_NAME);
    value(env, "KUBERNETES_ROLE_LABEL", Labels.ROLE);
    value(env, "KUBERNETES_LEADER_LABEL_VALUE", Labels.LEADER);
    value(env, "KUBERNETES_STANDBY_LEADER_LABEL_VALUE", Labels.LEADER);
    value(env, "KUBERNETES_LABELS", "{\"" + Labels.NAME + "\":\"" + Labels.APP + "\"}");
    value(env, "PGUSER_SUPERUSER", Spilo.SUPERUSER);
    secret(env, "PGPASSWORD_SUPERUSER", Names.superuserSecret(cluster));
    value(env, "PGUSER_STANDBY", Spilo.REPLICATION_USER);
    secret(env, "PGPASSWORD_STANDBY", Names.replicationSecret(cluster));
    field(env, "POD_IP", "status.podIP");
    field(env, "POD_NAMESPACE", "metadata.namespace");
    // Declared before SPILO_CONFIGURATION, which refers to it.
    env.addObject()
        .put("name", RESTAPI_PASSWORD_VARIABLE)
        .putObject("valueFrom")
        .putObject("secretKeyRef")
        .put("name", Names.restApiSecret(cluster))
        .put("key", "password");
    WalArchive.env(spec.backups()).forEach(env::add);
    StandbyEnv.env(spec.standby()).forEach(env::add);
    value(
        env,
        "SPILO_CONFIGURATION",
        spiloConfiguration(spec.parameters(), bootstrap, spec.walVolume().isPresent()));
    return env;
  }

  /**
   * Patroni configuration that Spilo merges over its own. {@code restapi.authentication}: Patroni asks for these
   * credentials on every unsafe REST call (PATCH /config, POST /switchover, ...); the password comes from the
   * {@code <n>-restapi} Secret through a variable reference that the kubelet expands. The parameters that need a
   * restart, and those Spilo pins locally ({@link SpiloPinnedParameters}), go to the local configuration (applied on
   * every start, so a change rolls the pods); the former also to the bootstrap
   * DCS configuration, where settings that Patroni keeps cluster-wide (max_connections and the like) take effect
   * when the cluster is created; every parameter, reloadable ones too, reaches Patroni's dynamic configuration
   * through the parameters Job ({@code jobs.ParameterJobs}), so a reloadable change restarts nothing. Every {@code $} of a
   * value is doubled, so that no value can refer to a variable. Patroni's bootstrap settings ({@code PatroniSettings})
   * go into {@code bootstrap.dcs} after the parameters.
   */
  public static String spiloConfiguration(Map<String, String> parameters, ObjectNode bootstrap) {
    return spiloConfiguration(parameters, bootstrap, false);
  }

  /**
   * SPILO_CONFIGURATION's local {@code postgresql.parameters}, as rendered: the settings that need a restart, and
   * those Spilo pins there, which the dynamic configuration cannot reach. A pod runs them once started with them.
   */
  public static ObjectNode localParameters(Map<String, String> parameters) {
    return withPinned(restartOnly(parameters), parameters);
  }

  /** {@code values} with Spilo's pinned settings of {@code parameters} added. */
  private static ObjectNode withPinned(ObjectNode values, Map<String, String> parameters) {
    SpiloPinnedParameters.pinned(parameters)
        .forEach((name, value) -> values.put(name, KubeletText.literal(value)));
    return values;
  }

  private static ObjectNode restartOnly(Map<String, String> parameters) {
    ObjectNode values = Json.object();
    ReloadableParameters.restartOnly(parameters)
        .forEach(
            (name, value) ->
                values.put(
                    name,
                    KubeletText.literal(
                        name.equals("shared_preload_libraries")
                            ? Spilo.preloadLibraries(value)
                            : value)));
    return values;
  }

  /** The same, with pg_wal on its own volume when {@code walVolume} ({@link WalVolumes#configure}). */
  public static String spiloConfiguration(
      Map<String, String> parameters, ObjectNode bootstrap, boolean walVolume) {
    ObjectNode config = Json.object();
    ObjectNode restartOnly = restartOnly(parameters);
    if (!restartOnly.isEmpty()) {
      config
          .putObject("bootstrap")
          .putObject("dcs")
          .putObject("postgresql")
          .set("parameters", restartOnly);
    }
    ObjectNode local = withPinned(restartOnly.deepCopy(), parameters);
    if (!local.isEmpty()) {
      config.putObject("postgresql").set("parameters", local);
    }
    config
        .putObject("restapi")
        .putObject("authentication")
        .put("username", Spilo.RESTAPI_USER)
        .put("password", KubeletText.reference(RESTAPI_PASSWORD_VARIABLE));
    if (!bootstrap.isEmpty()) {
      config.withObjectProperty("bootstrap").withObjectProperty("dcs").setAll(bootstrap.deepCopy());
    }
    if (walVolume) {
      WalVolumes.configure(config);
    }
    try {
      return Json.writer().writeValueAsString(config);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write Spilo configuration", e);
    }
  }

  /** A claim template of the pods: one ReadWriteOnce volume of {@code size} ({@code storageClass} null: the default). */
  static ObjectNode claimTemplate(String cluster, String name, String size, String storageClass) {
    // The API server's defaults, written out: Metacontroller replaces the list of claim templates
    // whole, so a
    // default left out would differ from the stored object on every sync and be sent again each
    // time. The server
    // sets apiVersion and kind (k8s.io/kubernetes 1.36 pkg/apis/apps/v1/conversion.go:155-163),
    // status.phase
    // (pkg/apis/core/v1/defaults.go:294-297) and the volume mode.
    ObjectNode claim = Json.object().put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
    ObjectNode metadata = claim.putObject("metadata").put("name", name);
    metadata.set("labels", Labels.podSelector(cluster));
    ObjectNode claimSpec = claim.putObject("spec");
    claimSpec.putArray("accessModes").add("ReadWriteOnce");
    if (storageClass != null) {
      claimSpec.put("storageClassName", storageClass);
    }
    claimSpec.putObject("resources").putObject("requests").put("storage", size);
    claimSpec.put("volumeMode", "Filesystem");
    claim.putObject("status").put("phase", "Pending");
    return claim;
  }

  private static void value(ArrayNode env, String name, String value) {
    env.addObject().put("name", name).put("value", value);
  }

  private static void secret(ArrayNode env, String name, String secretName) {
    env.addObject()
        .put("name", name)
        .putObject("valueFrom")
        .putObject("secretKeyRef")
        .put("name", secretName)
        .put("key", "password");
  }

  private static void field(ArrayNode env, String name, String path) {
    env.addObject()
        .put("name", name)
        .putObject("valueFrom")
        .putObject("fieldRef")
        .put("apiVersion", "v1")
        .put("fieldPath", path);
  }
}
