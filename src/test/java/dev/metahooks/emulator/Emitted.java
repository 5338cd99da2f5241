package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.KubeSchema;
import java.util.ArrayList;
import java.util.List;

/** What a controller's hooks asked for over a whole scenario: every child or attachment of every answer. */
public final class Emitted {
  private Emitted() {}

  /** The {@code children} (composite) or {@code attachments} (decorator) of every successful answer. */
  public static List<ObjectNode> objects(Metacontroller mc, String controller) {
    List<ObjectNode> objects = new ArrayList<>();
    for (HookCall call : mc.calls()) {
      if (!call.controller().equals(controller) || !call.ok() || call.hook().equals("customize")) {
        continue;
      }
      JsonNode answer = call.responseJson();
      for (String field : List.of("children", "attachments")) {
        answer.path(field).forEach(child -> objects.add((ObjectNode) child));
      }
    }
    return objects;
  }

  /** Fails unless the controller emitted something and every emitted object passes the strict schema check. */
  public static void assertAllValid(Metacontroller mc, String controller) {
    List<ObjectNode> objects = objects(mc, controller);
    if (objects.isEmpty()) {
      throw new AssertionError(controller + " emitted no objects; calls: " + mc.calls());
    }
    objects.forEach(KubeSchema::assertValid);
  }
}
