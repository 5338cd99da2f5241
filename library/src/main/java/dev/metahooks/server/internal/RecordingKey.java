package dev.metahooks.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.metahooks.server.config.ServerConfig.Recording;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The operator's key for recordings ({@code METAHOOKS_RECORD_KEY_FILE}): with it, every Secret value a recording
 * holds is sealed (AES-256-GCM, a random nonce per value) instead of masked, so that {@code metahooks diff}, given
 * the same key, replays the call with the values the hook saw and the recording never holds one in plain text.
 * A sealed value is {@value #PREFIX} and the base64url of nonce and ciphertext.
 *
 * <p>The file holds at least {@value Recording#KEY_BYTES} bytes (for example {@code openssl rand -base64 32}); surrounding
 * whitespace does not count. The AES key is an HMAC-SHA256 of a fixed label under those bytes, so any such file
 * gives a full-strength key.
 */
public final class RecordingKey {
  static final String PREFIX = "metahooks-sealed:v1:";
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKeySpec key;

  private RecordingKey(byte[] material) {
    try {
      Mac hmac = Mac.getInstance("HmacSHA256");
      hmac.init(new SecretKeySpec(material, "HmacSHA256"));
      this.key =
          new SecretKeySpec(
              hmac.doFinal("metahooks recordings v1".getBytes(StandardCharsets.US_ASCII)), "AES");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java runtime has HmacSHA256", e);
    }
  }

  /** The key in {@code file}; a file too short to be a key is refused, naming {@code variable}. */
  public static RecordingKey read(Path file, String variable) {
    return new RecordingKey(Recording.readKey(file, variable));
  }

  /** Whether {@code value} is a sealed one. */
  public static boolean isSealed(String value) {
    return value != null && value.startsWith(PREFIX);
  }

  /** {@code value} sealed under this key. */
  public String seal(String value) {
    try {
      byte[] nonce = new byte[NONCE_BYTES];
      RANDOM.nextBytes(nonce);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      byte[] sealed = cipher.doFinal(value.getBytes(StandardCharsets.UTF_8));
      ByteBuffer out = ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed);
      return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(out.array());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java runtime has AES/GCM", e);
    }
  }

  /** The value {@code sealed} holds; a value sealed under another key, or altered, is refused. */
  public String open(String sealed) {
    if (!isSealed(sealed)) {
      throw new IllegalArgumentException("not a sealed value");
    }
    try {
      byte[] bytes = Base64.getUrlDecoder().decode(sealed.substring(PREFIX.length()));
      if (bytes.length <= NONCE_BYTES) {
        throw new IllegalArgumentException("a sealed value too short to hold anything");
      }
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
      return new String(
          cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES), StandardCharsets.UTF_8);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "a sealed value that this key does not open (another key, or altered)");
    }
  }

  /** A copy of {@code tree} with every sealed string in it opened. */
  public JsonNode openAll(JsonNode tree) {
    JsonNode copy = tree.deepCopy();
    return open(copy);
  }

  /** Whether any string in {@code tree} is sealed. */
  public static boolean anySealed(JsonNode tree) {
    if (tree.isTextual()) {
      return isSealed(tree.textValue());
    }
    for (JsonNode child : tree) {
      if (anySealed(child)) {
        return true;
      }
    }
    return false;
  }

  private JsonNode open(JsonNode node) {
    if (node.isTextual() && isSealed(node.textValue())) {
      return TextNode.valueOf(open(node.textValue()));
    }
    if (node instanceof ObjectNode object) {
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        object.set(name, open(object.get(name)));
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        array.set(i, open(array.get(i)));
      }
    }
    return node;
  }
}
