package dev.metahooks.controllers.daemonjob;

import static dev.metahooks.kube.Nodes.requireObject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;

/**
 * The parts of a DaemonJob ({@code ctl.example.com/v1}) the hook reads.
 *
 * @param name the parent's name; the DaemonSet is {@code <name>-dj}
 * @param template {@code spec.template}, a pod template whose containers run once on every node
 * @param labels {@code spec.template.metadata.labels}, also the DaemonSet's labels and selector
 * @param containers {@code spec.template.spec.containers}
 * @param pauseImage {@code spec.pauseImage}, the image that keeps each pod alive after the work is done
 */
record DaemonJobSpec(String name, ObjectNode template, ObjectNode labels, ArrayNode containers, String pauseImage) {
  static final String DEFAULT_PAUSE_IMAGE = "gcr.io/google_containers/pause";

  static DaemonJobSpec read(ObjectNode parent) {
    ObjectNode spec = requireObject(parent.get("spec"), "parent.spec");
    ObjectNode template = requireObject(spec.get("template"), "parent.spec.template");
    ObjectNode labels = requireObject(requireObject(template.get("metadata"), "parent.spec.template.metadata").get("labels"),
        "parent.spec.template.metadata.labels");
    JsonNode containers = requireObject(template.get("spec"), "parent.spec.template.spec").get("containers");
    if (containers == null || !containers.isArray()) {
      throw new InvalidRequestException("parent.spec.template.spec.containers", "must be a list of containers");
    }
    JsonNode pauseImage = spec.get("pauseImage");
    if (pauseImage != null && !pauseImage.isNull() && !pauseImage.isTextual()) {
      throw new InvalidRequestException("parent.spec.pauseImage", "must be a string");
    }
    // An empty string is used as given, as upstream does; only an absent value gets the default.
    String image = pauseImage == null || pauseImage.isNull() ? DEFAULT_PAUSE_IMAGE : pauseImage.asText();
    return new DaemonJobSpec(parent.path("metadata").path("name").asText(), template, labels,
        (ArrayNode) containers, image);
  }
}
