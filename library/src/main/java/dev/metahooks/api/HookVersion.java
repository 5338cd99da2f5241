package dev.metahooks.api;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Metacontroller's hook API version. Field names are the same in both; v2 keys every namespaced object
 * of an object map as {@code namespace/name} and lets a namespaced parent see other namespaces.
 */
public enum HookVersion {
  V1,
  V2;

  /**
   * The version Metacontroller used for this call: {@code controller.spec.hooks.<hook>.version}, v1 when
   * absent. A finalize call may arrive on the sync URL (upstream catset does that), so the hook is chosen
   * by {@code finalizing}, as Metacontroller chooses it.
   */
  static HookVersion of(JsonNode controller, boolean finalizing) {
    String hook = finalizing ? "finalize" : "sync";
    JsonNode version = controller.path("spec").path("hooks").path(hook).path("version");
    if (version.isMissingNode() || version.isNull() || version.asText().isEmpty()) {
      return V1;
    }
    if (!version.isTextual()) {
      throw new InvalidRequestException(
          "controller.spec.hooks." + hook + ".version", "must be \"v1\" or \"v2\"");
    }
    return switch (version.asText()) {
      case "v1" -> V1;
      case "v2" -> V2;
      default ->
          throw new InvalidRequestException(
              "controller.spec.hooks." + hook + ".version",
              "unknown hook version \"" + version.asText() + "\"");
    };
  }
}
