package dev.metahooks.controllers.postgres.children.pooler;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.PodPlacement;
import dev.metahooks.controllers.postgres.children.PodSecurity;
import dev.metahooks.controllers.postgres.children.access.PoolerAccess;
import dev.metahooks.controllers.postgres.children.access.ServiceRoles;
import dev.metahooks.controllers.postgres.children.pod.TlsMounts;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.TlsSpec;
import dev.metahooks.kube.KubeletText;
import java.util.List;
import java.util.Optional;

/**
 * Connection pooling ({@code spec.pooler}): PgBouncer in front of {@code <n>-rw}, as a ConfigMap with its
 * configuration, a Deployment, a Service and a PodDisruptionBudget, all {@code <n>-pooler} but the budget
 * ({@code <n>.pooler}: a cluster may be called {@code <n>-pooler}, and its own budget is named like it).
 *
 * <p>Clients log in with their own roles' passwords: PgBouncer looks each role's SCRAM verifier up with
 * {@code auth_query}, through a function only the {@value ServiceRoles#POOLER} role may call (see
 * {@link ServiceRoles}); no list of users and passwords exists anywhere. Its own auth file holds that one role,
 * from the {@code <n>-pooler} Secret. TLS on both sides: to the server as Spilo requires, and to clients. Without
 * {@code spec.tls} the pod makes itself a certificate at start (self-signed, like Spilo's own; clients use
 * {@code sslmode=require}); with it, PgBouncer serves the TLS Secret's certificate (clients use
 * {@code sslmode=verify-full}) and verifies the server's against its {@code ca.crt} ({@link Tls#pooler}).
 */
public final class Poolers {
  public static final String CONTAINER = "pgbouncer";
  public static final String COMPONENT = "pooler";
  public static final String CONFIG_DIR = "/etc/pgbouncer";
  public static final String AUTH_DIR = "/etc/pgbouncer/auth";
  public static final String TLS_DIR = "/etc/pgbouncer/tls";
  public static final String CONFIG_FILE = "pgbouncer.ini";

  /** Changes with the configuration, so that a new configuration rolls the pooler's pods. */
  public static final String CONFIG_HASH = "metahooks.dev/pooler-config-hash";

  /** The init container's script: a self-signed certificate for the common name $1 into $TLS_DIR. */
  public static final String CERTIFICATE_SCRIPT =
      ResourceTexts.load("scripts/pooler-certificate.sh");

  public static final String LOOKUP_QUERY =
      "SELECT usename, passwd FROM " + ServiceRoles.LOOKUP_FUNCTION + "($1)";

  private Poolers() {}

  /** The ConfigMap, Service, Deployment and PodDisruptionBudget, when the pooler is on. */
  public static List<ObjectNode> build(
      String cluster, String namespace, ClusterSpec spec, Optional<Tls.PoolerTls> tls) {
    if (!spec.pooler().enabled()) {
      return List.of();
    }
    String config = config(cluster, namespace, spec.pooler(), tls);
    return List.of(
        configMap(cluster, config),
        service(cluster),
        deployment(cluster, spec, config, tls),
        disruptionBudget(cluster));
  }

  /**
   * pgbouncer.ini. Every database is reached on the primary; server connections use TLS (Spilo refuses others);
   * {@code extra_float_digits} is what JDBC sends at startup, which PgBouncer otherwise refuses.
   */
  public static String config(
      String cluster, String namespace, ClusterSpec.Pooler pooler, Optional<Tls.PoolerTls> tls) {
    // verify-full checks the server's certificate against the CA and the [databases] host name
    // (<n>-rw.<ns>.svc).
    String serverTls =
        tls.filter(Tls.PoolerTls::verifyServer).isPresent()
            ? "verify-full\nserver_tls_ca_file = " + TLS_DIR + "/" + TlsSpec.CA
            : "require";
    return """
        [databases]
        * = host=%s port=%d

        [pgbouncer]
        listen_addr = 0.0.0.0
        listen_port = %d
        unix_socket_dir =
        pool_mode = %s
        default_pool_size = %d
        max_client_conn = %d
        auth_type = scram-sha-256
        auth_file = %s/%s
        auth_user = %s
        auth_query = %s
        server_tls_sslmode = %s
        client_tls_sslmode = require
        client_tls_key_file = %s/tls.key
        client_tls_cert_file = %s/tls.crt
        ignore_startup_parameters = extra_float_digits
        application_name_add_host = 1
        """
        .formatted(
            Names.serviceHost(Names.primaryService(cluster), namespace),
            Spilo.POSTGRES_PORT,
            PoolerAccess.PORT,
            pooler.mode(),
            pooler.defaultPoolSize(),
            pooler.maxClientConnections(),
            AUTH_DIR,
            PoolerAccess.AUTH_FILE,
            ServiceRoles.POOLER,
            LOOKUP_QUERY,
            serverTls,
            TLS_DIR,
            TLS_DIR);
  }

  /** The pooler's pods: none while the cluster hibernates (there is no primary to pool for). */
  public static int replicas(ClusterSpec spec) {
    return spec.instances() == 0 ? 0 : spec.pooler().instances();
  }

  /** Labels of the pooler's pods: neither the database pods' name nor Patroni's scope label. */
  public static ObjectNode podLabels(String cluster) {
    return Json.object()
        .put(Labels.NAME, "pgbouncer")
        .put(Labels.INSTANCE, cluster)
        .put(Labels.MANAGED_BY, Labels.MANAGER)
        .put(Labels.COMPONENT, COMPONENT);
  }

  /** What selects the pooler's pods (its Deployment, Service, budget and network policy). */
  public static ObjectNode podSelector(String cluster) {
    return Labels.poolerSelector(cluster);
  }

  public static ObjectNode configMap(String cluster, String config) {
    ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    configMap
        .putObject("metadata")
        .put("name", Names.pooler(cluster))
        .set("labels", Labels.child(cluster, COMPONENT));
    configMap.putObject("data").put(CONFIG_FILE, config);
    return configMap;
  }

  public static ObjectNode service(String cluster) {
    ObjectNode service = Json.object().put("apiVersion", "v1").put("kind", "Service");
    service
        .putObject("metadata")
        .put("name", Names.pooler(cluster))
        .set("labels", Labels.child(cluster, COMPONENT));
    ObjectNode spec = service.putObject("spec").put("type", "ClusterIP");
    spec.set("selector", podSelector(cluster));
    spec.putArray("ports")
        .addObject()
        .put("name", "postgresql")
        .put("port", PoolerAccess.PORT)
        .put("targetPort", PoolerAccess.PORT);
    return service;
  }

  /** At most one pooler pod evicted at a time; one not ready never blocks a drain. */
  public static ObjectNode disruptionBudget(String cluster) {
    ObjectNode budget =
        Json.object().put("apiVersion", "policy/v1").put("kind", "PodDisruptionBudget");
    budget
        .putObject("metadata")
        .put("name", Names.poolerDisruptionBudget(cluster))
        .set("labels", Labels.child(cluster, COMPONENT));
    ObjectNode spec =
        budget
            .putObject("spec")
            .put("maxUnavailable", 1)
            .put("unhealthyPodEvictionPolicy", "AlwaysAllow");
    spec.putObject("selector").set("matchLabels", podSelector(cluster));
    return budget;
  }

  public static ObjectNode deployment(
      String cluster, ClusterSpec spec, String config, Optional<Tls.PoolerTls> tls) {
    ObjectNode deployment = Json.object().put("apiVersion", "apps/v1").put("kind", "Deployment");
    deployment
        .putObject("metadata")
        .put("name", Names.pooler(cluster))
        .set("labels", Labels.child(cluster, COMPONENT));
    ObjectNode deploymentSpec = deployment.putObject("spec").put("replicas", replicas(spec));
    deploymentSpec.putObject("selector").set("matchLabels", podSelector(cluster));
    // One new pod ready before an old one goes: the Service always has a pooler behind it.
    deploymentSpec
        .putObject("strategy")
        .put("type", "RollingUpdate")
        .putObject("rollingUpdate")
        .put("maxUnavailable", 0)
        .put("maxSurge", 1);
    ObjectNode template = deploymentSpec.putObject("template");
    ObjectNode metadata = template.putObject("metadata");
    metadata.set("labels", podLabels(cluster));
    metadata.putObject("annotations").put(CONFIG_HASH, Names.shortHash(config));
    ObjectNode pod = template.putObject("spec");
    pod.put("automountServiceAccountToken", false);
    pod.set("securityContext", PodSecurity.pod());
    ObjectNode term =
        pod.putObject("affinity")
            .putObject("podAntiAffinity")
            .putArray("preferredDuringSchedulingIgnoredDuringExecution")
            .addObject()
            .put("weight", 100)
            .putObject("podAffinityTerm");
    term.putObject("labelSelector").set("matchLabels", podSelector(cluster));
    term.put("topologyKey", "kubernetes.io/hostname");
    PodPlacement.apply(template, spec.scheduling().pooler(), podSelector(cluster));
    if (tls.isEmpty()) {
      pod.putArray("initContainers").add(certificateContainer(cluster, spec.image()));
    }
    pod.putArray("containers").add(pgbouncer(spec.pooler()));
    ArrayNode volumes = pod.putArray("volumes");
    volumes
        .addObject()
        .put("name", "config")
        .putObject("configMap")
        .put("name", Names.pooler(cluster))
        .putArray("items")
        .addObject()
        .put("key", CONFIG_FILE)
        .put("path", CONFIG_FILE);
    volumes
        .addObject()
        .put("name", "auth")
        .putObject("secret")
        .put("secretName", Names.poolerSecret(cluster))
        .put("defaultMode", 0400)
        .putArray("items")
        .addObject()
        .put("key", PoolerAccess.AUTH_FILE)
        .put("path", PoolerAccess.AUTH_FILE);
    if (tls.isPresent()) {
      // The key readable by the pod's group (fsGroup), as for the database pods.
      ObjectNode secret =
          volumes
              .addObject()
              .put("name", "tls")
              .putObject("secret")
              .put("secretName", tls.get().secretName())
              .put("defaultMode", TlsMounts.KEY_MODE);
      ArrayNode items = secret.putArray("items");
      for (String key : List.of(TlsSpec.CERT, TlsSpec.KEY, TlsSpec.CA)) {
        items.addObject().put("key", key).put("path", key);
      }
    } else {
      volumes.addObject().put("name", "tls").putObject("emptyDir").put("medium", "Memory");
    }
    return deployment;
  }

  /** The client certificate, made with openssl from the cluster's (Spilo) image, as Spilo makes its own. */
  private static ObjectNode certificateContainer(String cluster, String image) {
    ObjectNode container =
        Json.object()
            .put("name", "certificate")
            .put("image", image)
            .put("imagePullPolicy", "IfNotPresent");
    container
        .putArray("command")
        .add("/bin/sh")
        .add("-c")
        .add(KubeletText.literal(CERTIFICATE_SCRIPT))
        .add("certificate")
        .add(Names.pooler(cluster));
    container.putArray("env").addObject().put("name", "TLS_DIR").put("value", TLS_DIR);
    container.set("securityContext", PodSecurity.container());
    resources(container, "10m", "32Mi", "64Mi");
    container.putArray("volumeMounts").addObject().put("name", "tls").put("mountPath", TLS_DIR);
    return container;
  }

  private static ObjectNode pgbouncer(ClusterSpec.Pooler pooler) {
    ObjectNode container =
        Json.object()
            .put("name", CONTAINER)
            .put("image", pooler.image())
            .put("imagePullPolicy", "IfNotPresent");
    container.putArray("command").add("pgbouncer").add(CONFIG_DIR + "/" + CONFIG_FILE);
    container
        .putArray("ports")
        .addObject()
        .put("name", "postgresql")
        .put("containerPort", PoolerAccess.PORT);
    container.set("securityContext", PodSecurity.container());
    resources(container, "50m", "64Mi", "256Mi");
    ArrayNode mounts = container.putArray("volumeMounts");
    mounts
        .addObject()
        .put("name", "config")
        .put("mountPath", CONFIG_DIR + "/" + CONFIG_FILE)
        .put("subPath", CONFIG_FILE)
        .put("readOnly", true);
    mounts.addObject().put("name", "auth").put("mountPath", AUTH_DIR).put("readOnly", true);
    mounts.addObject().put("name", "tls").put("mountPath", TLS_DIR).put("readOnly", true);
    ObjectNode readiness = container.putObject("readinessProbe");
    readiness.putObject("tcpSocket").put("port", PoolerAccess.PORT);
    readiness.put("periodSeconds", 10);
    ObjectNode liveness = container.putObject("livenessProbe");
    liveness.putObject("tcpSocket").put("port", PoolerAccess.PORT);
    liveness.put("initialDelaySeconds", 10).put("periodSeconds", 20);
    return container;
  }

  private static void resources(
      ObjectNode container, String cpu, String memory, String memoryLimit) {
    ObjectNode resources = container.putObject("resources");
    resources.putObject("requests").put("cpu", cpu).put("memory", memory);
    resources.putObject("limits").put("memory", memoryLimit);
  }
}
