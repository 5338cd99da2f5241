package dev.metahooks.controllers.postgres.base;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/** The values of a Secret as the API server holds them: base64 in {@code data}. */
public final class SecretData {
  /** The key of a password. */
  public static final String PASSWORD = "password";

  /** The key of a password's SCRAM-SHA-256 verifier, where a Secret holds one. */
  public static final String VERIFIER = "verifier";

  private SecretData() {}

  /** A key of a Secret's {@code data}, decoded; empty when absent or unreadable. */
  public static Optional<String> value(JsonNode secret, String key) {
    JsonNode value = secret.path("data").path(key);
    if (!value.isTextual()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new String(Base64.getDecoder().decode(value.asText()), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
