package com.example.greeting;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.kube.Description;
import dev.metahooks.kube.TypedParent;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Greeting ({@code greetings.example.com/v1}) becomes one ConfigMap {@code <name>-greeting} whose
 * {@code data.message} greets {@code spec.who} in {@code spec.language}; the status says what was written.
 */
public final class GreetingController {
  /** This build's version: the jar manifest's Implementation-Version (the pom's); "dev" when run from classes. */
  static final String VERSION = Objects.requireNonNullElse(
      GreetingController.class.getPackage().getImplementationVersion(), "dev");

  /** The languages a Greeting speaks, named as the CRD spells them. */
  public enum Language { en, de, fr }

  private static final Map<Language, String> HELLO = Map.of(Language.en, "Hello", Language.de, "Hallo",
      Language.fr, "Bonjour");

  /** A Greeting's spec. */
  public record Spec(
      @Description("Who to greet.") String who,
      @Description("The language; en when absent.") Optional<Language> language) {}

  /** A Greeting's status. */
  public record Status(
      @Description("The message written.") String message,
      @Description("The ConfigMaps observed.") int configMaps,
      @Description("The generation Metacontroller last synced; Metacontroller sets it.") Optional<Long> observedGeneration) {}

  /** The spec read as a record, the status written from one; the CRD's schema is theirs (GreetingSchemaTest). */
  static final TypedParent<Spec, Status> PARENT = TypedParent.of(Spec.class, Status.class);

  private GreetingController() {}

  public static Controller controller() {
    return Controller.composite("greeting").version(VERSION).sync(GreetingController::sync).build();
  }

  public static CompositeResponse sync(CompositeRequest request) {
    Spec spec = PARENT.spec(request.parent());                         // 422 "parent.spec.who: is required"
    String message = HELLO.get(spec.language().orElse(Language.en)) + ", " + spec.who() + "!";
    String name = request.parent().path("metadata").path("name").asText();
    Status status = new Status(message, request.children().count("v1", "ConfigMap"), Optional.empty());
    return CompositeResponse.of(PARENT.status(status), List.of(configMap(name + "-greeting", message)));
  }

  static ObjectNode configMap(String name, String message) {
    ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    configMap.putObject("metadata").put("name", name);
    configMap.putObject("data").put("message", message);
    return configMap;
  }
}
