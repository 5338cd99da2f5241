package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;

/**
 * One hook call the emulated Metacontroller made, with what it sent and got.
 *
 * @param round the round it happened in (1 for the first)
 * @param controller the CompositeController or DecoratorController name
 * @param hook {@code sync}, {@code finalize} or {@code customize}
 * @param parent the parent (or decorated object) as {@code Kind namespace/name}
 * @param status the HTTP status, 0 when no answer came
 * @param response the answer body as text ("" when none)
 * @param error why the call counts as failed, null when it succeeded
 */
public record HookCall(
    int round,
    String controller,
    String hook,
    String parent,
    URI url,
    ObjectNode request,
    int status,
    String response,
    String error) {

  public boolean ok() {
    return error == null;
  }

  /** The answer as JSON; fails the test if it is not JSON. */
  public JsonNode responseJson() {
    try {
      return Trees.MAPPER.readTree(response);
    } catch (java.io.IOException e) {
      throw new AssertionError("the answer is not JSON: " + response, e);
    }
  }

  @Override
  public String toString() {
    return "round "
        + round
        + " "
        + controller
        + "/"
        + hook
        + " "
        + parent
        + " -> "
        + status
        + (error == null ? "" : " (" + error + ")");
  }
}
