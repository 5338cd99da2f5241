package dev.metahooks.controllers.daemonjob;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.kube.FieldReader;

/**
 * The parts of a DaemonJob ({@code ctl.example.com/v1}) the hook reads.
 *
 * @param name the parent's name; the DaemonSet is {@code <name>-dj}
 * @param template {@code spec.template}, a pod template whose containers run once on every node
 * @param labels {@code spec.template.metadata.labels}, also the DaemonSet's labels and selector
 * @param containers {@code spec.template.spec.containers}
 * @param pauseImage {@code spec.pauseImage}, the image that keeps each pod alive after the work is done
 */
record DaemonJobSpec(
    String name, ObjectNode template, ObjectNode labels, ArrayNode containers, String pauseImage) {
  static final String DEFAULT_PAUSE_IMAGE = "gcr.io/google_containers/pause";

  static DaemonJobSpec read(ObjectNode parent) {
    FieldReader spec = FieldReader.requiredSpec(parent);
    FieldReader template = spec.object("template");
    ObjectNode labels = template.object("metadata").object("labels").node();
    ArrayNode containers = template.object("spec").requiredArray("containers");
    // An empty string is used as given, as upstream does; only an absent value gets the default.
    String image = spec.optionalString("pauseImage").orElse(DEFAULT_PAUSE_IMAGE);
    return new DaemonJobSpec(
        parent.path("metadata").path("name").asText(), template.node(), labels, containers, image);
  }
}
