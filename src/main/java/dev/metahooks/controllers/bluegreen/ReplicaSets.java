package dev.metahooks.controllers.bluegreen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.FieldReader;
import dev.metahooks.kube.Quantities;

/** The ReplicaSet of one color: {@code <name>-<color>}, its pod template remembered in an annotation. */
final class ReplicaSets {
  private ReplicaSets() {}

  /**
   * @param replicas the desired replicas, or null to leave the field out (Kubernetes then defaults it)
   * @param template the pod template without the color label; it is also what the annotation records
   * @param source where the template came from, to name it if it lacks labels
   */
  static ObjectNode build(
      BlueGreenSpec spec, String color, JsonNode replicas, ObjectNode template, String source) {
    BlueGreenSpec.requireLabels(FieldReader.of(template, source));
    ObjectNode rs = Json.object().put("apiVersion", "apps/v1").put("kind", "ReplicaSet");
    ObjectNode metadata = rs.putObject("metadata").put("name", spec.name() + "-" + color);
    metadata.set("labels", colored((ObjectNode) template.path("metadata").path("labels"), color));
    metadata
        .putObject("annotations")
        .put(PodTemplates.ANNOTATION, PodTemplates.annotation(template));

    ObjectNode rsSpec = rs.putObject("spec");
    if (replicas != null && !replicas.isNull()) {
      rsSpec.set("replicas", replicas);
    }
    if (spec.minReadySeconds() != null) {
      rsSpec.set("minReadySeconds", spec.minReadySeconds());
    }
    ObjectNode selector = spec.selector().deepCopy();
    JsonNode matchLabels = selector.get("matchLabels");
    selector.set(
        "matchLabels",
        colored(matchLabels instanceof ObjectNode labels ? labels : Json.object(), color));
    rsSpec.set("selector", selector);

    // The quantities as the API server stores them: an echo of the user's cpu: "0.5" would differ
    // from the stored
    // 500m on every sync. The annotation keeps the template as written, which is what the parent is
    // compared with.
    ObjectNode podTemplate = Quantities.inPodTemplate(template);
    ObjectNode podMetadata = (ObjectNode) podTemplate.get("metadata");
    podMetadata.set("labels", colored((ObjectNode) podMetadata.get("labels"), color));
    rsSpec.set("template", podTemplate);
    return rs;
  }

  private static ObjectNode colored(ObjectNode labels, String color) {
    return labels.deepCopy().put("color", color);
  }
}
