package dev.metahooks.controllers.postgres.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.FieldReader;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads {@code spec.resources}: quantities, in the form the API server stores them (the StatefulSet's container
 * carries them, and {@code cpu: "0.5"} would otherwise differ from the stored {@code 500m} on every sync), and a
 * memory limit that Spilo can size PostgreSQL from.
 */
public final class ResourceSpecReader {
  private ResourceSpecReader() {}

  public static ObjectNode read(FieldReader spec) {
    ObjectNode resources = Json.object();
    if (!spec.isSet("resources")) {
      resources.putObject("requests").put("cpu", "100m").put("memory", "256Mi");
      resources.putObject("limits").put("memory", SpecReader.DEFAULT_MEMORY_LIMIT);
      return resources;
    }
    FieldReader given = spec.objectOrEmpty("resources");
    for (String section : List.of("requests", "limits")) {
      given
          .optionalObject(section)
          .ifPresent(
              values -> {
                ObjectNode out = resources.putObject(section);
                Map<String, JsonNode> sorted = new TreeMap<>();
                values
                    .node()
                    .properties()
                    .forEach(entry -> sorted.put(entry.getKey(), entry.getValue()));
                sorted.forEach(
                    (name, value) -> {
                      // a quantity is a string or a whole number (memory: 1073741824)
                      String quantity =
                          value.isTextual() || value.isIntegralNumber() ? value.asText() : null;
                      if (quantity == null || !Quantities.valid(quantity)) {
                        values
                            .problems()
                            .add(
                                values.path() + "." + name,
                                "must be a quantity such as 500m, 2 or 1Gi");
                      } else {
                        out.put(name, Quantities.stored(quantity));
                      }
                    });
              });
    }
    memoryLimit(resources, given);
    return resources;
  }

  /**
   * Spilo sizes shared_buffers and max_connections from the memory limit, or from the node's memory without one:
   * a limit is always set (the default, or the request when that is larger), and one too small to start is refused.
   */
  private static void memoryLimit(ObjectNode resources, FieldReader given) {
    String request = resources.path("requests").path("memory").asText(null);
    String limit = resources.path("limits").path("memory").asText(null);
    if (limit == null) {
      boolean requestLarger =
          request != null
              && Quantities.valid(request)
              && Quantities.bytes(request)
                      .compareTo(Quantities.bytes(SpecReader.DEFAULT_MEMORY_LIMIT))
                  > 0;
      resources
          .withObject("/limits")
          .put("memory", requestLarger ? request : SpecReader.DEFAULT_MEMORY_LIMIT);
      return;
    }
    if (Quantities.bytes(limit).compareTo(Quantities.bytes(SpecReader.MIN_MEMORY_LIMIT)) < 0) {
      given
          .problems()
          .add(
              given.path() + ".limits.memory",
              "must be at least "
                  + SpecReader.MIN_MEMORY_LIMIT
                  + ": Patroni and PostgreSQL do not start with less");
    } else if (request != null
        && Quantities.bytes(request).compareTo(Quantities.bytes(limit)) > 0) {
      given
          .problems()
          .add(
              given.path() + ".requests.memory",
              "must not be more than limits.memory (" + limit + ")");
    }
  }
}
