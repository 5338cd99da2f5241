package dev.metahooks.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@code metahooks diff} prints of a change that holds a Secret value, from every field that can hold one:
 * never the value, whole or in part, however long the line it is in.
 */
class DiffReportSecretsTest {
  /** Letters that occur in no other text of these reports, so that any eight of them in a row are the password's. */
  private static final String PASSWORD = "Qz7XwV2kJm9RtY4pLc8NbH3sGf6DdK5e";

  private static final String OLD_PASSWORD = "Wj4PqT8vZx2MnB6cRy9LkH3gFs7DdV5a";
  private static final String KUBECTL_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  @Test
  void aSecretValueInsideALongValueIsMaskedBeforeTheValueIsCut() {
    // The ConfigMap carries the Secret's password 90 characters into a longer value: a cut at about
    // 100 characters
    // keeps its first letters, which no longer match the whole password.
    String prefix = "x".repeat(90);
    ObjectNode before =
        configMap("settings", Json.object().put("dsn", prefix + OLD_PASSWORD + " sslmode=require"));
    ObjectNode after =
        configMap("settings", Json.object().put("dsn", prefix + PASSWORD + " sslmode=require"));
    String printed =
        report(
            List.of(secret("orders-superuser", OLD_PASSWORD), before),
            List.of(secret("orders-superuser", PASSWORD), after));

    assertThat(printed).contains("~ ConfigMap shop/settings", "data.dsn:");
    assertNoPartOf(printed, PASSWORD, OLD_PASSWORD);
  }

  @Test
  void aSecretsCutLastAppliedAnnotationIsNeverShown() {
    ObjectNode before = secret("orders-superuser", OLD_PASSWORD);
    String whole = applied("orders-superuser", OLD_PASSWORD);
    // As a recording without a key may hold it: cut, no longer JSON, the password's first letters
    // in it.
    annotate(
        before, KUBECTL_APPLIED, whole.substring(0, whole.indexOf(encoded(OLD_PASSWORD)) + 19));
    ObjectNode after = secret("orders-superuser", PASSWORD);
    annotate(after, KUBECTL_APPLIED, after.toString());

    String printed = report(List.of(before), List.of(after));
    assertThat(printed)
        .contains(
            "~ Secret shop/orders-superuser",
            "metadata.annotations." + KUBECTL_APPLIED + ": changed (<redacted>)");
    assertNoPartOf(printed, PASSWORD, OLD_PASSWORD);
  }

  @Test
  void anyAnnotationOfASecretIsMasked() {
    ObjectNode before = secret("orders-superuser", PASSWORD);
    annotate(before, "example.com/snapshot", secret("orders-superuser", OLD_PASSWORD).toString());
    ObjectNode after = secret("orders-superuser", PASSWORD);
    annotate(after, "example.com/snapshot", secret("orders-superuser", PASSWORD).toString());

    String printed = report(List.of(before), List.of(after));
    assertThat(printed).contains("~ Secret shop/orders-superuser", "(<redacted>)");
    assertNoPartOf(printed, PASSWORD, OLD_PASSWORD);
  }

  @Test
  void anAnnotationOfAnyObjectHoldingASecretsJsonIsMasked() {
    ObjectNode before = configMap("settings", Json.object().put("a", "1"));
    annotate(before, KUBECTL_APPLIED, secret("orders-superuser", OLD_PASSWORD).toString());
    ObjectNode after = configMap("settings", Json.object().put("a", "1"));
    annotate(after, KUBECTL_APPLIED, secret("orders-superuser", PASSWORD).toString());

    String printed = report(List.of(before), List.of(after));
    assertThat(printed).contains("~ ConfigMap shop/settings", "(<redacted>)");
    assertNoPartOf(printed, PASSWORD, OLD_PASSWORD);
  }

  @Test
  void anAnnotationOfAnyObjectHoldingACutSecretsJsonIsMasked() {
    String whole = applied("orders-superuser", OLD_PASSWORD);
    ObjectNode before = configMap("settings", Json.object().put("a", "1"));
    annotate(
        before,
        "example.com/copied-from",
        whole.substring(0, whole.indexOf(encoded(OLD_PASSWORD)) + 19));
    ObjectNode after = configMap("settings", Json.object().put("a", "1"));
    annotate(after, "example.com/copied-from", "{}");

    String printed = report(List.of(before), List.of(after));
    assertThat(printed).contains("~ ConfigMap shop/settings", "(<redacted>)");
    assertNoPartOf(printed, PASSWORD, OLD_PASSWORD);
  }

  @Test
  void aLongChangeWithoutSecretsIsStillShown() {
    ObjectNode before = configMap("settings", Json.object().put("motd", "a".repeat(150)));
    ObjectNode after = configMap("settings", Json.object().put("motd", "b".repeat(150)));
    assertThat(report(List.of(before), List.of(after))).contains("data.motd: \"aaaa", "→ \"bbbb");
  }

  /** What the report prints for one recorded answer {@code before} against the new answer {@code after}. */
  private static String report(List<ObjectNode> before, List<ObjectNode> after) {
    ObjectNode request = Json.object();
    request
        .putObject("parent")
        .put("apiVersion", "example.com/v1")
        .put("kind", "Thing")
        .putObject("metadata")
        .put("name", "orders")
        .put("namespace", "shop");
    ObjectNode recorded = Json.object();
    before.forEach(recorded.putArray("children")::add);
    ObjectNode answer = Json.object();
    after.forEach(answer.putArray("children")::add);
    DiffCase call =
        new DiffCase(
            "recording.json",
            "thing",
            "sync",
            request,
            recorded,
            false,
            Instant.parse("2026-01-01T00:00:00Z"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new DiffReport(new PrintStream(out, true, StandardCharsets.UTF_8))
        .print(List.of(ParentDiff.of(call, answer)));
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Neither password, nor its base64, shows in eight or more letters in a row. */
  private static void assertNoPartOf(String printed, String... passwords) {
    List<String> parts = new ArrayList<>();
    for (String password : passwords) {
      for (String text : List.of(password, encoded(password))) {
        for (int i = 0; i + 8 <= text.length(); i++) {
          parts.add(text.substring(i, i + 8));
        }
      }
    }
    assertThat(printed).doesNotContain(parts);
  }

  private static ObjectNode secret(String name, String password) {
    ObjectNode secret = Json.object().put("apiVersion", "v1").put("kind", "Secret");
    secret.putObject("metadata").put("name", name);
    secret.putObject("data").put("password", encoded(password));
    return secret;
  }

  /** A Secret as kubectl writes it into its last-applied annotation: keys sorted, so data before kind. */
  private static String applied(String name, String password) {
    ObjectNode secret = Json.object().put("apiVersion", "v1");
    secret.putObject("data").put("password", encoded(password));
    secret.put("kind", "Secret").putObject("metadata").put("name", name);
    return secret.toString();
  }

  private static ObjectNode configMap(String name, ObjectNode data) {
    ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    configMap.putObject("metadata").put("name", name);
    configMap.set("data", data);
    return configMap;
  }

  private static void annotate(ObjectNode object, String annotation, String value) {
    object.with("metadata").with("annotations").put(annotation, value);
  }

  private static String encoded(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
