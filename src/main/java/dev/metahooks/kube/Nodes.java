package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;

/** Shape checks on parts of a request a controller reads; a failure is a 422 naming the path. */
public final class Nodes {
  private Nodes() {}

  /** {@code value} as an object; absent or null is "is required", another type "must be an object". */
  public static ObjectNode requireObject(JsonNode value, String path) {
    if (value == null || value.isNull()) {
      throw new InvalidRequestException(path, "is required");
    }
    if (!value.isObject()) {
      throw new InvalidRequestException(path, "must be an object");
    }
    return (ObjectNode) value;
  }
}
