package dev.metahooks.controllers.bluegreen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
import java.util.List;
import java.util.Optional;

/**
 * BlueGreenDeployment ({@code ctl.enisoc.com/v1}), Metacontroller's bluegreen example: two ReplicaSets,
 * {@code <name>-blue} and {@code <name>-green}, and one Service that selects the active color. A new pod
 * template is rolled out on the inactive ReplicaSet; once all its replicas are available the Service
 * switches to it, and the old one is scaled to zero on the next sync.
 *
 * <p>Status: {@code activeColor} and the observed status of the {@code active} and {@code inactive}
 * ReplicaSets, as seen before this sync's decision.
 */
public final class BlueGreenController {
  static final String BLUE = "blue";
  static final String GREEN = "green";

  private BlueGreenController() {}

  public static Controller controller() {
    return Controller.composite("bluegreen").sync(BlueGreenController::sync).build();
  }

  public static CompositeResponse sync(CompositeRequest request) {
    BlueGreenSpec spec = BlueGreenSpec.read(request.parent());
    Optional<ObjectNode> service = request.child("v1", "Service", spec.serviceName());
    String activeColor = service.map(BlueGreenController::colorOf).orElse(BLUE);
    String inactiveColor = other(activeColor);
    Optional<ObjectMap.Entry> activeRs = replicaSet(request, spec.name() + "-" + activeColor);
    Optional<ObjectMap.Entry> inactiveRs = replicaSet(request, spec.name() + "-" + inactiveColor);

    ObjectNode status = Json.object().put("activeColor", activeColor);
    putStatus(status, "active", activeRs);
    putStatus(status, "inactive", inactiveRs);

    Side fromSpec = new Side(spec.replicas(), spec.template(), "parent.spec.template");
    Side active = activeRs.map(Side::observed).orElse(fromSpec);
    Side inactive =
        inactiveRs.map(Side::observed).orElse(fromSpec.withReplicas(IntNode.valueOf(0)));

    if (activeRs.isPresent() && PodTemplates.same(spec.template(), active.template())) {
      // Up to date: nothing to roll out, keep the inactive color scaled down.
      inactive = inactive.withReplicas(IntNode.valueOf(0));
    } else if (inactiveRs.isPresent() && PodTemplates.same(spec.template(), inactive.template())) {
      // The inactive color already runs the new template: scale it up and swap once it is all
      // available.
      inactive = inactive.withReplicas(spec.replicas());
      if (isNumber(
          inactiveRs.get().object().path("status").path("availableReplicas"),
          expectedReplicas(spec))) {
        Side previous = active;
        active = inactive;
        inactive = previous;
        activeColor = inactiveColor;
      }
    } else if (inactiveRs.isPresent()
        && isNumber(inactiveRs.get().object().path("spec").path("replicas"), 0)
        && isNumber(inactiveRs.get().object().path("status").path("replicas"), 0)) {
      // Neither color runs the new template and the inactive one is idle: start a rollout on it.
      inactive = fromSpec;
    } else {
      // Another rollout was in progress: cancel it and wait for the inactive color to drain.
      inactive = inactive.withReplicas(IntNode.valueOf(0));
    }

    List<ObjectNode> children =
        List.of(
            Services.build(spec, activeColor),
            ReplicaSets.build(
                spec, activeColor, active.replicas(), active.template(), active.source()),
            ReplicaSets.build(
                spec,
                other(activeColor),
                inactive.replicas(),
                inactive.template(),
                inactive.source()));
    return CompositeResponse.of(status, children);
  }

  /** Desired replicas and pod template of one color; {@code source} says where the template came from. */
  private record Side(JsonNode replicas, ObjectNode template, String source) {
    static Side observed(ObjectMap.Entry rs) {
      String path =
          "children['" + ObjectMap.groupKey("apps/v1", "ReplicaSet") + "']['" + rs.key() + "']";
      return new Side(
          rs.object().path("spec").get("replicas"),
          PodTemplates.read(rs.object(), path),
          path + ".metadata.annotations['" + PodTemplates.ANNOTATION + "']");
    }

    Side withReplicas(JsonNode count) {
      return new Side(count, template, source);
    }
  }

  /** The observed ReplicaSet of this name in the parent's namespace, with its wire key. */
  private static Optional<ObjectMap.Entry> replicaSet(CompositeRequest request, String name) {
    return request.children().entries("apps/v1", "ReplicaSet").stream()
        .filter(e -> e.name().equals(name) && e.namespace().equals(request.namespace()))
        .findFirst();
  }

  /** The color the observed Service selects; a Service edited to select neither color counts as blue. */
  static String colorOf(ObjectNode service) {
    return GREEN.equals(service.path("spec").path("selector").path("color").asText(null))
        ? GREEN
        : BLUE;
  }

  static String other(String color) {
    return BLUE.equals(color) ? GREEN : BLUE;
  }

  /** The replica count the ReplicaSets get: the parent's, or Kubernetes' default of 1 when it has none. */
  private static double expectedReplicas(BlueGreenSpec spec) {
    return spec.replicas() == null ? 1 : spec.replicas().doubleValue();
  }

  private static boolean isNumber(JsonNode value, double expected) {
    return value.isNumber() && value.doubleValue() == expected;
  }

  /** {@code active}/{@code inactive}: the ReplicaSet's observed status, {} without one, left out if it has none. */
  private static void putStatus(ObjectNode status, String field, Optional<ObjectMap.Entry> rs) {
    if (rs.isEmpty()) {
      status.putObject(field);
    } else if (rs.get().object().has("status")) {
      status.set(field, rs.get().object().get("status").deepCopy());
    }
  }
}
