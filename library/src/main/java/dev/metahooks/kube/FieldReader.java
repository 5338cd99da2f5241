package dev.metahooks.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

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
 *
 * <p>The collecting mode, for a spec a user wrote whose problems go into the status rather than fail the call: a
 * reader built over {@link FieldProblems#collecting()} (and every reader nested in it) adds each problem, with the
 * same path and words, and reads on. What was wrong reads as empty: an optional as empty, a required string as
 * {@code ""}, a list as empty, an object as an empty object (so the rules for its fields still run), and a bad
 * item of a list as the empty item, so the items keep the indices of the request.
 *
 * <pre>{@code
 * FieldProblems problems = FieldProblems.collecting();
 * FieldReader spec = FieldReader.optional(parent.get("spec"), "spec", problems);
 * int instances = spec.optionalInteger("instances", 0, 16).orElse(1L).intValue();
 * boolean paused = spec.optionalBoolean("paused").orElse(false);
 * problems.list();                                    // [spec.instances: must be between 0 and 16, ...]
 * }</pre>
 */
public final class FieldReader {
  /** A key that reads as {@code .key} in a path; others read as {@code ['key']}. */
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final ObjectNode node;
  private final String path;
  private final FieldProblems problems;

  private FieldReader(ObjectNode node, String path, FieldProblems problems) {
    this.node = node;
    this.path = path;
    this.problems = problems;
  }

  /** {@code parent.spec}; an absent or null spec reads as empty, so required fields say they are missing. */
  public static FieldReader spec(ObjectNode parent) {
    return spec(parent, FieldProblems.THROWING);
  }

  /** {@code parent.spec} read in the collecting mode; absent or null reads as empty. */
  public static FieldReader spec(ObjectNode parent, FieldProblems problems) {
    return optional(parent.get("spec"), "parent.spec", problems);
  }

  /** {@code parent.spec}, which must be present. */
  public static FieldReader requiredSpec(ObjectNode parent) {
    return of(parent.get("spec"), "parent.spec");
  }

  /** {@code value} read as an object named {@code path}; absent or null is "is required", another type "must be an object". */
  public static FieldReader of(JsonNode value, String path) {
    return of(value, path, FieldProblems.THROWING);
  }

  /** {@code value} read as an object named {@code path}, its problems added to {@code problems}. */
  public static FieldReader of(JsonNode value, String path, FieldProblems problems) {
    if (value == null || value.isNull()) {
      problems.add(path, "is required");
      return new FieldReader(Json.object(), path, problems);
    }
    if (!value.isObject()) {
      problems.add(path, "must be an object");
      return new FieldReader(Json.object(), path, problems);
    }
    return new FieldReader((ObjectNode) value, path, problems);
  }

  /** {@code value} read as an object named {@code path}; absent or null reads as an empty object. */
  public static FieldReader optional(JsonNode value, String path) {
    return optional(value, path, FieldProblems.THROWING);
  }

  /** {@code value} read as an object named {@code path}, absent or null as empty, its problems added to {@code problems}. */
  public static FieldReader optional(JsonNode value, String path, FieldProblems problems) {
    return isNull(value)
        ? new FieldReader(Json.object(), path, problems)
        : of(value, path, problems);
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
    return IDENTIFIER.matcher(field).matches() ? path + "." + field : path + "['" + field + "']";
  }

  /** The path of an item of a list field, {@code spec.users[1]}. */
  public String path(String field, int index) {
    return path(field) + "[" + index + "]";
  }

  /** Where this reader's problems go (rules of the caller's own add theirs there too). */
  public FieldProblems problems() {
    return problems;
  }

  /** Whether the field is present (null counts as present, as it does for a JSON reader). */
  public boolean has(String field) {
    return node.has(field);
  }

  /** Whether the field is present and not null: what the optional reads treat as given. */
  public boolean isSet(String field) {
    return !isNull(node.get(field));
  }

  /** The field as it is, for values read by rules of their own (null when absent). */
  public JsonNode get(String field) {
    return node.get(field);
  }

  /** A problem found by a rule of the caller's own: thrown in the throwing mode, added in the collecting mode. */
  public void report(String field, String message) {
    problems.add(path(field), message);
  }

  /** A required object field. */
  public FieldReader object(String field) {
    return of(node.get(field), path(field), problems);
  }

  /** An optional object field; absent and null read as empty. */
  public Optional<FieldReader> optionalObject(String field) {
    return isSet(field) ? Optional.of(object(field)) : Optional.empty();
  }

  /** An object field that reads as empty when absent or null ({@code metadata.annotations}, say). */
  public FieldReader objectOrEmpty(String field) {
    return optional(node.get(field), path(field), problems);
  }

  /** A required non-empty string. */
  public String requiredString(String field) {
    JsonNode value = required(field);
    if (value == null) {
      return "";
    }
    if (!value.isTextual() || value.asText().isEmpty()) {
      return wrong(field, "must be a non-empty string", "");
    }
    return value.asText();
  }

  /** An optional string (it may be empty); absent and null read as empty. */
  public Optional<String> optionalString(String field) {
    JsonNode value = node.get(field);
    if (isNull(value)) {
      return Optional.empty();
    }
    return value.isTextual()
        ? Optional.of(value.asText())
        : wrong(field, "must be a string", Optional.empty());
  }

  /** An optional string that must be one of {@code allowed} (an enum); absent and null read as empty. */
  public Optional<String> optionalOneOf(String field, List<String> allowed) {
    JsonNode value = node.get(field);
    if (isNull(value)) {
      return Optional.empty();
    }
    return value.isTextual() && allowed.contains(value.asText())
        ? Optional.of(value.asText())
        : wrong(field, "must be one of " + String.join(", ", allowed), Optional.empty());
  }

  /** A required string that may be empty. */
  public String requiredText(String field) {
    JsonNode value = required(field);
    if (value == null) {
      return "";
    }
    return value.isTextual() ? value.asText() : wrong(field, "must be a string", "");
  }

  /** An optional boolean; absent and null read as empty. */
  public Optional<Boolean> optionalBoolean(String field) {
    JsonNode value = node.get(field);
    if (isNull(value)) {
      return Optional.empty();
    }
    return value.isBoolean()
        ? Optional.of(value.booleanValue())
        : wrong(field, "must be true or false", Optional.empty());
  }

  /** A required array (it may be empty). */
  public ArrayNode requiredArray(String field) {
    JsonNode value = required(field);
    if (value == null) {
      return JsonNodeFactory.instance.arrayNode();
    }
    return value.isArray()
        ? (ArrayNode) value
        : wrong(field, "must be an array", JsonNodeFactory.instance.arrayNode());
  }

  /** An optional array; absent and null read as empty. */
  public Optional<ArrayNode> optionalArray(String field) {
    JsonNode value = node.get(field);
    if (isNull(value)) {
      return Optional.empty();
    }
    return value.isArray()
        ? Optional.of((ArrayNode) value)
        : wrong(field, "must be an array", Optional.empty());
  }

  /** A required array of objects, each read with its index in the path ({@code spec.items[2]}). */
  public List<FieldReader> requiredObjects(String field) {
    return objects(requiredArray(field), field);
  }

  /** An optional array of objects, each read with its index in the path; absent and null read as empty. */
  public List<FieldReader> optionalObjects(String field) {
    return optionalArray(field).map(array -> objects(array, field)).orElse(List.of());
  }

  /** A required list of non-empty strings, in order (it may be empty). */
  public List<String> requiredStringList(String field) {
    JsonNode value = required(field);
    return value == null ? List.of() : strings(value, field);
  }

  /** An optional list of non-empty strings, in order; absent and null read as empty. */
  public List<String> optionalStringList(String field) {
    JsonNode value = node.get(field);
    return isNull(value) ? List.of() : strings(value, field);
  }

  /** An optional integer (a JSON number without a fraction, {@code 3.0} included); absent and null read as empty. */
  public Optional<Long> optionalInteger(String field) {
    JsonNode value = node.get(field);
    if (isNull(value)) {
      return Optional.empty();
    }
    if (!isWholeNumber(value) || !value.canConvertToLong()) {
      return wrong(field, "must be an integer", Optional.empty());
    }
    return Optional.of(value.longValue());
  }

  /** An optional integer from {@code min} to {@code max}; absent and null read as empty. */
  public Optional<Long> optionalInteger(String field, long min, long max) {
    JsonNode value = node.get(field);
    if (isNull(value)) {
      return Optional.empty();
    }
    if (!isWholeNumber(value)) {
      return wrong(field, "must be an integer", Optional.empty());
    }
    if (value.doubleValue() < min || value.doubleValue() > max) {
      return wrong(field, "must be between " + min + " and " + max, Optional.empty());
    }
    return Optional.of(value.longValue());
  }

  /** A required map of strings to strings (labels), as a copy. */
  public ObjectNode requiredStringMap(String field) {
    JsonNode value = required(field);
    return value == null
        ? Json.object()
        : problems.checked(() -> StringMaps.copy(value, path(field))).orElse(Json.object());
  }

  /** A required label selector, checked and copied (see {@link LabelSelectors#copy}). */
  public ObjectNode requiredLabelSelector(String field) {
    JsonNode value = required(field);
    return value == null
        ? Json.object()
        : problems.checked(() -> LabelSelectors.copy(value, path(field))).orElse(Json.object());
  }

  /** An optional label selector; absent and null read as empty. */
  public Optional<ObjectNode> optionalLabelSelector(String field) {
    JsonNode value = node.get(field);
    return isNull(value)
        ? Optional.empty()
        : problems.checked(() -> LabelSelectors.copy(value, path(field)));
  }

  private List<FieldReader> objects(ArrayNode array, String field) {
    List<FieldReader> items = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      items.add(of(array.get(i), path(field, i), problems));
    }
    return items;
  }

  private List<String> strings(JsonNode value, String field) {
    if (!value.isArray()) {
      return wrong(field, "must be a list of strings", List.of());
    }
    List<String> items = new ArrayList<>(value.size());
    for (int i = 0; i < value.size(); i++) {
      JsonNode item = value.get(i);
      if (!item.isTextual() || item.asText().isEmpty()) {
        problems.add(path(field, i), "must be a non-empty string");
        items.add("");
      } else {
        items.add(item.asText());
      }
    }
    return items;
  }

  /** The field's value; when it is absent or null, "is required" and null. */
  private JsonNode required(String field) {
    JsonNode value = node.get(field);
    if (isNull(value)) {
      problems.add(path(field), "is required");
      return null;
    }
    return value;
  }

  private <T> T wrong(String field, String message, T empty) {
    problems.add(path(field), message);
    return empty;
  }

  private static boolean isNull(JsonNode value) {
    return value == null || value.isNull();
  }

  private static boolean isWholeNumber(JsonNode value) {
    return value.isNumber() && value.doubleValue() == Math.rint(value.doubleValue());
  }
}
