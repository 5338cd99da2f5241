package dev.metahooks.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps Secret data out of logs. Hook requests and responses carry Secrets whole (children, related objects,
 * generated credentials); anything about a request that is logged goes through here first.
 *
 * <p>A Secret's values are in {@code data} and {@code stringData}, and again in the last-applied annotations that
 * Metacontroller and {@code kubectl apply} write onto it (the whole object as JSON, an old password included). A
 * Secret is an object of {@code kind: Secret}, or any object of a {@code Secret.v1} group of an object map, which
 * names the kind even when the object does not.
 */
public final class Redaction {
  static final String REDACTED = "<redacted>";

  /** What a redaction leaves in a Secret's {@code data} when it must stay valid base64: "&lt;redacted&gt;" encoded. */
  public static final String REDACTED_BASE64 =
      Base64.getEncoder().encodeToString(REDACTED.getBytes(StandardCharsets.UTF_8));

  private static final Logger LOG = LoggerFactory.getLogger(Redaction.class);
  private static final int SHORTEST_SECRET = 4;
  private static final List<String> VALUE_FIELDS = List.of("data", "stringData");
  private static final List<String> LAST_APPLIED =
      List.of(
          "metacontroller.k8s.io/last-applied-configuration",
          "kubectl.kubernetes.io/last-applied-configuration");

  private Redaction() {}

  /** What takes the place of one Secret value: {@code field} is data, stringData or an annotation's name. */
  interface Replacement {
    String of(String field, String value);

    /** The mask; a Secret's {@code data} keeps valid base64 when {@code keepBase64}. */
    static Replacement mask(boolean keepBase64) {
      return (field, value) -> keepBase64 && field.equals("data") ? REDACTED_BASE64 : REDACTED;
    }

    /** The value sealed under the operator's key: a recording that replays exactly and holds no value in clear. */
    static Replacement sealed(RecordingKey key) {
      return (field, value) -> key.seal(value);
    }
  }

  /** A copy of {@code body} in which every Secret's values and last-applied annotations are replaced. */
  public static JsonNode redactSecrets(JsonNode body) {
    return redact(body, Replacement.mask(false));
  }

  /**
   * The same redaction, but a Secret stays a Secret Kubernetes would accept: its {@code data} values are the
   * base64 of the mask, so that a recorded request replays through the hooks that read them.
   */
  public static JsonNode redactSecretsReplayable(JsonNode body) {
    return redact(body, Replacement.mask(true));
  }

  /**
   * {@link #redact(JsonNode, Replacement)} of one object of an object map's {@code group}: in a {@code Secret.v1}
   * group it is a Secret even when it does not say so.
   */
  static JsonNode redact(JsonNode object, String group, Replacement replacement) {
    ObjectNode map = Json.object();
    map.putObject(group).set("object", object);
    return redact(map, replacement).path(group).path("object");
  }

  /** A copy of {@code body} with every Secret value and last-applied annotation replaced as {@code replacement} says. */
  static JsonNode redact(JsonNode body, Replacement replacement) {
    JsonNode copy = body.deepCopy();
    int[] replaced = {0};
    forEachSecret(
        copy,
        secret -> {
          for (String field : VALUE_FIELDS) {
            if (secret.get(field) instanceof ObjectNode values) {
              List<String> names = new ArrayList<>();
              values.fieldNames().forEachRemaining(names::add);
              for (String name : names) {
                values.put(name, replacement.of(field, values.get(name).asText()));
                replaced[0]++;
              }
            }
          }
          if (secret.path("metadata").get("annotations") instanceof ObjectNode annotations) {
            for (String annotation : LAST_APPLIED) {
              if (annotations.has(annotation)) {
                annotations.put(
                    annotation, replacement.of(annotation, annotations.get(annotation).asText()));
                replaced[0]++;
              }
            }
          }
        });
    if (replaced[0] > 0) {
      LOG.atDebug().addKeyValue("values", replaced[0]).log("Secret values redacted");
    }
    return copy;
  }

  /**
   * Every Secret value in {@code body}, as sent and base64-decoded, to mask wherever it could reappear; the values
   * inside last-applied annotations too (an annotation that does not parse is masked whole).
   */
  public static Set<String> secretValues(JsonNode body) {
    Set<String> found = new HashSet<>();
    forEachSecret(
        body,
        secret -> {
          addValues(secret, found);
          JsonNode annotations = secret.path("metadata").path("annotations");
          for (String annotation : LAST_APPLIED) {
            String applied = annotations.path(annotation).textValue();
            if (applied != null) {
              Optional<JsonNode> parsed = parse(applied);
              parsed.ifPresent(object -> addValues(object, found));
              if (parsed.isEmpty() && applied.length() >= SHORTEST_SECRET) {
                found.add(applied);
              }
            }
          }
        });
    return found;
  }

  /** {@code text} with every occurrence of any of {@code secrets} replaced. */
  public static String mask(String text, Set<String> secrets) {
    if (text == null) {
      return null;
    }
    String masked = text;
    for (String secret : secrets) {
      masked = masked.replace(secret, REDACTED);
    }
    return masked;
  }

  private interface SecretVisitor {
    void visit(ObjectNode secret);
  }

  private static void addValues(JsonNode secret, Set<String> found) {
    for (String field : VALUE_FIELDS) {
      secret
          .path(field)
          .elements()
          .forEachRemaining(
              value -> {
                String text = value.asText();
                if (text.length() >= SHORTEST_SECRET) {
                  found.add(text);
                  decoded(text).ifPresent(found::add);
                }
              });
    }
  }

  private static void forEachSecret(JsonNode node, SecretVisitor visitor) {
    if (node instanceof ObjectNode object) {
      if ("Secret".equals(object.path("kind").asText())) {
        visitor.visit(object);
      }
      for (Map.Entry<String, JsonNode> field : object.properties()) {
        if (field.getKey().startsWith("Secret.") && field.getValue() instanceof ObjectNode group) {
          for (JsonNode secret : group) { // an object map's group of Secrets, keyed by name
            if (secret instanceof ObjectNode s && !"Secret".equals(s.path("kind").asText())) {
              visitor.visit(s);
            }
          }
        }
        forEachSecret(field.getValue(), visitor);
      }
    } else if (node.isArray()) {
      node.elements().forEachRemaining(child -> forEachSecret(child, visitor));
    }
  }

  private static Optional<JsonNode> parse(String json) {
    try {
      JsonNode node = JsonTrees.MAPPER.readTree(json);
      return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> decoded(String base64) {
    try {
      String text = new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
      return text.length() >= SHORTEST_SECRET ? Optional.of(text) : Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
