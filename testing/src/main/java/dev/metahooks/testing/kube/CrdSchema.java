package dev.metahooks.testing.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Checks custom resources against the structural OpenAPI v3 schema of their CRD, in the API server's order:
 * defaults first ({@link #withDefaults}), then validation ({@link #validate}). One difference is deliberate:
 * a field the schema does not declare is an error here, where the API server would silently prune it, because
 * an object that relies on such a field does not mean what it says. The same goes for a null where the schema
 * does not allow one (the API server drops it).
 *
 * <p>Understood: {@code type}, {@code properties}, {@code required}, {@code additionalProperties} (schema or
 * boolean), {@code items}, {@code enum}, {@code minimum}/{@code maximum} (and their exclusive flags),
 * {@code multipleOf}, {@code minLength}/{@code maxLength}, {@code pattern}, {@code minItems}/{@code maxItems},
 * {@code minProperties}/{@code maxProperties}, {@code uniqueItems}, {@code nullable}, {@code default},
 * {@code allOf}/{@code anyOf}/{@code oneOf}/{@code not}, the string formats date-time, date, uuid, byte, ipv4,
 * ipv6 and hostname (others are not checked, as the API server ignores formats it does not know), and the
 * extensions {@code x-kubernetes-int-or-string}, {@code x-kubernetes-preserve-unknown-fields},
 * {@code x-kubernetes-embedded-resource} and {@code x-kubernetes-list-type} set/map. Not evaluated: CEL rules
 * ({@code x-kubernetes-validations}). A keyword outside this list makes the schema itself invalid, so that a
 * misspelt keyword in a CRD does not pass unnoticed.
 *
 * <p>Errors name the JSON path of the offending value, {@code $.spec.replicas}, {@code $.spec.ports[0].name}.
 */
public final class CrdSchema {
  private static final Set<String> TYPES =
      Set.of("object", "array", "string", "integer", "number", "boolean");
  private static final Set<String> KEYWORDS =
      Set.of(
          "type",
          "format",
          "description",
          "title",
          "example",
          "externalDocs",
          "default",
          "nullable",
          "enum",
          "properties",
          "required",
          "additionalProperties",
          "items",
          "minProperties",
          "maxProperties",
          "minimum",
          "maximum",
          "exclusiveMinimum",
          "exclusiveMaximum",
          "multipleOf",
          "minLength",
          "maxLength",
          "pattern",
          "minItems",
          "maxItems",
          "uniqueItems",
          "allOf",
          "anyOf",
          "oneOf",
          "not",
          "x-kubernetes-int-or-string",
          "x-kubernetes-preserve-unknown-fields",
          "x-kubernetes-embedded-resource",
          "x-kubernetes-list-type",
          "x-kubernetes-list-map-keys",
          "x-kubernetes-map-type",
          "x-kubernetes-validations");

  /** Fields every object of a kind has, whether or not its schema declares them. */
  private static final Set<String> OBJECT_FIELDS = Set.of("apiVersion", "kind", "metadata");

  private static final Pattern UUID =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern IPV4 =
      Pattern.compile(
          "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
  private static final Pattern HOSTNAME =
      Pattern.compile(
          "(?=.{1,253}$)[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*");
  private static final Pattern BASE64 =
      Pattern.compile("([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

  private final String apiVersion;
  private final String kind;
  private final JsonNode schema;

  private CrdSchema(String apiVersion, String kind, JsonNode schema) {
    this.apiVersion = apiVersion;
    this.kind = kind;
    this.schema = schema;
    List<String> problems = new ArrayList<>();
    checkSchema(schema, "openAPIV3Schema", problems, false);
    if (problems.isEmpty() && !"object".equals(schema.path("type").asText())) {
      problems.add("openAPIV3Schema: the root must have type object");
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "the schema of "
              + describe()
              + " is not a valid structural schema:\n  "
              + String.join("\n  ", problems));
    }
  }

  /**
   * A CRD's root schema on its own: objects are validated against it (apiVersion, kind and metadata are
   * implied at the root), but their apiVersion, kind and metadata.name are not checked.
   */
  public static CrdSchema of(JsonNode openApiV3Schema) {
    return new CrdSchema(null, null, openApiV3Schema);
  }

  /** The schema of objects of one apiVersion and kind. */
  public static CrdSchema of(String apiVersion, String kind, JsonNode openApiV3Schema) {
    return new CrdSchema(apiVersion, kind, openApiV3Schema);
  }

  /** The schema of one version of a CustomResourceDefinition. */
  public static CrdSchema of(JsonNode crd, String version) {
    JsonNode spec = crd.path("spec");
    String group = spec.path("group").asText();
    for (JsonNode v : spec.path("versions")) {
      if (v.path("name").asText().equals(version)) {
        JsonNode schema = v.path("schema").path("openAPIV3Schema");
        if (!schema.isObject()) {
          throw new IllegalArgumentException(
              "CRD "
                  + crd.path("metadata").path("name").asText()
                  + " version "
                  + version
                  + " has no schema.openAPIV3Schema");
        }
        return new CrdSchema(
            group + "/" + version, spec.path("names").path("kind").asText(), schema);
      }
    }
    throw new IllegalArgumentException(
        "CRD " + crd.path("metadata").path("name").asText() + " has no version " + version);
  }

  /** A copy of the object with the schema's defaults applied, as the API server stores it. */
  public JsonNode withDefaults(JsonNode object) {
    JsonNode copy = object.deepCopy();
    applyDefaults(schema, copy);
    return copy;
  }

  /** What is wrong with the object once defaulted, each error led by its JSON path; empty when valid. */
  public List<String> validate(JsonNode object) {
    JsonNode defaulted = withDefaults(object);
    List<String> errors = new ArrayList<>();
    if (apiVersion != null) {
      checkIdentity(defaulted, errors);
    }
    check(schema, defaulted, "$", errors, true, true);
    return errors;
  }

  /** Fails with every error unless the object is valid. */
  public void assertValid(JsonNode object) {
    List<String> errors = validate(object);
    if (!errors.isEmpty()) {
      throw new AssertionError(
          object.path("kind").asText("object")
              + " "
              + object.path("metadata").path("name").asText("")
              + " does not fit the schema of "
              + describe()
              + ":\n  "
              + String.join("\n  ", errors));
    }
  }

  private String describe() {
    return apiVersion == null ? "a bare schema" : apiVersion + " " + kind;
  }

  private void checkIdentity(JsonNode object, List<String> errors) {
    if (!apiVersion.equals(object.path("apiVersion").asText())) {
      errors.add("$.apiVersion: must be " + apiVersion + ", got " + object.path("apiVersion"));
    }
    if (!kind.equals(object.path("kind").asText())) {
      errors.add("$.kind: must be " + kind + ", got " + object.path("kind"));
    }
    JsonNode metadata = object.path("metadata");
    String name = metadata.path("name").asText("");
    if (!metadata.isObject()) {
      errors.add("$.metadata: required field is missing");
    } else if (name.isEmpty() && metadata.path("generateName").asText("").isEmpty()) {
      errors.add("$.metadata.name: required field is missing");
    } else if (name.contains("/") || name.contains("%") || name.equals(".") || name.equals("..")) {
      errors.add(
          "$.metadata.name: may not be '.' or '..' nor contain '/' or '%', got \"" + name + "\"");
    }
  }

  // ---- validation

  private static void check(
      JsonNode s, JsonNode v, String path, List<String> errors, boolean prune, boolean topLevel) {
    if (v.isNull()) {
      if (!s.path("nullable").asBoolean(false)) {
        errors.add(path + ": must not be null (the schema is not nullable)");
      }
      return;
    }
    if (!checkType(s, v, path, errors)) {
      return;
    }
    JsonNode allowed = s.get("enum");
    if (allowed != null && !contains(allowed, v)) {
      errors.add(path + ": must be one of " + allowed + ", got " + v);
    }
    if (v.isNumber()) {
      checkNumber(s, v.decimalValue(), path, errors);
    } else if (v.isTextual()) {
      checkString(s, v.textValue(), path, errors);
    } else if (v.isArray()) {
      checkArray(s, (ArrayNode) v, path, errors, prune);
    } else if (v.isObject()) {
      checkObject(s, (ObjectNode) v, path, errors, prune, topLevel);
    }
    checkCombinations(s, v, path, errors);
  }

  private static boolean checkType(JsonNode s, JsonNode v, String path, List<String> errors) {
    if (intOrString(s)) {
      if (v.isIntegralNumber() || v.isTextual()) {
        return true;
      }
      errors.add(path + ": must be an integer or a string, got " + typeOf(v));
      return false;
    }
    String type = s.path("type").asText("");
    boolean ok =
        switch (type) {
          case "" -> true;
          case "object" -> v.isObject();
          case "array" -> v.isArray();
          case "string" -> v.isTextual();
          case "integer" -> v.isIntegralNumber();
          case "number" -> v.isNumber();
          case "boolean" -> v.isBoolean();
          default -> false;
        };
    if (!ok) {
      errors.add(path + ": must be of type " + type + ", got " + typeOf(v));
    }
    return ok;
  }

  private static void checkNumber(JsonNode s, BigDecimal n, String path, List<String> errors) {
    if (s.has("minimum")) {
      BigDecimal min = s.get("minimum").decimalValue();
      boolean exclusive = s.path("exclusiveMinimum").asBoolean(false);
      if (exclusive ? n.compareTo(min) <= 0 : n.compareTo(min) < 0) {
        errors.add(
            path
                + ": must be "
                + (exclusive ? "greater than " : "at least ")
                + plain(min)
                + ", got "
                + plain(n));
      }
    }
    if (s.has("maximum")) {
      BigDecimal max = s.get("maximum").decimalValue();
      boolean exclusive = s.path("exclusiveMaximum").asBoolean(false);
      if (exclusive ? n.compareTo(max) >= 0 : n.compareTo(max) > 0) {
        errors.add(
            path
                + ": must be "
                + (exclusive ? "less than " : "at most ")
                + plain(max)
                + ", got "
                + plain(n));
      }
    }
    if (s.has("multipleOf")) {
      BigDecimal factor = s.get("multipleOf").decimalValue();
      if (factor.signum() > 0 && n.remainder(factor).signum() != 0) {
        errors.add(path + ": must be a multiple of " + plain(factor) + ", got " + plain(n));
      }
    }
  }

  private static void checkString(JsonNode s, String text, String path, List<String> errors) {
    int length = text.codePointCount(0, text.length());
    if (s.has("minLength") && length < s.get("minLength").asInt()) {
      errors.add(
          path
              + ": must be at least "
              + s.get("minLength").asInt()
              + " characters long, got "
              + length);
    }
    if (s.has("maxLength") && length > s.get("maxLength").asInt()) {
      errors.add(
          path
              + ": must be at most "
              + s.get("maxLength").asInt()
              + " characters long, got "
              + length);
    }
    if (s.has("pattern") && !Pattern.compile(s.get("pattern").asText()).matcher(text).find()) {
      errors.add(
          path
              + ": must match the pattern "
              + s.get("pattern").asText()
              + ", got \""
              + text
              + "\"");
    }
    String format = s.path("format").asText("");
    if (!format.isEmpty() && !hasFormat(format, text)) {
      errors.add(path + ": must be in the " + format + " format, got \"" + text + "\"");
    }
  }

  private static boolean hasFormat(String format, String text) {
    try {
      return switch (format) {
        case "date-time" -> OffsetDateTime.parse(text) != null;
        case "date" -> LocalDate.parse(text) != null;
        case "uuid" -> UUID.matcher(text).matches();
        case "byte" -> BASE64.matcher(text).matches();
        case "ipv4" -> IPV4.matcher(text).matches();
        case "ipv6" -> isIpv6(text);
        case "hostname" -> HOSTNAME.matcher(text).matches();
        default -> true;
      };
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  /** Eight groups of one to four hex digits, "::" once at most for a run of zero groups, IPv4 at the end. */
  private static boolean isIpv6(String text) {
    String address = text;
    int lastColon = address.lastIndexOf(':');
    if (lastColon < 0) {
      return false;
    }
    if (address.indexOf('.') >= 0) {
      if (!IPV4.matcher(address.substring(lastColon + 1)).matches()) {
        return false;
      }
      address = address.substring(0, lastColon + 1) + "0:0"; // the IPv4 part stands for two groups
    }
    int gap = address.indexOf("::");
    if (gap >= 0 && address.indexOf("::", gap + 1) >= 0) {
      return false;
    }
    List<String> groups = new ArrayList<>();
    if (gap < 0) {
      groups.addAll(Arrays.asList(address.split(":", -1)));
      if (groups.size() != 8) {
        return false;
      }
    } else {
      String head = address.substring(0, gap);
      String tail = address.substring(gap + 2);
      if (!head.isEmpty()) {
        groups.addAll(Arrays.asList(head.split(":", -1)));
      }
      if (!tail.isEmpty()) {
        groups.addAll(Arrays.asList(tail.split(":", -1)));
      }
      if (groups.size() > 7) {
        return false;
      }
    }
    return groups.stream().allMatch(g -> g.matches("[0-9a-fA-F]{1,4}"));
  }

  private static void checkArray(
      JsonNode s, ArrayNode items, String path, List<String> errors, boolean prune) {
    if (s.has("minItems") && items.size() < s.get("minItems").asInt()) {
      errors.add(
          path
              + ": must have at least "
              + s.get("minItems").asInt()
              + " items, got "
              + items.size());
    }
    if (s.has("maxItems") && items.size() > s.get("maxItems").asInt()) {
      errors.add(
          path
              + ": must have at most "
              + s.get("maxItems").asInt()
              + " items, got "
              + items.size());
    }
    String listType = s.path("x-kubernetes-list-type").asText("");
    if (s.path("uniqueItems").asBoolean(false) || listType.equals("set")) {
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < items.size(); i++) {
        if (!seen.add(canonical(items.get(i)))) {
          errors.add(path + "[" + i + "]: duplicate item " + items.get(i));
        }
      }
    }
    if (listType.equals("map")) {
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < items.size(); i++) {
        StringBuilder key = new StringBuilder();
        for (JsonNode k : s.path("x-kubernetes-list-map-keys")) {
          key.append(k.asText())
              .append('=')
              .append(canonical(items.get(i).path(k.asText())))
              .append(' ');
        }
        if (!seen.add(key.toString())) {
          errors.add(path + "[" + i + "]: duplicate entry with keys " + key.toString().trim());
        }
      }
    }
    JsonNode itemSchema = s.get("items");
    if (itemSchema != null && itemSchema.isObject()) {
      for (int i = 0; i < items.size(); i++) {
        check(itemSchema, items.get(i), path + "[" + i + "]", errors, prune, false);
      }
    }
  }

  /**
   * {@code topLevel} is true for the object itself and for embedded resources: their apiVersion, kind and
   * metadata are implied, and metadata is never pruned by the schema (ObjectMeta has rules of its own).
   */
  private static void checkObject(
      JsonNode s,
      ObjectNode object,
      String path,
      List<String> errors,
      boolean prune,
      boolean topLevel) {
    boolean embedded = s.path("x-kubernetes-embedded-resource").asBoolean(false);
    boolean implied = topLevel || embedded;
    if (embedded) {
      for (String field : List.of("apiVersion", "kind")) {
        if (object.path(field).asText("").isEmpty()) {
          errors.add(
              child(path, field)
                  + ": required field is missing (the object is an embedded resource)");
        }
      }
    }
    for (JsonNode name : s.path("required")) {
      if (!object.has(name.asText())) {
        errors.add(child(path, name.asText()) + ": required field is missing");
      }
    }
    if (s.has("minProperties") && object.size() < s.get("minProperties").asInt()) {
      errors.add(
          path
              + ": must have at least "
              + s.get("minProperties").asInt()
              + " fields, got "
              + object.size());
    }
    if (s.has("maxProperties") && object.size() > s.get("maxProperties").asInt()) {
      errors.add(
          path
              + ": must have at most "
              + s.get("maxProperties").asInt()
              + " fields, got "
              + object.size());
    }
    JsonNode properties = s.path("properties");
    JsonNode additional = s.get("additionalProperties");
    boolean preserve = s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      String name = field.getKey();
      JsonNode value = field.getValue();
      String at = child(path, name);
      if (implied && OBJECT_FIELDS.contains(name)) {
        boolean shapeOk = name.equals("metadata") ? value.isObject() : value.isTextual();
        if (!shapeOk) {
          errors.add(
              at
                  + ": must be "
                  + (name.equals("metadata") ? "an object" : "a string")
                  + ", got "
                  + typeOf(value));
        } else if (properties.has(name)) {
          check(properties.get(name), value, at, errors, prune && !name.equals("metadata"), false);
        }
      } else if (properties.has(name)) {
        check(properties.get(name), value, at, errors, prune, false);
      } else if (additional != null && additional.isObject()) {
        check(additional, value, at, errors, prune, false);
      } else if (additional != null && additional.isBoolean()) {
        if (!additional.booleanValue()) {
          errors.add(at + ": unknown field (additionalProperties is false)");
        }
      } else if (prune && !preserve) {
        errors.add(
            at + ": unknown field (the schema does not declare it: the API server would drop it)");
      }
    }
  }

  /** allOf, anyOf, oneOf and not only constrain values: what they do not mention is not unknown. */
  private static void checkCombinations(JsonNode s, JsonNode v, String path, List<String> errors) {
    for (JsonNode sub : s.path("allOf")) {
      check(sub, v, path, errors, false, false);
    }
    if (s.has("anyOf")) {
      List<String> firstErrors = null;
      boolean any = false;
      for (JsonNode sub : s.get("anyOf")) {
        List<String> subErrors = new ArrayList<>();
        check(sub, v, path, subErrors, false, false);
        any |= subErrors.isEmpty();
        firstErrors = firstErrors == null ? subErrors : firstErrors;
      }
      if (!any) {
        errors.add(
            path
                + ": must match at least one of the anyOf schemas; the first says: "
                + firstErrors);
      }
    }
    if (s.has("oneOf")) {
      int matches = 0;
      for (JsonNode sub : s.get("oneOf")) {
        List<String> subErrors = new ArrayList<>();
        check(sub, v, path, subErrors, false, false);
        matches += subErrors.isEmpty() ? 1 : 0;
      }
      if (matches != 1) {
        errors.add(path + ": must match exactly one of the oneOf schemas, matches " + matches);
      }
    }
    if (s.has("not")) {
      List<String> subErrors = new ArrayList<>();
      check(s.get("not"), v, path, subErrors, false, false);
      if (subErrors.isEmpty()) {
        errors.add(path + ": must not match the schema " + s.get("not"));
      }
    }
  }

  // ---- defaults

  /** Fills absent fields (and nulls the schema does not allow) with their defaults, then descends. */
  private static void applyDefaults(JsonNode s, JsonNode v) {
    if (v instanceof ObjectNode object) {
      JsonNode properties = s.path("properties");
      for (Map.Entry<String, JsonNode> property : properties.properties()) {
        JsonNode present = object.get(property.getKey());
        if (property.getValue().has("default")
            && (present == null || isDefaultableNull(present, property.getValue()))) {
          object.set(property.getKey(), property.getValue().get("default").deepCopy());
        }
      }
      JsonNode additional = s.get("additionalProperties");
      for (String name : fieldNames(object)) {
        if (properties.has(name)) {
          applyDefaults(properties.get(name), object.get(name));
        } else if (additional != null && additional.isObject()) {
          if (additional.has("default") && isDefaultableNull(object.get(name), additional)) {
            object.set(name, additional.get("default").deepCopy());
          }
          applyDefaults(additional, object.get(name));
        }
      }
    } else if (v instanceof ArrayNode array && s.path("items").isObject()) {
      JsonNode items = s.get("items");
      for (int i = 0; i < array.size(); i++) {
        if (items.has("default") && isDefaultableNull(array.get(i), items)) {
          array.set(i, items.get("default").deepCopy());
        }
        applyDefaults(items, array.get(i));
      }
    }
  }

  private static boolean isDefaultableNull(JsonNode value, JsonNode s) {
    return value.isNull() && !s.path("nullable").asBoolean(false);
  }

  // ---- the schema itself

  private static void checkSchema(
      JsonNode s, String at, List<String> problems, boolean inCombination) {
    if (!s.isObject()) {
      problems.add(
          at
              + ": a schema must be an object, got "
              + typeOf(s)
              + (s.isTextual() ? " (YAML aliases are not expanded here)" : ""));
      return;
    }
    for (String keyword : fieldNames(s)) {
      if (!KEYWORDS.contains(keyword)) {
        problems.add(at + ": unknown keyword '" + keyword + "'");
      }
    }
    String type = s.path("type").asText("");
    boolean preserve = s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    if (!type.isEmpty() && !TYPES.contains(type)) {
      problems.add(at + ": unknown type '" + type + "'");
    }
    if (type.isEmpty() && !inCombination && !intOrString(s) && !preserve) {
      problems.add(
          at
              + ": no type (needed unless x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields)");
    }
    if (s.has("properties")) {
      for (String name : fieldNames(s.get("properties"))) {
        checkSchema(
            s.get("properties").get(name), at + ".properties." + name, problems, inCombination);
      }
    }
    JsonNode additional = s.get("additionalProperties");
    if (additional != null && additional.isObject()) {
      if (s.has("properties")) {
        problems.add(at + ": properties and additionalProperties exclude each other");
      }
      checkSchema(additional, at + ".additionalProperties", problems, inCombination);
    } else if (additional != null && !additional.isBoolean()) {
      problems.add(at + ".additionalProperties: must be a schema or a boolean");
    }
    if (s.has("items")) {
      checkSchema(s.get("items"), at + ".items", problems, inCombination);
    } else if (type.equals("array") && !inCombination && !preserve) {
      problems.add(at + ": an array needs items");
    }
    for (String combination : List.of("allOf", "anyOf", "oneOf")) {
      if (s.has(combination)) {
        int i = 0;
        for (JsonNode sub : s.get(combination)) {
          checkSchema(sub, at + "." + combination + "[" + i++ + "]", problems, true);
        }
      }
    }
    if (s.has("not")) {
      checkSchema(s.get("not"), at + ".not", problems, true);
    }
    if (s.has("enum") && !s.get("enum").isArray()) {
      problems.add(at + ".enum: must be a list");
    }
    if (s.has("pattern")) {
      try {
        Pattern.compile(s.get("pattern").asText());
      } catch (PatternSyntaxException e) {
        problems.add(at + ".pattern: not a regular expression: " + e.getDescription());
      }
    }
    String listType = s.path("x-kubernetes-list-type").asText("");
    if (!listType.isEmpty() && !Set.of("atomic", "set", "map").contains(listType)) {
      problems.add(at + ".x-kubernetes-list-type: must be atomic, set or map");
    }
    if (listType.equals("map") && s.path("x-kubernetes-list-map-keys").isEmpty()) {
      problems.add(at + ": a list of type map needs x-kubernetes-list-map-keys");
    }
    if (s.has("default") && problems.isEmpty()) {
      JsonNode value = s.get("default").deepCopy();
      applyDefaults(s, value);
      List<String> errors = new ArrayList<>();
      check(s, value, "default", errors, true, false);
      for (String error : errors) {
        problems.add(at + ": invalid default: " + error);
      }
    }
  }

  // ---- helpers

  private static boolean intOrString(JsonNode s) {
    return s.path("x-kubernetes-int-or-string").asBoolean(false)
        || "int-or-string".equals(s.path("format").asText());
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static boolean contains(JsonNode list, JsonNode value) {
    for (JsonNode candidate : list) {
      if (canonical(candidate).equals(canonical(value))) {
        return true;
      }
    }
    return false;
  }

  /** A text equal for equal JSON values: numbers compared by value (1 and 1.0 alike), objects by content. */
  private static String canonical(JsonNode v) {
    if (v.isNumber()) {
      return "n:" + plain(v.decimalValue());
    }
    if (v.isObject()) {
      StringBuilder out = new StringBuilder("{");
      fieldNames(v).stream()
          .sorted()
          .forEach(k -> out.append(k).append(':').append(canonical(v.get(k))).append(','));
      return out.append('}').toString();
    }
    if (v.isArray()) {
      StringBuilder out = new StringBuilder("[");
      v.forEach(item -> out.append(canonical(item)).append(','));
      return out.append(']').toString();
    }
    return v.toString();
  }

  private static String plain(BigDecimal n) {
    return n.signum() == 0 ? "0" : n.stripTrailingZeros().toPlainString();
  }

  private static String typeOf(JsonNode v) {
    if (v.isIntegralNumber()) {
      return "integer " + v;
    }
    if (v.isNumber()) {
      return "number " + v;
    }
    if (v.isTextual()) {
      return "string " + v;
    }
    if (v.isBoolean()) {
      return "boolean " + v;
    }
    return v.getNodeType().name().toLowerCase();
  }

  /** {@code $.a.b}, or {@code $.a['b.c/d']} when the name is not a plain identifier. */
  static String child(String path, String name) {
    return name.matches("[A-Za-z_][A-Za-z0-9_]*")
        ? path + "." + name
        : path + "['" + name.replace("'", "\\'") + "']";
  }
}
