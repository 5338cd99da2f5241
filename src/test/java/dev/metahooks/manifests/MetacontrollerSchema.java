package dev.metahooks.manifests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.testing.CrdSchema;
import dev.metahooks.testing.Manifests;
import java.util.List;

/**
 * The fields of CompositeController and DecoratorController ({@code metacontroller.k8s.io/v1alpha1}) that
 * Metacontroller reads, as structural schemas, so that a misspelt field or an unknown update method in
 * {@code metacontroller/} fails a test rather than being dropped by the API server. Written from
 * Metacontroller's API types as the design notes describe them; TLS and auth settings are left open.
 */
final class MetacontrollerSchema {
  static final String API_VERSION = "metacontroller.k8s.io/v1alpha1";
  private static final List<String> HOOKS = List.of("sync", "finalize", "customize", "preUpdateChild",
      "postUpdateChild");

  private static final String HOOK = """
      type: object
      properties:
        version: {type: string, enum: [v1, v2]}
        webhook:
          type: object
          properties:
            url: {type: string}
            path: {type: string, pattern: '^/'}
            timeout: {type: string, pattern: '^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$'}
            responseUnMarshallMode: {type: string, enum: [loose, strict]}
            service:
              type: object
              required: [name, namespace]
              properties:
                name: {type: string}
                namespace: {type: string}
                port: {type: integer}
                protocol: {type: string, enum: [http, https]}
            etag:
              type: object
              properties:
                enabled: {type: boolean}
                cacheTimeoutSeconds: {type: integer}
                cacheCleanupSeconds: {type: integer}
            caBundle: {type: object, x-kubernetes-preserve-unknown-fields: true}
            clientTLS: {type: object, x-kubernetes-preserve-unknown-fields: true}
            authorization: {type: object, x-kubernetes-preserve-unknown-fields: true}
            basicAuth: {type: object, x-kubernetes-preserve-unknown-fields: true}
      """;

  private static final String LABEL_SELECTOR = """
      type: object
      properties:
        matchLabels: {type: object, additionalProperties: {type: string}}
        matchExpressions:
          type: array
          items:
            type: object
            required: [key, operator]
            properties:
              key: {type: string}
              operator: {type: string, enum: [In, NotIn, Exists, DoesNotExist]}
              values: {type: array, items: {type: string}}
      """;

  private static final String UPDATE_STRATEGY = """
      type: object
      properties:
        method: {type: string, enum: [OnDelete, Recreate, InPlace, RollingRecreate, RollingInPlace]}
        statusChecks:
          type: object
          properties:
            conditions:
              type: array
              items:
                type: object
                required: [type]
                properties:
                  type: {type: string}
                  status: {type: string}
                  reason: {type: string}
      """;

  private static final String COMMON_SPEC = """
      resyncPeriodSeconds: {type: integer}
      endpointConfigs:
        type: array
        items:
          type: object
          required: [host]
          properties:
            host: {type: string}
            caBundle: {type: object, x-kubernetes-preserve-unknown-fields: true}
            clientTLS: {type: object, x-kubernetes-preserve-unknown-fields: true}
            authorization: {type: object, x-kubernetes-preserve-unknown-fields: true}
            basicAuth: {type: object, x-kubernetes-preserve-unknown-fields: true}
      """;

  private static final CrdSchema COMPOSITE = CrdSchema.of(API_VERSION, "CompositeController", root("""
      type: object
      required: [parentResource, hooks]
      properties:
        generateSelector: {type: boolean}
        parentResource:
          type: object
          required: [apiVersion, resource]
          properties:
            apiVersion: {type: string}
            resource: {type: string}
            labelSelector: {}
            revisionHistory:
              type: object
              properties:
                fieldPaths: {type: array, items: {type: string}}
            ignoreStatusChanges: {type: boolean}
        childResources:
          type: array
          items:
            type: object
            required: [apiVersion, resource]
            properties:
              apiVersion: {type: string}
              resource: {type: string}
              updateStrategy: {}
      """, "/properties/parentResource/properties/labelSelector", "/properties/childResources/items/properties/updateStrategy"));

  private static final CrdSchema DECORATOR = CrdSchema.of(API_VERSION, "DecoratorController", root("""
      type: object
      required: [resources, hooks]
      properties:
        resources:
          type: array
          minItems: 1
          items:
            type: object
            required: [apiVersion, resource]
            properties:
              apiVersion: {type: string}
              resource: {type: string}
              labelSelector: {}
              annotationSelector:
                type: object
                properties:
                  matchAnnotations: {type: object, additionalProperties: {type: string}}
                  matchExpressions: {type: array, items: {type: object, x-kubernetes-preserve-unknown-fields: true}}
              ignoreStatusChanges: {type: boolean}
        attachments:
          type: array
          items:
            type: object
            required: [apiVersion, resource]
            properties:
              apiVersion: {type: string}
              resource: {type: string}
              updateStrategy: {}
      """, "/properties/resources/items/properties/labelSelector", "/properties/attachments/items/properties/updateStrategy"));

  private MetacontrollerSchema() {}

  /** The schema of a CompositeController or DecoratorController. */
  static CrdSchema of(JsonNode controller) {
    return switch (controller.path("kind").asText()) {
      case "CompositeController" -> COMPOSITE;
      case "DecoratorController" -> DECORATOR;
      default -> throw new AssertionError("not a Metacontroller controller: " + controller.path("kind"));
    };
  }

  /**
   * The whole object's schema around a spec: the spec's own fields, the shared ones, the hooks, and the label
   * selector and update strategy at the given places (written once, used in several).
   */
  private static JsonNode root(String spec, String labelSelectorAt, String updateStrategyAt) {
    ObjectNode specSchema = (ObjectNode) yaml(spec);
    ObjectNode properties = (ObjectNode) specSchema.get("properties");
    properties.setAll((ObjectNode) yaml(COMMON_SPEC));
    ObjectNode hooks = Json.object().put("type", "object");
    ObjectNode hookProperties = hooks.putObject("properties");
    for (String hook : HOOKS) {
      hookProperties.set(hook, yaml(HOOK));
    }
    properties.set("hooks", hooks);
    replace(specSchema, labelSelectorAt, yaml(LABEL_SELECTOR));
    replace(specSchema, updateStrategyAt, yaml(UPDATE_STRATEGY));
    ObjectNode root = Json.object().put("type", "object");
    ObjectNode rootProperties = root.putObject("properties");
    rootProperties.set("spec", specSchema);
    rootProperties.set("status", yaml("{type: object, x-kubernetes-preserve-unknown-fields: true}"));
    return root;
  }

  private static void replace(ObjectNode schema, String pointer, JsonNode with) {
    int slash = pointer.lastIndexOf('/');
    ((ObjectNode) schema.at(pointer.substring(0, slash))).set(pointer.substring(slash + 1), with);
  }

  private static JsonNode yaml(String text) {
    return Manifests.parse(text).get(0);
  }
}
