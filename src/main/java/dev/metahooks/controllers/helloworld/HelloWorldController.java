package dev.metahooks.controllers.helloworld;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.kube.FieldReader;
import java.util.List;

/**
 * HelloWorld ({@code example.com/v1}) of Metacontroller's guide: one Pod named after the parent that echoes a
 * greeting, and {@code status.pods} counting the observed Pods.
 */
public final class HelloWorldController {
  private HelloWorldController() {}

  public static Controller controller() {
    // Of observed Pods the hook reads how many there are.
    return Controller.composite("hello-world")
        .sync(HelloWorldController::sync)
        .reads("v1", "Pod")
        .build();
  }

  public static CompositeResponse sync(CompositeRequest request) {
    ObjectNode status = Json.object().put("pods", request.children().count("v1", "Pod"));
    return CompositeResponse.of(status, List.of(pod(request.name(), who(request.parent()))));
  }

  static ObjectNode pod(String name, String who) {
    ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
    pod.putObject("metadata").put("name", name);
    ObjectNode spec = pod.putObject("spec").put("restartPolicy", "OnFailure");
    ObjectNode container =
        spec.putArray("containers").addObject().put("name", "hello").put("image", "busybox");
    container.putArray("command").add("echo").add("Hello, " + who + "!");
    return pod;
  }

  /** {@code spec.who}, "World" when absent; numbers and booleans are printed as the upstream Python prints them. */
  static String who(ObjectNode parent) {
    JsonNode who = FieldReader.spec(parent).get("who");
    if (who == null) {
      return "World";
    }
    if (who.isTextual()) {
      return who.asText();
    }
    if (who.isNull()) {
      return "None";
    }
    if (who.isBoolean()) {
      return who.booleanValue() ? "True" : "False";
    }
    if (who.isIntegralNumber()) {
      return who.bigIntegerValue().toString();
    }
    throw new InvalidRequestException(
        "parent.spec.who", "must be a string, not " + who.getNodeType().name().toLowerCase());
  }
}
