package dev.metahooks.controllers.postgres.children;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.spec.PodScheduling;

/**
 * The shape the cluster's Jobs share: pods run once ({@code restartPolicy: Never}, six retries), pass Pod Security
 * {@code restricted}, and carry labels that no Service, StatefulSet or Patroni selects (neither the database pods'
 * {@code app.kubernetes.io/name} nor {@code cluster-name}).
 */
public final class Jobs {
  private Jobs() {}

  /**
   * A Job labelled as the given component, with a pod spec at {@code /spec/template/spec} and no container, placed as
   * {@code spec.scheduling.jobs} says.
   */
  public static ObjectNode job(
      String name, String cluster, String component, PodScheduling placement) {
    ObjectNode job = Json.object().put("apiVersion", "batch/v1").put("kind", "Job");
    job.putObject("metadata").put("name", name).set("labels", Labels.child(cluster, component));
    ObjectNode template = job.putObject("spec").put("backoffLimit", 6).putObject("template");
    template
        .putObject("metadata")
        .putObject("labels")
        .put(Labels.INSTANCE, cluster)
        .put(Labels.MANAGED_BY, Labels.MANAGER)
        .put(Labels.COMPONENT, component);
    template
        .putObject("spec")
        .put("restartPolicy", "Never")
        .set("securityContext", PodSecurity.pod());
    PodPlacement.apply(
        template,
        placement,
        Json.object().put(Labels.INSTANCE, cluster).put(Labels.COMPONENT, component));
    return job;
  }

  /** Adds the Job's one container. */
  public static ObjectNode container(ObjectNode pod, String name, String image) {
    return addContainer(pod.putArray("containers"), name, image);
  }

  /** Adds an init container, after those already there (they run in order, each to its end, before the containers). */
  public static ObjectNode initContainer(ObjectNode pod, String name, String image) {
    ArrayNode init =
        pod.has("initContainers")
            ? (ArrayNode) pod.get("initContainers")
            : pod.putArray("initContainers");
    return addContainer(init, name, image);
  }

  /** A container of the Job's pod: its image pulled only when missing, under the restricted security context. */
  private static ObjectNode addContainer(ArrayNode containers, String name, String image) {
    ObjectNode container =
        containers
            .addObject()
            .put("name", name)
            .put("image", image)
            .put("imagePullPolicy", "IfNotPresent");
    container.set("securityContext", PodSecurity.container());
    return container;
  }

  /**
   * libpq's settings for the primary as the superuser, the password from {@code <n>-superuser}: the connection is
   * entirely in the environment, so every client of a Job connects the same way, with TLS (Spilo refuses
   * connections without it).
   */
  public static ArrayNode primaryConnection(String cluster, String namespace, String application) {
    ArrayNode env = Json.array();
    env.addObject()
        .put("name", "PGHOST")
        .put("value", Names.serviceHost(Names.primaryService(cluster), namespace));
    env.addObject().put("name", "PGPORT").put("value", String.valueOf(Spilo.POSTGRES_PORT));
    env.addObject().put("name", "PGUSER").put("value", Spilo.SUPERUSER);
    env.addObject().put("name", "PGDATABASE").put("value", "postgres");
    env.addObject().put("name", "PGSSLMODE").put("value", "require");
    env.addObject().put("name", "PGCONNECT_TIMEOUT").put("value", "10");
    env.addObject().put("name", "PGAPPNAME").put("value", application);
    env.addObject()
        .put("name", "PGPASSWORD")
        .putObject("valueFrom")
        .putObject("secretKeyRef")
        .put("name", Names.superuserSecret(cluster))
        .put("key", "password");
    return env;
  }
}
