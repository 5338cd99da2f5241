package dev.metahooks.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Metacontroller calls finalize for two reasons only: the parent is being deleted ({@code
 * metadata.deletionTimestamp}), or it no longer matches the controller's selector (docs/metacontroller.md, section 8.7). A
 * finalize call for neither is not Metacontroller's, and answering it would tear down what the user still has,
 * so it is refused. Where the selector cannot be evaluated, the call is given the benefit of the doubt.
 */
final class FinalizeCall {
  private FinalizeCall() {}

  /** For a CompositeController: the parent must be deleted or fail {@code spec.parentResource.labelSelector}. */
  static void requireReasonForComposite(ObjectNode controller, ObjectNode parent) {
    if (isDeleted(parent)) {
      return;
    }
    // No selector: every parent matches (upstream: a nil selector never "does not match").
    JsonNode selector = controller.path("spec").path("parentResource").path("labelSelector");
    if (Selectors.matches(selector, "matchLabels", parent.path("metadata").path("labels"))
        == Selectors.Match.YES) {
      throw refused("parent", "spec.parentResource.labelSelector");
    }
  }

  /**
   * For a DecoratorController: the object must be deleted or fail the label or annotation selector of its
   * resource in {@code spec.resources}. Resources are named by plural there, so the object's entry is known by
   * its API group only; the call is refused when the object matches every entry of its group.
   */
  static void requireReasonForDecorator(ObjectNode controller, ObjectNode object) {
    if (isDeleted(object)) {
      return;
    }
    String group = group(object.path("apiVersion").asText(""));
    JsonNode metadata = object.path("metadata");
    boolean candidate = false;
    for (JsonNode resource : controller.path("spec").path("resources")) {
      if (!group.equals(group(resource.path("apiVersion").asText("")))) {
        continue;
      }
      candidate = true;
      boolean selected =
          Selectors.matches(resource.get("labelSelector"), "matchLabels", metadata.path("labels"))
                  == Selectors.Match.YES
              && Selectors.matches(
                      resource.get("annotationSelector"),
                      "matchAnnotations",
                      metadata.path("annotations"))
                  == Selectors.Match.YES;
      if (!selected) {
        return;
      }
    }
    if (candidate) {
      throw refused(
          "object", "the labelSelector and annotationSelector of its entry in spec.resources");
    }
  }

  private static boolean isDeleted(ObjectNode parent) {
    JsonNode timestamp = parent.path("metadata").get("deletionTimestamp");
    return timestamp != null && !timestamp.isNull();
  }

  private static String group(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  private static InvalidRequestException refused(String path, String selector) {
    return new InvalidRequestException(
        path + ".metadata.deletionTimestamp",
        "is missing in a finalize call;"
            + " Metacontroller finalizes only what is being deleted or no longer matches "
            + selector
            + ", and this "
            + path
            + " still matches");
  }
}
