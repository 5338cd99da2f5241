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
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * One hook of a controller manifest ({@code spec.hooks.<hook>}), pointed at the server under test, and the
 * HTTP exchange Metacontroller makes with it (docs/metacontroller.md, section 3): POST with {@code Content-Type:
 * application/json} and a fixed length, only 200 counts as success, 429 means "retry after", the answer is
 * decoded case-sensitively and, in strict mode, with no unknown fields.
 */
record Webhook(
    String hook,
    HookVersion version,
    URI url,
    Duration timeout,
    boolean strict,
    ETags etags,
    String authorization,
    HttpClient client) {
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private static final ObjectMapper STRICT =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  private static final Pattern DURATION_PART =
      Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

  Webhook(String hook, HookVersion version, URI url, Duration timeout, boolean strict) {
    this(hook, version, url, timeout, strict, null, null, HTTP);
  }

  /** The same hook sending this {@code Authorization} header and using this TLS context (each null for none). */
  Webhook withEndpoint(String header, SSLContext tls) {
    HttpClient http =
        tls == null
            ? client
            : HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(tls)
                .build();
    return new Webhook(hook, version, url, timeout, strict, etags, header, http);
  }

  /** The shape of an answer, which decides the fields that may appear in it. */
  enum Answer {
    COMPOSITE(
        Map.of(
            "status",
            "object",
            "children",
            "objects",
            "resyncAfterSeconds",
            "number",
            "finalized",
            "boolean")),
    DECORATOR(
        Map.of(
            "labels",
            "strings",
            "annotations",
            "strings",
            "status",
            "object",
            "attachments",
            "objects",
            "resyncAfterSeconds",
            "number",
            "finalized",
            "boolean")),
    CUSTOMIZE(Map.of("relatedResources", "rules"));

    final Map<String, String> fields;

    Answer(Map<String, String> fields) {
      this.fields = fields;
    }
  }

  /**
   * The outcome of a call: the decoded answer, or why the call failed; {@code retryAfterSeconds} is set (not
   * negative) when the server answered 429, which Metacontroller takes as "requeue after", not as an error.
   */
  record Result(int status, String body, ObjectNode answer, String error, long retryAfterSeconds) {
    Result(int status, String body, ObjectNode answer, String error) {
      this(status, body, answer, error, -1);
    }

    static Result requeue(String body, long afterSeconds) {
      return new Result(
          429,
          body,
          null,
          "too many requests: requeued after " + afterSeconds + " s",
          afterSeconds);
    }

    boolean requeued() {
      return retryAfterSeconds >= 0;
    }
  }

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
    HookVersion hookVersion =
        switch (version.isEmpty() ? "v1" : version) {
          case "v1" -> HookVersion.V1;
          case "v2" -> HookVersion.V2;
          default ->
              throw new IllegalArgumentException(
                  "hooks." + hook + ".version: unknown \"" + version + "\"");
        };
    String path;
    if (webhook.hasNonNull("url")) {
      URI original = URI.create(webhook.get("url").asText());
      path =
          original.getRawPath()
              + (original.getRawQuery() == null ? "" : "?" + original.getRawQuery());
    } else if (webhook.hasNonNull("service") && webhook.hasNonNull("path")) {
      path = webhook.get("path").asText();
    } else {
      throw new IllegalArgumentException(
          "hooks." + hook + ".webhook needs url, or service and path");
    }
    String base = baseUrl.toString().replaceAll("/+$", "");
    Duration timeout = duration(webhook.path("timeout").asText(""));
    String mode = webhook.path("responseUnMarshallMode").asText("");
    boolean strict = mode.isEmpty() ? hookVersion == HookVersion.V2 : mode.equals("strict");
    ETags etags = webhook.path("etag").path("enabled").asBoolean(false) ? new ETags() : null;
    return new Webhook(
        hook, hookVersion, URI.create(base + path), timeout, strict, etags, null, HTTP);
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
      nanos +=
          value
              * switch (matcher.group(2)) {
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
    return call(request, shape, Profile.configured());
  }

  Result call(ObjectNode request, Answer shape, Profile profile) {
    return callConcurrently(List.of(request), shape, profile).get(0);
  }

  /**
   * Calls that Metacontroller makes at once (one per parent revision, composite/controller_revision.go:153-173),
   * results in the order of the requests. Every request reads the ETag cache when it is sent; with v4.17.2 a
   * 304 or 412 reads it again when it is handled (webhook_etag.go:50-81), and the emulator handles the 200s
   * first, the interleaving in which a 304 gets the body another revision just stored. Intended: a 304 gets
   * the body of the ETag it was sent with.
   */
  List<Result> callConcurrently(List<ObjectNode> requests, Answer shape, Profile profile) {
    List<Exchange> exchanges = new ArrayList<>();
    for (ObjectNode request : requests) {
      String key = etags == null ? null : ETags.key(request);
      ETags.Entry atSend = key == null ? null : etags.get(key);
      exchanges.add(send(request, key, atSend));
    }
    Result[] results = new Result[exchanges.size()];
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < exchanges.size(); i++) {
      order.add(i);
    }
    if (profile.faithful()) {
      order.sort(Comparator.comparing(i -> exchanges.get(i).status() == 200 ? 0 : 1));
    }
    for (int i : order) {
      results[i] = handle(exchanges.get(i), shape, profile);
    }
    return List.of(results);
  }

  /** One request sent: its answer (or transport error) and the ETag entry it carried in If-None-Match. */
  private record Exchange(
      String key,
      ETags.Entry atSend,
      int status,
      String body,
      String etag,
      String retryAfter,
      String transportError) {}

  private Exchange send(ObjectNode request, String key, ETags.Entry atSend) {
    byte[] body = Trees.compact(request).getBytes(StandardCharsets.UTF_8);
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(url)
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (authorization != null) {
      builder.header("Authorization", authorization);
    }
    if (atSend != null) {
      builder.header("If-None-Match", atSend.etag());
    }
    try {
      HttpResponse<String> response =
          client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
      return new Exchange(
          key,
          atSend,
          response.statusCode(),
          response.body(),
          response.headers().firstValue("ETag").orElse(""),
          response.headers().firstValue("Retry-After").orElse(""),
          null);
    } catch (HttpTimeoutException e) {
      return new Exchange(key, atSend, 0, "", "", "", "http error: timeout after " + timeout);
    } catch (IOException e) {
      return new Exchange(key, atSend, 0, "", "", "", "http error: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Exchange(key, atSend, 0, "", "", "", "http error: interrupted");
    }
  }

  /** Status check, ETag substitution and decoding, in webhook.go Call's order (lines 212-265). */
  private Result handle(Exchange exchange, Answer shape, Profile profile) {
    if (exchange.transportError() != null) {
      return new Result(0, "", null, exchange.transportError());
    }
    int status = exchange.status();
    String text = exchange.body();
    if (status == 429) {
      return Result.requeue(text, retryAfterSeconds(exchange.retryAfter()));
    }
    boolean conditional = exchange.atSend() != null;
    boolean notModified = status == 304 || status == 412;
    if (!(status == 200 || (etags != null && conditional && notModified))) {
      return new Result(
          status, text, null, "unsupported status code: " + status + " body: " + text);
    }
    if (notModified) {
      ETags.Entry entry = profile.faithful() ? etags.get(exchange.key()) : exchange.atSend();
      if (entry == null) {
        return new Result(
            status, text, null, "cannot find cached response for cache key: " + exchange.key());
      }
      text = entry.body();
    } else if (etags != null && !exchange.etag().isEmpty()) {
      etags.put(exchange.key(), new ETags.Entry(exchange.etag(), text));
    }
    if (text.isBlank() && profile.faithful()) {
      // sigs.k8s.io/json.UnmarshalStrict of an empty body (webhook.go:250)
      return new Result(
          status,
          text,
          null,
          "can't unmarshal webhookResponse (version: "
              + version.name().toLowerCase()
              + ", type: "
              + hook
              + "): unexpected end of JSON input");
    }
    try {
      return new Result(status, text, decode(text, shape), null);
    } catch (IllegalArgumentException e) {
      return new Result(status, text, null, e.getMessage());
    }
  }

  /** Retry-After as an RFC 1123 date (ceil of the delay from now) or integer seconds; 0 otherwise (webhook.go:218-228). */
  private static long retryAfterSeconds(String header) {
    try {
      Instant at =
          ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      return Math.max(0, (long) Math.ceil(Duration.between(Instant.now(), at).toMillis() / 1000.0));
    } catch (DateTimeParseException e) {
      try {
        return Math.max(0, Long.parseLong(header.trim()));
      } catch (NumberFormatException notNumber) {
        return 0;
      }
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
      throw new IllegalArgumentException(
          "json: cannot unmarshal "
              + answer.getNodeType().name().toLowerCase()
              + " into the "
              + shape.name().toLowerCase()
              + " response");
    }
    for (String field : Trees.fieldNames(answer)) {
      String type = shape.fields.get(field);
      if (type == null) {
        if (strict) {
          throw new IllegalArgumentException(
              "unknown field \"" + field + "\" in the " + hook + " answer (strict)");
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
    boolean fits =
        switch (type) {
          case "object" -> value.isObject();
          case "number" -> value.isNumber();
          case "boolean" -> value.isBoolean();
          case "strings" -> value.isObject() && allStringsOrNull(value);
          case "objects" -> value.isArray() && allObjects(field, value);
          case "rules" -> value.isArray() && allRules(value);
          default -> throw new IllegalStateException(type);
        };
    if (!fits) {
      throw new IllegalArgumentException(
          "json: cannot unmarshal "
              + value.getNodeType().name().toLowerCase()
              + " into field \""
              + field
              + "\" of type "
              + type);
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
      if (item.isNull()) {
        continue; // decodes to a nil *Unstructured; the controller loop meets it
        // (MetacontrollerCrash)
      }
      if (!item.isObject()) {
        return false;
      }
      if (!item.path("kind").isTextual() || item.path("kind").asText().isEmpty()) {
        throw new IllegalArgumentException(
            field + "[" + i + "]: Object 'Kind' is missing in " + item);
      }
      if (!item.path("apiVersion").isTextual() || item.path("apiVersion").asText().isEmpty()) {
        throw new IllegalArgumentException(
            field + "[" + i + "]: Object 'apiVersion' is missing in " + item);
      }
    }
    return true;
  }

  private static final Set<String> RULE_FIELDS =
      Set.of("apiVersion", "resource", "labelSelector", "namespaceSelector", "namespace", "names");
  private static final Set<String> SELECTOR_FIELDS = Set.of("matchLabels", "matchExpressions");

  private boolean allRules(JsonNode rules) {
    for (JsonNode rule : rules) {
      if (!rule.isObject()) {
        return false;
      }
      for (String field : Trees.fieldNames(rule)) {
        if (!RULE_FIELDS.contains(field)) {
          if (strict) {
            throw new IllegalArgumentException(
                "unknown field \"" + field + "\" in relatedResources (strict)");
          }
          continue;
        }
        JsonNode value = rule.get(field);
        if (value.isNull()) {
          continue;
        }
        boolean fits =
            switch (field) {
              case "apiVersion", "resource", "namespace" -> value.isTextual();
              case "names" -> value.isArray() && allText(value);
              default -> value.isObject() && selectorFits(value);
            };
        if (!fits) {
          throw new IllegalArgumentException(
              "json: cannot unmarshal " + value + " into relatedResources[]." + field);
        }
      }
    }
    return true;
  }

  private boolean selectorFits(JsonNode selector) {
    for (String field : Trees.fieldNames(selector)) {
      if (!SELECTOR_FIELDS.contains(field)) {
        if (strict) {
          throw new IllegalArgumentException(
              "unknown field \"" + field + "\" in a related rule selector (strict)");
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
