package dev.metahooks.controllers.postgres.children.network;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The Services: {@code <n>-hl} (headless, the StatefulSet's service, ready or not), {@code <n>-rw} (the pod
 * Patroni labels leader) and {@code <n>-ro} (the replicas, when there can be any and it is enabled).
 */
public final class Services {
  private Services() {}

  public static List<ObjectNode> build(String cluster, ClusterSpec spec) {
    List<ObjectNode> services = new ArrayList<>();
    services.add(headless(cluster));
    services.add(primary(cluster, spec.services().primaryType()));
    if (spec.wantsReplicaService()) {
      services.add(replicas(cluster));
    }
    return services;
  }

  public static ObjectNode headless(String cluster) {
    ObjectNode service = service(Names.headlessService(cluster), cluster, "headless");
    ObjectNode spec =
        service
            .putObject("spec")
            .put("clusterIP", "None")
            // Members find each other before they are ready (a replica is not ready until it has
            // cloned).
            .put("publishNotReadyAddresses", true);
    spec.set("selector", Labels.podSelector(cluster));
    ArrayNode ports = spec.putArray("ports");
    port(ports, "postgresql", Spilo.POSTGRES_PORT);
    port(ports, "patroni", Spilo.PATRONI_PORT);
    return service;
  }

  public static ObjectNode primary(String cluster, String type) {
    ObjectNode service = service(Names.primaryService(cluster), cluster, "primary");
    ObjectNode spec = service.putObject("spec").put("type", type);
    spec.set("selector", Labels.podSelector(cluster).put(Labels.ROLE, Labels.LEADER));
    port(spec.putArray("ports"), "postgresql", Spilo.POSTGRES_PORT);
    return service;
  }

  public static ObjectNode replicas(String cluster) {
    ObjectNode service = service(Names.replicaService(cluster), cluster, "replicas");
    ObjectNode spec = service.putObject("spec").put("type", "ClusterIP");
    spec.set("selector", Labels.podSelector(cluster).put(Labels.ROLE, Labels.REPLICA));
    port(spec.putArray("ports"), "postgresql", Spilo.POSTGRES_PORT);
    return service;
  }

  private static ObjectNode service(String name, String cluster, String component) {
    ObjectNode service = Json.object().put("apiVersion", "v1").put("kind", "Service");
    service.putObject("metadata").put("name", name).set("labels", Labels.child(cluster, component));
    return service;
  }

  private static void port(ArrayNode ports, String name, int port) {
    ports.addObject().put("name", name).put("port", port).put("targetPort", port);
  }
}
