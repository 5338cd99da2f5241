package dev.metahooks.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.TestServer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Names the API server would refuse are a 422 naming the field, over a real port, for every controller (the check is
 * in the dispatcher); names it accepts, however unusual, still get their 200.
 */
class ObjectNamesTest {
  private static final String HELLO = "fixtures/hello-world/sync/01-first-sync.request.json";
  private static final String CATSET = "fixtures/catset/sync/01-first-sync.request.json";

  /** The request body as text with {@code from} replaced by {@code to} (JSON escapes such as {@code \u0000} kept). */
  private static byte[] edited(String fixture, String from, String to) {
    String text = new String(Resources.bytes(Resources.path(fixture)), StandardCharsets.UTF_8);
    assertThat(text).contains(from);
    return text.replace(from, to).getBytes(StandardCharsets.UTF_8);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "a NUL in the parent's name | "
            + HELLO
            + " | \"name\": \"your-name\" | \"name\": \"your\\u0000name\""
            + " | parent.metadata.name",
        "a lone surrogate in the parent's name | "
            + HELLO
            + " | \"name\": \"your-name\" | \"name\": \"your\\ud800\""
            + " | parent.metadata.name",
        "a low surrogate alone | "
            + HELLO
            + " | \"name\": \"your-name\" | \"name\": \"\\udc00your\""
            + " | parent.metadata.name",
        "upper case in a custom resource's name | "
            + HELLO
            + " | \"name\": \"your-name\" | \"name\": \"Your-Name\""
            + " | parent.metadata.name",
        "a slash in the name | "
            + HELLO
            + " | \"name\": \"your-name\" | \"name\": \"your/name\""
            + " | parent.metadata.name",
        "an underscore in the namespace | "
            + HELLO
            + " | \"namespace\": \"hello\" | \"namespace\": \"hel_lo\""
            + " | parent.metadata.namespace",
      })
  void aParentNameTheApiServerRefusesIs422NamingTheField(
      String label, String fixture, String from, String to, String field) throws Exception {
    TestServer.Reply reply = TestServer.post("/hello-world/sync", edited(fixture, from, to));
    assertThat(reply.status()).as(reply.body()).isEqualTo(422);
    assertThat(reply.json().path("field").asText()).isEqualTo(field);
    assertThat(reply.json().path("message").asText()).contains("is not a");
  }

  @Test
  void aChildNamedAgainstItsKindsRuleIs422NamingTheChild() throws Exception {
    ObjectNode request = Resources.readObject(Resources.path(CATSET));
    ObjectNode pods = (ObjectNode) request.path("children").path("Pod.v1");
    ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
    pod.putObject("metadata")
        .put("name", "nginx_backend-0")
        .put("namespace", request.path("parent").path("metadata").path("namespace").asText());
    pods.set("nginx_backend-0", pod);
    TestServer.Reply reply =
        TestServer.post("/catset/sync", JsonTrees.MAPPER.writeValueAsBytes(request));
    assertThat(reply.status()).as(reply.body()).isEqualTo(422);
    assertThat(reply.json().path("field").asText())
        .isEqualTo("children['Pod.v1']['nginx_backend-0'].metadata.name");
  }

  @Test
  void theErrorItselfIsJsonWhateverTheName() throws Exception {
    TestServer.Reply reply =
        TestServer.post(
            "/hello-world/sync",
            edited(HELLO, "\"name\": \"your-name\"", "\"name\": \"a\\u0000\\ud800b\""));
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().path("message").asText()).contains("a\\u0000\\uD800b");
  }

  @Test
  void eachKindByItsOwnRule() {
    assertThat(ObjectNames.whyNot("system:controller:catset", "ClusterRole")).isNull();
    assertThat(ObjectNames.whyNot("system:controller:catset", "ConfigMap"))
        .contains("DNS-1123 subdomain");
    assertThat(ObjectNames.whyNot("a.b-c.d", "ConfigMap")).isNull();
    assertThat(ObjectNames.whyNot("a.b", "Service")).contains("DNS-1035");
    assertThat(ObjectNames.whyNot("0web", "Service")).contains("DNS-1035");
    assertThat(ObjectNames.whyNot("0web", "Pod")).isNull();
    assertThat(ObjectNames.whyNot("x".repeat(253), "Pod")).isNull();
    assertThat(ObjectNames.whyNot("x".repeat(254), "Pod")).isNotNull();
    assertThat(ObjectNames.whyNot("a".repeat(64), "Namespace")).isNotNull();
    assertThat(ObjectNames.whyNot("..", "ClusterRole")).isNotNull();
    assertThat(ObjectNames.whyNot("a\u0000b", "ClusterRole")).contains("U+0000");
    assertThat(ObjectNames.whyNot("caf\uD83D\uDE00", "ClusterRole"))
        .as("a whole pair is a character")
        .isNull();
  }

  /**
   * The character checks say what the regular expressions of Kubernetes' validation.go say
   * ({@code dns1123LabelFmt}, {@code dns1123SubdomainFmt}, {@code dns1035LabelFmt}), on every string of up to four
   * characters from an alphabet of the cases that matter, and on the lengths at the limits.
   */
  @Test
  void theCharacterChecksAgreeWithKubernetesRegularExpressions() {
    java.util.regex.Pattern label =
        java.util.regex.Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    java.util.regex.Pattern label1035 =
        java.util.regex.Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    java.util.regex.Pattern subdomain =
        java.util.regex.Pattern.compile(
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    java.util.List<String> strings =
        new java.util.ArrayList<>(
            java.util.List.of(
                "",
                "a".repeat(63),
                "a".repeat(64),
                "a".repeat(253),
                "a".repeat(254),
                "a.".repeat(126) + "a"));
    String alphabet = "a0-.A_";
    java.util.List<String> level = java.util.List.of("");
    for (int length = 1; length <= 4; length++) {
      java.util.List<String> next = new java.util.ArrayList<>();
      for (String prefix : level) {
        for (char c : alphabet.toCharArray()) {
          next.add(prefix + c);
        }
      }
      strings.addAll(next);
      level = next;
    }
    for (String s : strings) {
      assertThat(ObjectNames.isLabel(s, false))
          .as("label '%s'", s)
          .isEqualTo(s.length() <= 63 && label.matcher(s).matches());
      assertThat(ObjectNames.isLabel(s, true))
          .as("DNS-1035 label '%s'", s)
          .isEqualTo(s.length() <= 63 && label1035.matcher(s).matches());
      assertThat(ObjectNames.isSubdomain(s))
          .as("subdomain '%s'", s)
          .isEqualTo(s.length() <= 253 && subdomain.matcher(s).matches());
    }
  }
}
