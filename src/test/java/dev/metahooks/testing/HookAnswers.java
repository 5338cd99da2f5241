package dev.metahooks.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.HookDispatcher;
import java.io.ByteArrayInputStream;

/** Calls a hook in-process, the way the server does, and gives its answer as a JSON tree. */
public final class HookAnswers {
  private static final HookDispatcher DISPATCHER = new HookDispatcher(Catalog.controllers(FixedSources.INSTANCE));

  private HookAnswers() {}

  public record Answer(int status, JsonNode body) {}

  public static Answer call(String controller, String hook, byte[] request) {
    HookDispatcher.Answer answer = DISPATCHER.dispatch(controller, hook, new ByteArrayInputStream(request));
    return new Answer(answer.status(), Json.MAPPER.valueToTree(answer.body()));
  }

  public static boolean served(String controller, String hook) {
    return DISPATCHER.serves(controller, hook);
  }
}
