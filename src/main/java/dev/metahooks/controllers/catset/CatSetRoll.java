package dev.metahooks.controllers.catset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.PathCopies;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A roll of template changes that the hook drives itself, for manifests whose Pod child type is not a rolling
 * one (metacontroller/catset.yaml: {@code OnDelete}). Metacontroller 4.10.3 to 4.17.2 stalls a
 * {@code RollingRecreate} after the first Pod (docs/emulator.md, defects), so the hook takes over: every Pod
 * it builds carries the hash of the template it was built from, and once every Pod is Running and Ready the
 * highest ordinal with an older hash is left out of the answer, so Metacontroller deletes it; it is created
 * again from the new template when its turn in the scale-up order comes. One Pod at a time, highest first,
 * as Metacontroller's own roll would go.
 */
final class CatSetRoll {
  static final String TEMPLATE_HASH = "catsets.ctl.enisoc.com/template-hash";

  private CatSetRoll() {}

  /** Whether the controller declares Pods with an update method other than Metacontroller's rolling ones. */
  static boolean drivenByHook(ObjectNode controller) {
    if (controller == null) {
      return false;
    }
    for (JsonNode child : controller.path("spec").path("childResources")) {
      if (child.path("apiVersion").asText().equals("v1")
          && child.path("resource").asText().equals("pods")) {
        return !child
            .path("updateStrategy")
            .path("method")
            .asText("OnDelete")
            .startsWith("Rolling");
      }
    }
    return false;
  }

  /** A short hash of the template, independent of the order its fields are written in. */
  static String hash(ObjectNode template) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(
                  Json.writer()
                      .writeValueAsString(sorted(template))
                      .getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 16);
    } catch (NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot hash the Pod template", e);
    }
  }

  /**
   * Marks a Pod built from the template with its hash. The Pod's metadata is its own; its annotations are the
   * template's, shared with the other Pods, so the Pod gets a copy of them ({@link PathCopies}).
   */
  static void mark(ObjectNode pod, String hash) {
    ObjectNode metadata = (ObjectNode) pod.get("metadata");
    JsonNode annotations = metadata.get("annotations");
    (annotations instanceof ObjectNode
            ? PathCopies.object(metadata, "annotations")
            : metadata.putObject("annotations"))
        .put(TEMPLATE_HASH, hash);
  }

  /**
   * The ordinal to replace now, or -1: the highest Pod built from another template, but only while all
   * {@code replicas} Pods exist and are Running and Ready (none is terminating or being recreated).
   */
  static double next(
      NavigableMap<Double, ObjectNode> observed,
      CatSetSpec.Replicas replicas,
      int ready,
      String hash) {
    if (!replicas.strictlyEquals(observed.size()) || ready != observed.size()) {
      return -1;
    }
    for (Map.Entry<Double, ObjectNode> pod : observed.descendingMap().entrySet()) {
      if (!hash.equals(
          pod.getValue().path("metadata").path("annotations").path(TEMPLATE_HASH).asText())) {
        return pod.getKey();
      }
    }
    return -1;
  }

  private static JsonNode sorted(JsonNode node) {
    if (node.isObject()) {
      TreeMap<String, JsonNode> fields = new TreeMap<>();
      node.fields().forEachRemaining(f -> fields.put(f.getKey(), sorted(f.getValue())));
      ObjectNode copy = Json.object();
      fields.forEach(copy::set);
      return copy;
    }
    if (node.isArray()) {
      var copy = Json.array();
      node.forEach(item -> copy.add(sorted(item)));
      return copy;
    }
    return node;
  }
}
