package ${package};

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.kube.FieldReader;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A ${kind} ({@code ${kind.toLowerCase()}s.${apiGroup}/v1}) becomes one ConfigMap {@code <name>-${artifactId}} whose
 * {@code data.message} greets {@code spec.who} in {@code spec.language}; the status says what was written.
 */
public final class ${kind}Controller {
  private static final Map<String, String> HELLO = Map.of("en", "Hello", "de", "Hallo", "fr", "Bonjour");
  /** This build's version: the jar manifest's Implementation-Version (the pom's); "dev" when run from classes. */
  static final String VERSION = Objects.requireNonNullElse(
      ${kind}Controller.class.getPackage().getImplementationVersion(), "dev");

  private ${kind}Controller() {}

  public static Controller controller() {
    return Controller.composite("${artifactId}").version(VERSION).sync(${kind}Controller::sync).build();
  }

  public static CompositeResponse sync(CompositeRequest request) {
    FieldReader spec = FieldReader.spec(request.parent());
    String who = spec.requiredString("who");
    String language = spec.optionalString("language").orElse("en");
    String hello = HELLO.get(language);
    if (hello == null) {
      throw new InvalidRequestException(spec.path("language"), "must be one of " + HELLO.keySet().stream().sorted().toList());
    }
    String message = hello + ", " + who + "!";
    String name = request.parent().path("metadata").path("name").asText();
    ObjectNode status = Json.object().put("message", message)
        .put("configMaps", request.children().count("v1", "ConfigMap"));
    return CompositeResponse.of(status, List.of(configMap(name + "-${artifactId}", message)));
  }

  static ObjectNode configMap(String name, String message) {
    ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    configMap.putObject("metadata").put("name", name);
    configMap.putObject("data").put("message", message);
    return configMap;
  }
}
