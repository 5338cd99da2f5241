package dev.metahooks.properties;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.testing.FixedSources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Hook answers as bytes, the way the server writes them, from requests sent as bytes. */
final class Replies {
  private static final FrontDoor FRONT_DOOR =
      FrontDoor.of(Catalog.controllers(FixedSources.INSTANCE));

  private Replies() {}

  record Reply(int status, byte[] bytes) {
    JsonNode json() {
      try {
        return JsonTrees.MAPPER.readTree(bytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    boolean ok() {
      return status == 200;
    }

    /** The desired objects: {@code children} of a composite answer, {@code attachments} of a decorator's. */
    List<JsonNode> objects() {
      JsonNode answer = json();
      JsonNode list = answer.has("children") ? answer.get("children") : answer.path("attachments");
      List<JsonNode> objects = new java.util.ArrayList<>();
      if (list.isArray()) {
        list.forEach(objects::add);
      }
      return objects;
    }

    @Override
    public String toString() {
      return status + " " + new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  static Reply call(GeneratedRequest request) {
    return call(request.controller(), request.hook(), request.request());
  }

  static Reply call(String controller, String hook, ObjectNode request) {
    try {
      return call(controller, hook, JsonTrees.MAPPER.writeValueAsBytes(request));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Reply call(String controller, String hook, byte[] body) {
    dev.metahooks.server.internal.Reply answer = FRONT_DOOR.call(controller, hook, body);
    return new Reply(answer.status(), answer.body().toByteArray());
  }
}
