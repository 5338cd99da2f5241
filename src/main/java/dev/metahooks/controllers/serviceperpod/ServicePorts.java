package dev.metahooks.controllers.serviceperpod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * The ports of each Service, from the StatefulSet annotation {@code service-per-pod-ports}: a comma-separated
 * list of {@code port:targetPort}, e.g. {@code 80:8080,9113:9113}. Numbers are read as upstream's Jsonnet
 * {@code std.parseInt} reads them (digits with an optional minus sign, anything after a second colon
 * ignored), and are not range-checked here: the API server judges them, as it did upstream.
 */
final class ServicePorts {
  static final String ANNOTATION = "service-per-pod-ports";
  private static final String FIELD = "object.metadata.annotations['" + ANNOTATION + "']";
  private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");

  /** Integers above this cannot all be held exactly by a double, which is what Jsonnet computes with. */
  private static final int EXACT_BITS = 53;

  private ServicePorts() {}

  /** The {@code spec.ports} list of a Service. */
  static ArrayNode parse(String annotation) {
    ArrayNode ports = Json.array();
    for (String mapping : annotation.split(",", -1)) {
      String[] parts = mapping.split(":", -1);
      if (parts.length < 2) {
        throw new InvalidRequestException(
            FIELD, "entry \"" + mapping + "\" must be port:targetPort");
      }
      BigInteger port = integer(parts[0], mapping);
      BigInteger targetPort = integer(parts[1], mapping);
      ObjectNode entry = ports.addObject().put("name", "port-" + port);
      entry.set("port", number(port));
      entry.set("targetPort", number(targetPort));
    }
    return ports;
  }

  /** The smallest JSON number type that holds the value, as a parser would read it back. */
  private static JsonNode number(BigInteger value) {
    JsonNodeFactory nodes = Json.nodes();
    if (value.bitLength() < Integer.SIZE) {
      return nodes.numberNode(value.intValue());
    }
    return value.bitLength() < Long.SIZE
        ? nodes.numberNode(value.longValue())
        : nodes.numberNode(value);
  }

  private static BigInteger integer(String text, String mapping) {
    if (!INTEGER.matcher(text).matches()) {
      throw new InvalidRequestException(
          FIELD, "\"" + text + "\" in \"" + mapping + "\" is not an integer");
    }
    BigInteger value = new BigInteger(text);
    if (value.abs().bitLength() <= EXACT_BITS) {
      return value;
    }
    double rounded = value.doubleValue();
    if (Double.isInfinite(rounded)) {
      throw new InvalidRequestException(
          FIELD, "\"" + text + "\" in \"" + mapping + "\" is too large");
    }
    return new BigDecimal(rounded).toBigInteger();
  }
}
