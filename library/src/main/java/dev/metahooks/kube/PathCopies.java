package dev.metahooks.kube;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;

/**
 * Many children from one template without a tree per child: a child shares every subtree of the template that no
 * child changes, and is a node of its own only along the paths to what differs (its name, say). Jackson writes a
 * node held by several parents once under each, so the answer's bytes are those of deep copies.
 *
 * <p>The rule that makes it safe: a shared subtree is never changed, by the hook or after it. Set fields only on
 * nodes the child owns: the child itself, and each node {@link #object} or {@link #array} has copied for it (what
 * their fields hold is still shared until copied in turn).
 *
 * <pre>{@code
 * ObjectNode pod = PathCopies.of("v1", "Pod", template);   // shares metadata, spec, ...
 * PathCopies.object(pod, "metadata").put("name", name);    // its own metadata; its labels still shared
 * }</pre>
 */
public final class PathCopies {
  private PathCopies() {}

  /** A new object with the fields of {@code template} in its order, their values shared. */
  public static ObjectNode of(ObjectNode template) {
    return Json.object().setAll(template);
  }

  /**
   * An object of this {@code apiVersion} and {@code kind} followed by the other fields of {@code template}, their
   * values shared: a Pod from a Pod template, say.
   */
  public static ObjectNode of(String apiVersion, String kind, ObjectNode template) {
    ObjectNode child = Json.object().put("apiVersion", apiVersion).put("kind", kind);
    template
        .fields()
        .forEachRemaining(
            field -> {
              if (!field.getKey().equals("apiVersion") && !field.getKey().equals("kind")) {
                child.set(field.getKey(), field.getValue());
              }
            });
    return child;
  }

  /**
   * Replaces the object at {@code field} of {@code owned} (a node of the child's own) by a copy of its own, in
   * the same place, and returns the copy, to be changed.
   *
   * @throws ClassCastException when the field is not an object (read it with {@link FieldReader} first)
   */
  public static ObjectNode object(ObjectNode owned, String field) {
    ObjectNode copy = of((ObjectNode) owned.get(field));
    owned.set(field, copy);
    return copy;
  }

  /** As {@link #object(ObjectNode, String)}, for the object at {@code index} of an array the child owns. */
  public static ObjectNode object(ArrayNode owned, int index) {
    ObjectNode copy = of((ObjectNode) owned.get(index));
    owned.set(index, copy);
    return copy;
  }

  /** As {@link #object(ObjectNode, String)}, for an array: a new array of the same items, shared. */
  public static ArrayNode array(ObjectNode owned, String field) {
    ArrayNode copy = JsonTrees.MAPPER.createArrayNode().addAll((ArrayNode) owned.get(field));
    owned.set(field, copy);
    return copy;
  }
}
