package dev.metahooks.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import org.junit.jupiter.api.Test;

class RedactionTest {
  private static final String REQUEST =
      """
      {"parent": {"kind": "PostgresCluster", "metadata": {"name": "db"}},
       "children": {"Secret.v1": {"db-app": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db-app"},
         "data": {"password": "aHVudGVyMi1odW50ZXIy", "username": "YXBw"},
         "stringData": {"uri": "postgresql://app:hunter2-hunter2@db-rw:5432/app"}}},
        "ConfigMap.v1": {"cm": {"kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {"password": "not-a-secret"}}}}}
      """;

  @Test
  void secretValuesAreReplacedAndOtherObjectsKept() throws Exception {
    JsonNode redacted = Redaction.redactSecrets(JsonTrees.MAPPER.readTree(REQUEST));
    JsonNode secret = redacted.path("children").path("Secret.v1").path("db-app");
    assertThat(secret.path("data").path("password").asText()).isEqualTo("<redacted>");
    assertThat(secret.path("data").path("username").asText()).isEqualTo("<redacted>");
    assertThat(secret.path("stringData").path("uri").asText()).isEqualTo("<redacted>");
    assertThat(secret.path("metadata").path("name").asText()).isEqualTo("db-app");
    assertThat(
            redacted
                .path("children")
                .path("ConfigMap.v1")
                .path("cm")
                .path("data")
                .path("password")
                .asText())
        .isEqualTo("not-a-secret");
  }

  @Test
  void secretValuesAreMaskedInFreeTextTooEncodedOrDecoded() throws Exception {
    var secrets = Redaction.secretValues(JsonTrees.MAPPER.readTree(REQUEST));
    String message =
        "failed near aHVudGVyMi1odW50ZXIy and hunter2-hunter2 and postgresql://app:hunter2-hunter2@db-rw";
    assertThat(Redaction.mask(message, secrets))
        .doesNotContain("aHVudGVyMi1odW50ZXIy", "hunter2-hunter2")
        .contains("<redacted>");
    // Values shorter than four characters are left alone: masking them would garble every message.
    assertThat(Redaction.mask("app", secrets)).isEqualTo("app");
  }

  private static final String LAST_APPLIED =
      """
      {"children": {"Secret.v1": {
        "db-superuser": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db-superuser", "annotations": {
          "metacontroller.k8s.io/last-applied-configuration":
            "{\\"apiVersion\\":\\"v1\\",\\"data\\":{\\"password\\":\\"b2xkLXN1cGVyLXBhc3N3b3Jk\\"},\\"kind\\":\\"Secret\\"}",
          "kubectl.kubernetes.io/last-applied-configuration": "{\\"stringData\\":{\\"token\\":\\"kubectl-applied-token\\"}}",
          "note": "kept"}},
          "data": {"password": "bmV3LXN1cGVyLXBhc3N3b3Jk"}},
        "no-kind": {"metadata": {"name": "no-kind"}, "data": {"key": "c2VudC13aXRob3V0LWtpbmQ="}}}}}
      """;

  @Test
  void lastAppliedAnnotationsOfSecretsAreRedactedToo() throws Exception {
    JsonNode redacted = Redaction.redactSecrets(JsonTrees.MAPPER.readTree(LAST_APPLIED));
    JsonNode secret = redacted.at("/children/Secret.v1/db-superuser");
    assertThat(
            secret
                .at("/metadata/annotations/metacontroller.k8s.io~1last-applied-configuration")
                .asText())
        .isEqualTo("<redacted>");
    assertThat(
            secret
                .at("/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration")
                .asText())
        .isEqualTo("<redacted>");
    assertThat(secret.at("/metadata/annotations/note").asText()).isEqualTo("kept");
    assertThat(redacted.at("/children/Secret.v1/no-kind/data/key").asText())
        .as("an object of a Secret group is a Secret, kind or not")
        .isEqualTo("<redacted>");
    assertThat(redacted.toString())
        .doesNotContain(
            "b2xkLXN1cGVyLXBhc3N3b3Jk",
            "kubectl-applied-token",
            "bmV3LXN1cGVyLXBhc3N3b3Jk",
            "c2VudC13aXRob3V0LWtpbmQ=");
  }

  @Test
  void valuesInsideLastAppliedAnnotationsAreMaskedInFreeText() throws Exception {
    var secrets = Redaction.secretValues(JsonTrees.MAPPER.readTree(LAST_APPLIED));
    // The annotation may hold the password before a rotation: neither it nor its decoded form may
    // be logged.
    String message =
        "old old-super-password b2xkLXN1cGVyLXBhc3N3b3Jk new new-super-password kubectl-applied-token"
            + " sent-without-kind";
    assertThat(Redaction.mask(message, secrets))
        .doesNotContain(
            "old-super-password",
            "b2xkLXN1cGVyLXBhc3N3b3Jk",
            "new-super-password",
            "kubectl-applied-token",
            "sent-without-kind");
  }
}
