package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.kube.KubeSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * The objects a controller's hooks asked for: every child (composite) or attachment (decorator) of every
 * successful sync and finalize answer, in call order. Scenarios use it to hold each emitted object to the
 * Kubernetes schema, not only the ones a test happens to look at.
 */
public final class Emitted {
  private Emitted() {}

  /** Every child and attachment the named controller's sync and finalize hooks returned. */
  public static List<ObjectNode> objects(Metacontroller mc, String controller) {
    List<ObjectNode> objects = new ArrayList<>();
    for (HookCall call : mc.calls()) {
      if (!call.controller().equals(controller) || !call.ok() || call.hook().equals("customize")) {
        continue;
      }
      JsonNode answer = call.responseJson();
      for (String field : List.of("children", "attachments")) {
        answer.path(field).forEach(object -> objects.add((ObjectNode) object));
      }
    }
    return objects;
  }

  /**
   * Checks every object the controller emitted with {@link KubeSchema#assertValid} and {@link #assertNoNulls};
   * fails too when it emitted none, since a scenario that calls this expects objects. Returns how many were
   * checked.
   */
  public static int assertAllValid(Metacontroller mc, String controller) {
    List<ObjectNode> objects = objects(mc, controller);
    assertThat(objects).as("objects emitted by " + controller).isNotEmpty();
    objects.forEach(KubeSchema::assertValid);
    assertNoNulls(mc, controller);
    return objects.size();
  }

  /**
   * Fails, naming each one, if an emitted object has an explicit {@code null}: the API server stores none (a
   * built-in kind's field is left out, a label value becomes {@code ""}, a custom resource's non-nullable field is
   * pruned), so Metacontroller's comparison never matches and the child is recreated ({@code Recreate}) or
   * updated ({@code InPlace}) on every sync.
   */
  public static void assertNoNulls(Metacontroller mc, String controller) {
    List<String> found = new ArrayList<>();
    for (ObjectNode object : objects(mc, controller)) {
      List<String> paths = Nulls.paths(object);
      String line = Meta.describe(object) + ": " + paths;
      if (!paths.isEmpty() && !found.contains(line)) {
        found.add(line);
      }
    }
    if (!found.isEmpty()) {
      throw new AssertionError(
          controller
              + " emitted explicit nulls, which the API server does not store, so "
              + "Metacontroller finds a difference on every sync:\n  "
              + String.join("\n  ", found));
    }
  }
}
