package dev.metahooks.emulator;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.HookVersion;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One hook of a controller manifest ({@code spec.hooks.<hook>}), pointed at the server under test, and the
 * HTTP exchange Metacontroller makes with it (contract section 3): POST with {@code Content-Type:
 * application/json} and a fixed length, only 200 counts as success, 429 means "retry after", the answer is
 * decoded case-sensitively and, in strict mode, with no unknown fields.
 */
record Webhook(String hook, HookVersion version, URI url, Duration timeout, boolean strict) {
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  private static final ObjectMapper STRICT = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  private static final Pattern DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

  /** The shape of an answer, which decides the fields that may appear in it. */
  enum Answer {
    COMPOSITE(Map.of("status", "object", "children", "objects", "resyncAfterSeconds", "number",
        "finalized", "boolean")),
    DECORATOR(Map.of("labels", "strings", "annotations", "strings", "status", "object", "attachments", "objects",
        "resyncAfterSeconds", "number", "finalized", "boolean")),
    CUSTOMIZE(Map.of("relatedResources", "rules"));

    final Map<String, String> fields;

    Answer(Map<String, String> fields) {
      this.fields = fields;
    }
  }

  /** The outcome of a call: the decoded answer, or why the call failed. */
  record Result(int status, String body, ObjectNode answer, String error) {}

  /**
   * Reads {@code spec.hooks.<hook>} of a manifest, or null when the hook is absent or has no webhook (disabled).
   * The URL's scheme and host (or the service) are replaced by {@code baseUrl}; the path is kept.
   */
  static Webhook read(JsonNode hooks, String hook, URI baseUrl) {
    JsonNode spec = hooks.path(hook);
    JsonNode webhook = spec.path("webhook");
    if (!webhook.isObject()) {
      return null;
    }
    String version = spec.path("version").asText("v1");
    HookVersion hookVersion = switch (version.isEmpty() ? "v1" : version) {
      case "v1" -> HookVersion.V1;
      case "v2" -> HookVersion.V2;
      default -> throw new IllegalArgumentException("hooks." + hook + ".version: unknown \"" + version + "\"");
    };
    String path;
    if (webhook.hasNonNull("url")) {
      URI original = URI.create(webhook.get("url").asText());
      path = original.getRawPath() + (original.getRawQuery() == null ? "" : "?" + original.getRawQuery());
    } else if (webhook.hasNonNull("service") && webhook.hasNonNull("path")) {
      path = webhook.get("path").asText();
    } else {
      throw new IllegalArgumentException("hooks." + hook + ".webhook needs url, or service and path");
    }
    String base = baseUrl.toString().replaceAll("/+$", "");
    Duration timeout = duration(webhook.path("timeout").asText(""));
    String mode = webhook.path("responseUnMarshallMode").asText("");
    boolean strict = mode.isEmpty() ? hookVersion == HookVersion.V2 : mode.equals("strict");
    return new Webhook(hook, hookVersion, URI.create(base + path), timeout, strict);
  }

  /** A Go duration such as {@code 10s}, {@code 1m30s} or {@code 500ms}; empty or not positive means 10 s. */
  static Duration duration(String text) {
    if (text.isEmpty()) {
      return DEFAULT_TIMEOUT;
    }
    Matcher matcher = DURATION_PART.matcher(text);
    double nanos = 0;
    int end = 0;
    while (matcher.find() && matcher.start() == end) {
      double value = Double.parseDouble(matcher.group(1));
      nanos += value * switch (matcher.group(2)) {
        case "ns" -> 1;
        case "us", "µs" -> 1e3;
        case "ms" -> 1e6;
        case "s" -> 1e9;
        case "m" -> 60e9;
        default -> 3600e9;
      };
      end = matcher.end();
    }
    if (end != text.length()) {
      throw new IllegalArgumentException("timeout \"" + text + "\" is not a Go duration");
    }
    return nanos <= 0 ? DEFAULT_TIMEOUT : Duration.ofNanos((long) nanos);
  }

  /** Posts the request and decodes the answer; never throws for what the server does. */
  Result call(ObjectNode request, Answer shape) {
    byte[] body = Trees.compact(request).getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> response;
    try {
      response = HTTP.send(HttpRequest.newBuilder(url).timeout(timeout)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (HttpTimeoutException e) {
      return new Result(0, "", null, "http error: timeout after " + timeout);
    } catch (IOException e) {
      return new Result(0, "", null, "http error: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(0, "", null, "http error: interrupted");
    }
    int status = response.statusCode();
    String text = response.body();
    if (status == 429) {
      String after = response.headers().firstValue("Retry-After").orElse("");
      return new Result(status, text, null, "too many requests: requeued after " + retryAfterSeconds(after) + " s");
    }
    if (status != 200) {
      return new Result(status, text, null, "unsupported status code: " + status + " body: " + text);
    }
    try {
      return new Result(status, text, decode(text, shape), null);
    } catch (IllegalArgumentException e) {
      return new Result(status, text, null, e.getMessage());
    }
  }

  private static long retryAfterSeconds(String header) {
    try {
      return Math.max(0, Long.parseLong(header.trim()));
    } catch (NumberFormatException e) {
      return 0; // a date or nothing: the emulator does not keep wall-clock time
    }
  }

  /** Decodes an answer as Metacontroller does: type errors always fail, unknown fields only in strict mode. */
  ObjectNode decode(String text, Answer shape) {
    JsonNode answer;
    try {
      answer = (strict ? STRICT : Trees.MAPPER).readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("invalid JSON in the answer: " + e.getOriginalMessage());
    }
    if (answer == null || answer.isNull() || answer.isMissingNode()) {
      return Trees.object();
    }
    if (!answer.isObject()) {
      throw new IllegalArgumentException("json: cannot unmarshal " + answer.getNodeType().name().toLowerCase()
          + " into the " + shape.name().toLowerCase() + " response");
    }
    for (String field : Trees.fieldNames(answer)) {
      String type = shape.fields.get(field);
      if (type == null) {
        if (strict) {
          throw new IllegalArgumentException("unknown field \"" + field + "\" in the " + hook + " answer (strict)");
        }
        continue;
      }
      checkType(field, answer.get(field), type);
    }
    return Trees.normalizeObject(answer);
  }

  private void checkType(String field, JsonNode value, String type) {
    if (value.isNull()) {
      return;
    }
    boolean fits = switch (type) {
      case "object" -> value.isObject();
      case "number" -> value.isNumber();
      case "boolean" -> value.isBoolean();
      case "strings" -> value.isObject() && allStringsOrNull(value);
      case "objects" -> value.isArray() && allObjects(field, value);
      case "rules" -> value.isArray() && allRules(value);
      default -> throw new IllegalStateException(type);
    };
    if (!fits) {
      throw new IllegalArgumentException("json: cannot unmarshal " + value.getNodeType().name().toLowerCase()
          + " into field \"" + field + "\" of type " + type);
    }
  }

  private static boolean allStringsOrNull(JsonNode map) {
    for (JsonNode value : map) {
      if (!value.isTextual() && !value.isNull()) {
        return false;
      }
    }
    return true;
  }

  private static boolean allObjects(String field, JsonNode list) {
    for (int i = 0; i < list.size(); i++) {
      JsonNode item = list.get(i);
      if (!item.isObject()) {
        return false;
      }
      if (!item.path("kind").isTextual() || item.path("kind").asText().isEmpty()) {
        throw new IllegalArgumentException(field + "[" + i + "]: Object 'Kind' is missing in " + item);
      }
      if (!item.path("apiVersion").isTextual() || item.path("apiVersion").asText().isEmpty()) {
        throw new IllegalArgumentException(field + "[" + i + "]: Object 'apiVersion' is missing in " + item);
      }
    }
    return true;
  }

  private static final Set<String> RULE_FIELDS = Set.of("apiVersion", "resource", "labelSelector",
      "namespaceSelector", "namespace", "names");
  private static final Set<String> SELECTOR_FIELDS = Set.of("matchLabels", "matchExpressions");

  private boolean allRules(JsonNode rules) {
    for (JsonNode rule : rules) {
      if (!rule.isObject()) {
        return false;
      }
      for (String field : Trees.fieldNames(rule)) {
        if (!RULE_FIELDS.contains(field)) {
          if (strict) {
            throw new IllegalArgumentException("unknown field \"" + field + "\" in relatedResources (strict)");
          }
          continue;
        }
        JsonNode value = rule.get(field);
        if (value.isNull()) {
          continue;
        }
        boolean fits = switch (field) {
          case "apiVersion", "resource", "namespace" -> value.isTextual();
          case "names" -> value.isArray() && allText(value);
          default -> value.isObject() && selectorFits(value);
        };
        if (!fits) {
          throw new IllegalArgumentException("json: cannot unmarshal " + value + " into relatedResources[]." + field);
        }
      }
    }
    return true;
  }

  private boolean selectorFits(JsonNode selector) {
    for (String field : Trees.fieldNames(selector)) {
      if (!SELECTOR_FIELDS.contains(field)) {
        if (strict) {
          throw new IllegalArgumentException("unknown field \"" + field + "\" in a related rule selector (strict)");
        }
        ((ObjectNode) selector).remove(field); // loose: ignored, as Go drops unknown fields
      }
    }
    JsonNode labels = selector.path("matchLabels");
    JsonNode expressions = selector.path("matchExpressions");
    return (labels.isMissingNode() || labels.isNull() || (labels.isObject() && allText(labels)))
        && (expressions.isMissingNode() || expressions.isNull() || expressions.isArray());
  }

  private static boolean allText(JsonNode values) {
    for (JsonNode value : values) {
      if (!value.isTextual()) {
        return false;
      }
    }
    return true;
  }
}
