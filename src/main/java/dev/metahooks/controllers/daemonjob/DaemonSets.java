package dev.metahooks.controllers.daemonjob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;

/**
 * The DaemonSet {@code <name>-dj} that runs a DaemonJob: the job's containers become init containers, so
 * each runs to completion once per node, and a pause container then keeps the pod Ready, which is how the
 * DaemonSet's status tells that every node has finished.
 */
final class DaemonSets {
  private DaemonSets() {}

  static String name(String daemonJobName) {
    return daemonJobName + "-dj";
  }

  /**
   * @param parentStatus the DaemonJob's observed status, or null. Upstream's hook built the DaemonSet from a
   *     copy of the whole DaemonJob, so the DaemonSet carried that status; it is kept for identical answers
   *     and is harmless, because Metacontroller never applies a child's status.
   */
  static ObjectNode build(DaemonJobSpec spec, JsonNode parentStatus) {
    ObjectNode daemonSet = Json.object().put("apiVersion", "apps/v1").put("kind", "DaemonSet");
    ObjectNode metadata = daemonSet.putObject("metadata").put("name", name(spec.name()));
    metadata.set("labels", spec.labels().deepCopy());

    ObjectNode dsSpec = daemonSet.putObject("spec");
    ObjectNode template = spec.template().deepCopy();
    ObjectNode podSpec = (ObjectNode) template.get("spec");
    // Init containers of the template, if any, are replaced, as upstream does.
    podSpec.set("initContainers", spec.containers().deepCopy());
    ObjectNode pause =
        podSpec
            .putArray("containers")
            .addObject()
            .put("name", "pause")
            .put("image", spec.pauseImage());
    pause.putObject("resources").putObject("requests").put("cpu", "10m");
    dsSpec.set("template", template);
    dsSpec.putObject("selector").set("matchLabels", spec.labels().deepCopy());

    if (parentStatus != null) {
      daemonSet.set("status", parentStatus.deepCopy());
    }
    return daemonSet;
  }
}
