package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.emulator.Cluster;

/** Custom kinds of the emulator's own tests, in a group no controller of the project uses. */
public final class TestKinds {
  public static final String API_VERSION = "test.metahooks.dev/v1";

  private TestKinds() {}

  /** A cluster that also knows {@code Thing} (namespaced) and {@code ClusterThing} (cluster-scoped). */
  public static Cluster cluster() {
    return Project.cluster()
        .register(API_VERSION, "Thing", "things", true)
        .register(API_VERSION, "ClusterThing", "clusterthings", false);
  }

  /**
   * A CompositeController {@code <hook>-controller} of Things, with generateSelector, one child resource
   * (apiVersion v1) updated by {@code method}, and the sync webhook {@code /<hook>/sync}.
   */
  public static String composite(String hook, String childResource, String method) {
    return """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: %1$s-controller}
        spec:
          generateSelector: true
          parentResource: {apiVersion: test.metahooks.dev/v1, resource: things}
          childResources: [{apiVersion: v1, resource: %2$s, updateStrategy: {method: %3$s}}]
          hooks:
            sync: {webhook: {url: "http://metahooks.metahooks/%1$s/sync"}}
        """
        .formatted(hook, childResource, method);
  }

  public static ObjectNode configMap(String name, String key, String value) {
    ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    configMap.putObject("metadata").put("name", name);
    configMap.putObject("data").put(key, value);
    return configMap;
  }

  /** The text at a JSON pointer of the object's spec, "" when absent. */
  public static String spec(ObjectNode object, String field) {
    return object.path("spec").path(field).asText("");
  }
}
