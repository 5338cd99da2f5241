package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.KubeSchema;
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
   * Checks every object the controller emitted with {@link KubeSchema#assertValid}; fails too when it emitted
   * none, since a scenario that calls this expects objects. Returns how many were checked.
   */
  public static int assertAllValid(Metacontroller mc, String controller) {
    List<ObjectNode> objects = objects(mc, controller);
    assertThat(objects).as("objects emitted by " + controller).isNotEmpty();
    objects.forEach(KubeSchema::assertValid);
    return objects.size();
  }
}
