package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one way a controller reads a parent's {@code spec} and the observed objects of a request: typed reads of
 * one JSON object that know their own path. A field that is missing or of the wrong type fails with an
 * {@link InvalidRequestException} naming it ({@code parent.spec.template.metadata}), so the answer is a 422
 * that says what to fix, never a 500 and never a 200 built from half a spec.
 *
 * <pre>{@code
 * FieldReader spec = FieldReader.spec(request.parent());           // parent.spec; absent reads as {}
 * String image = spec.optionalString("image").orElse("busybox");
 * FieldReader labels = spec.object("template").object("metadata").object("labels");
 * FieldReader pod = FieldReader.of(observedPod, "children['v1/Pod'][web-0]");
 * String phase = pod.objectOrEmpty("status").optionalString("phase").orElse("Pending");
 * }</pre>
 */
public final class FieldReader {
  private final ObjectNode node;
  private final String path;

  private FieldReader(ObjectNode node, String path) {
    this.node = node;
    this.path = path;
  }

  /** {@code parent.spec}; an absent or null spec reads as empty, so required fields say they are missing. */
  public static FieldReader spec(ObjectNode parent) {
    return optional(parent.get("spec"), "parent.spec");
  }

  /** {@code parent.spec}, which must be present. */
  public static FieldReader requiredSpec(ObjectNode parent) {
    return of(parent.get("spec"), "parent.spec");
  }

  /** {@code value} read as an object named {@code path}; absent or null is "is required", another type "must be an object". */
  public static FieldReader of(JsonNode value, String path) {
    if (value == null || value.isNull()) {
      throw new InvalidRequestException(path, "is required");
    }
    if (!value.isObject()) {
      throw new InvalidRequestException(path, "must be an object");
    }
    return new FieldReader((ObjectNode) value, path);
  }

  /** {@code value} read as an object named {@code path}; absent or null reads as an empty object. */
  public static FieldReader optional(JsonNode value, String path) {
    if (value == null || value.isNull()) {
      return new FieldReader(Json.object(), path);
    }
    return of(value, path);
  }

  /** The object read (the request's own node, not a copy). */
  public ObjectNode node() {
    return node;
  }

  /** This object's path, as error messages name it. */
  public String path() {
    return path;
  }

  /** The path of a field, as error messages name it; keys such as {@code example.com/x} in brackets. */
  public String path(String field) {
    return field.matches("[A-Za-z_][A-Za-z0-9_]*") ? path + "." + field : path + "['" + field + "']";
  }

  /** Whether the field is present (null counts as present, as it does for a JSON reader). */
  public boolean has(String field) {
    return node.has(field);
  }

  /** The field as it is, for values read by rules of their own (null when absent). */
  public JsonNode get(String field) {
    return node.get(field);
  }

  /** A required object field. */
  public FieldReader object(String field) {
    return of(node.get(field), path(field));
  }

  /** An optional object field; absent and null read as empty. */
  public Optional<FieldReader> optionalObject(String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? Optional.empty() : Optional.of(of(value, path(field)));
  }

  /** An object field that reads as empty when absent or null ({@code metadata.annotations}, say). */
  public FieldReader objectOrEmpty(String field) {
    return optional(node.get(field), path(field));
  }

  /** A required non-empty string. */
  public String requiredString(String field) {
    JsonNode value = required(field);
    if (!value.isTextual() || value.asText().isEmpty()) {
      throw new InvalidRequestException(path(field), "must be a non-empty string");
    }
    return value.asText();
  }

  /** An optional string (it may be empty); absent and null read as empty. */
  public Optional<String> optionalString(String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isTextual()) {
      throw new InvalidRequestException(path(field), "must be a string");
    }
    return Optional.of(value.asText());
  }

  /** A required string that may be empty. */
  public String requiredText(String field) {
    JsonNode value = required(field);
    if (!value.isTextual()) {
      throw new InvalidRequestException(path(field), "must be a string");
    }
    return value.asText();
  }

  /** A required array (it may be empty). */
  public ArrayNode requiredArray(String field) {
    JsonNode value = required(field);
    if (!value.isArray()) {
      throw new InvalidRequestException(path(field), "must be an array");
    }
    return (ArrayNode) value;
  }

  /** An optional array; absent and null read as empty. */
  public Optional<ArrayNode> optionalArray(String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isArray()) {
      throw new InvalidRequestException(path(field), "must be an array");
    }
    return Optional.of((ArrayNode) value);
  }

  /** A required array of objects, each read with its index in the path ({@code spec.items[2]}). */
  public List<FieldReader> requiredObjects(String field) {
    ArrayNode array = requiredArray(field);
    List<FieldReader> items = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      items.add(of(array.get(i), path(field) + "[" + i + "]"));
    }
    return items;
  }

  /** A required list of non-empty strings, in order (it may be empty). */
  public List<String> requiredStringList(String field) {
    JsonNode value = required(field);
    if (!value.isArray()) {
      throw new InvalidRequestException(path(field), "must be a list of strings");
    }
    List<String> items = new ArrayList<>(value.size());
    for (int i = 0; i < value.size(); i++) {
      JsonNode item = value.get(i);
      if (!item.isTextual() || item.asText().isEmpty()) {
        throw new InvalidRequestException(path(field) + "[" + i + "]", "must be a non-empty string");
      }
      items.add(item.asText());
    }
    return items;
  }

  /** An optional integer (a JSON number without a fraction, {@code 3.0} included); absent and null read as empty. */
  public Optional<Long> optionalInteger(String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isNumber() || value.doubleValue() != Math.rint(value.doubleValue()) || !value.canConvertToLong()) {
      throw new InvalidRequestException(path(field), "must be an integer");
    }
    return Optional.of(value.longValue());
  }

  /** A required map of strings to strings (labels), as a copy. */
  public ObjectNode requiredStringMap(String field) {
    return StringMaps.copy(required(field), path(field));
  }

  /** A required label selector, checked and copied (see {@link LabelSelectors#copy}). */
  public ObjectNode requiredLabelSelector(String field) {
    return LabelSelectors.copy(required(field), path(field));
  }

  /** An optional label selector; absent and null read as empty. */
  public Optional<ObjectNode> optionalLabelSelector(String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    return Optional.of(LabelSelectors.copy(value, path(field)));
  }

  private JsonNode required(String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      throw new InvalidRequestException(path(field), "is required");
    }
    return value;
  }
}
