package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.server.internal.Reply;
import dev.metahooks.testing.FixedSources;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Calls a hook in-process, the way the server does, and gives its answer as a JSON tree. */
public final class HookAnswers {
  private static final FrontDoor FRONT_DOOR =
      FrontDoor.of(Catalog.controllers(FixedSources.INSTANCE));

  private HookAnswers() {}

  public record Answer(int status, JsonNode body) {}

  public static Answer call(String controller, String hook, byte[] request) {
    Reply answer = FRONT_DOOR.call(controller, hook, request);
    try {
      return new Answer(answer.status(), JsonTrees.MAPPER.readTree(answer.body().toByteArray()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The same, for a request held as a JSON tree (a fixture a test has edited). */
  public static Answer call(String controller, String hook, JsonNode request) {
    try {
      return call(controller, hook, JsonTrees.MAPPER.writeValueAsBytes(request));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  public static boolean served(String controller, String hook) {
    return FRONT_DOOR.serves(controller, hook);
  }
}
