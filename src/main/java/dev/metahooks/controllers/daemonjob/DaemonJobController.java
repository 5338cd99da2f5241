package dev.metahooks.controllers.daemonjob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import java.util.List;
import java.util.Optional;

/**
 * DaemonJob ({@code ctl.example.com/v1}), Metacontroller's daemonjob example: run a pod template once on
 * every node through a DaemonSet, and delete the DaemonSet once every node is done.
 *
 * <p>Status is a copy of the DaemonSet's status plus a {@code Complete} condition. Once the DaemonJob's own
 * status records that all scheduled pods were ready, the status is frozen with {@code Complete=True} and no
 * child is returned, so the DaemonSet is deleted. The DaemonSet is kept until that completion is recorded.
 */
public final class DaemonJobController {
  private DaemonJobController() {}

  public static Controller controller() {
    return Controller.composite("daemonjob").sync(DaemonJobController::sync).build();
  }

  public static CompositeResponse sync(CompositeRequest request) {
    ObjectNode parent = request.parent();
    if (isFinished(parent.get("status"))) {
      ObjectNode frozen = ((ObjectNode) parent.get("status")).deepCopy();
      frozen.set("conditions", complete(true));
      return CompositeResponse.of(frozen, List.of());
    }

    DaemonJobSpec spec = DaemonJobSpec.read(parent);
    Optional<ObjectNode> daemonSet =
        request.child("apps/v1", "DaemonSet", DaemonSets.name(spec.name()));
    JsonNode observed = daemonSet.map(ds -> ds.get("status")).orElse(null);
    ObjectNode status =
        observed != null && observed.isObject()
            ? ((ObjectNode) observed).deepCopy()
            : Json.object();
    status.set("conditions", complete(isFinished(observed)));
    return CompositeResponse.of(status, List.of(DaemonSets.build(spec, parent.get("status"))));
  }

  /**
   * Whether a DaemonSet status (or a DaemonJob status copied from one) shows every scheduled pod ready:
   * {@code desiredNumberScheduled} (1 when absent) equals {@code numberReady} (0 when absent) and is positive.
   */
  static boolean isFinished(JsonNode status) {
    if (status == null || !status.isObject()) {
      return false;
    }
    JsonNode desired =
        status.has("desiredNumberScheduled")
            ? status.get("desiredNumberScheduled")
            : Json.nodes().numberNode(1);
    JsonNode ready =
        status.has("numberReady") ? status.get("numberReady") : Json.nodes().numberNode(0);
    return desired.isNumber()
        && ready.isNumber()
        && desired.doubleValue() == ready.doubleValue()
        && desired.doubleValue() > 0;
  }

  private static JsonNode complete(boolean done) {
    ObjectNode condition =
        Json.object().put("type", "Complete").put("status", done ? "True" : "False");
    return Json.array().add(condition);
  }
}
