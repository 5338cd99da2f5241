package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Typed reads of a parent's {@code spec}. A field that is missing or of the wrong type fails with an
 * {@link InvalidRequestException} naming it ({@code parent.spec.x}), so the answer is a 422 that says what
 * to fix, never a 500.
 */
public final class ParentSpec {
  private final ObjectNode spec;
  private final String path;

  private ParentSpec(ObjectNode spec, String path) {
    this.spec = spec;
    this.path = path;
  }

  /** The spec of {@code parent}; an absent or null spec reads as empty, so required fields say they are missing. */
  public static ParentSpec of(ObjectNode parent) {
    JsonNode spec = parent.get("spec");
    if (spec == null || spec.isNull()) {
      return new ParentSpec(Json.object(), "parent.spec");
    }
    if (!spec.isObject()) {
      throw new InvalidRequestException("parent.spec", "must be an object");
    }
    return new ParentSpec((ObjectNode) spec, "parent.spec");
  }

  /** The path of a field, as error messages name it. */
  public String path(String field) {
    return path + "." + field;
  }

  /** Whether the field is present (null counts as present, as it does for a JSON reader). */
  public boolean has(String field) {
    return spec.has(field);
  }

  /** A required non-empty string. */
  public String requiredString(String field) {
    JsonNode value = spec.get(field);
    if (value == null || value.isNull()) {
      throw new InvalidRequestException(path(field), "is required");
    }
    if (!value.isTextual() || value.asText().isEmpty()) {
      throw new InvalidRequestException(path(field), "must be a non-empty string");
    }
    return value.asText();
  }

  /** An optional string; absent and null read as empty. */
  public Optional<String> optionalString(String field) {
    JsonNode value = spec.get(field);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isTextual()) {
      throw new InvalidRequestException(path(field), "must be a string");
    }
    return Optional.of(value.asText());
  }

  /** A required list of non-empty strings, in order (it may be empty). */
  public List<String> requiredStringList(String field) {
    JsonNode value = spec.get(field);
    if (value == null || value.isNull()) {
      throw new InvalidRequestException(path(field), "is required");
    }
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

  /** A required map of strings to strings (labels), as a copy. */
  public ObjectNode requiredStringMap(String field) {
    JsonNode value = spec.get(field);
    if (value == null || value.isNull()) {
      throw new InvalidRequestException(path(field), "is required");
    }
    return StringMaps.copy(value, path(field));
  }

  /** A required label selector, checked and copied (see {@link LabelSelectors#copy}). */
  public ObjectNode requiredLabelSelector(String field) {
    JsonNode value = spec.get(field);
    if (value == null || value.isNull()) {
      throw new InvalidRequestException(path(field), "is required");
    }
    return LabelSelectors.copy(value, path(field));
  }

  /** An optional label selector; absent and null read as empty. */
  public Optional<ObjectNode> optionalLabelSelector(String field) {
    JsonNode value = spec.get(field);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    return Optional.of(LabelSelectors.copy(value, path(field)));
  }
}
