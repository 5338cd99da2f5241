package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import java.util.function.Consumer;

/** One PostgresCluster of an emulated cluster, as a scenario reads and edits it. */
record PostgresParent(Cluster cluster, String namespace, String name) {
  static final String API = "metahooks.dev/v1alpha1";
  static final String KIND = "PostgresCluster";

  /** The object as the cluster holds it now. */
  ObjectNode get() {
    return cluster.get(API, KIND, namespace, name);
  }

  /** Changes its spec, as a user's {@code kubectl edit} would. */
  void edit(Consumer<ObjectNode> spec) {
    cluster.update(
        API, KIND, namespace, name, parent -> spec.accept(parent.withObjectProperty("spec")));
  }

  /** Sets an annotation ({@code null} removes it), as {@code kubectl annotate} would. */
  void annotate(String key, String value) {
    cluster.update(
        API,
        KIND,
        namespace,
        name,
        parent -> {
          ObjectNode annotations =
              parent.withObjectProperty("metadata").withObjectProperty("annotations");
          if (value == null) {
            annotations.remove(key);
          } else {
            annotations.put(key, value);
          }
        });
  }

  /** The status condition of this type; fails naming the status when there is none. */
  JsonNode condition(String type) {
    for (JsonNode condition : get().path("status").path("conditions")) {
      if (condition.path("type").asText().equals(type)) {
        return condition;
      }
    }
    throw new AssertionError("no condition " + type + " in " + get().path("status"));
  }
}
