package dev.metahooks.controllers.postgres.base;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.text.Normalizer;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * SCRAM-SHA-256 verifiers in PostgreSQL's stored format (RFC 5802, RFC 7677):
 * {@code SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>}, all base64. {@code ALTER ROLE ... PASSWORD}
 * stores such a string as it is, so the password itself never reaches the server. The password is prepared as
 * PostgreSQL's own {@code pg_saslprep} does (libpq prepares it the same way when it logs in): ASCII as it is,
 * other text mapped and NFKC-normalized, and the raw bytes when SASLprep refuses the text.
 */
public final class Scram {
  /** PostgreSQL's default {@code scram_iterations}. */
  public static final int ITERATIONS = 4096;

  private Scram() {}

  public static String verifier(String password, byte[] salt) {
    try {
      byte[] salted = hi(prepare(password), salt, ITERATIONS);
      byte[] clientKey = hmac(salted, "Client Key");
      byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(clientKey);
      byte[] serverKey = hmac(salted, "Server Key");
      Base64.Encoder b64 = Base64.getEncoder();
      return "SCRAM-SHA-256$"
          + ITERATIONS
          + ":"
          + b64.encodeToString(salt)
          + "$"
          + b64.encodeToString(storedKey)
          + ":"
          + b64.encodeToString(serverKey);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "SCRAM-SHA-256 needs PBKDF2WithHmacSHA256, HmacSHA256 and SHA-256", e);
    }
  }

  /** Hi(password, salt, i) of RFC 5802: PBKDF2 with HMAC-SHA-256, one 32-byte block. */
  private static byte[] hi(String prepared, byte[] salt, int iterations)
      throws GeneralSecurityException {
    // PBEKeySpec takes characters and encodes them as UTF-8, which is what the prepared text is
    // sent as.
    PBEKeySpec spec = new PBEKeySpec(prepared.toCharArray(), salt, iterations, 256);
    return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
  }

  private static byte[] hmac(byte[] key, String text) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * SASLprep (RFC 4013) as PostgreSQL applies it: pure ASCII is used as it is; otherwise spaces are mapped to
   * U+0020, "mapped to nothing" characters removed and the text NFKC-normalized; text with a prohibited
   * character or a bidirectional mix is used unprepared, as PostgreSQL does.
   */
  public static String prepare(String password) {
    if (password.chars().allMatch(c -> c < 0x80)) {
      return password;
    }
    StringBuilder mapped = new StringBuilder();
    password
        .codePoints()
        .forEach(
            c -> {
              if (!mappedToNothing(c)) {
                mapped.appendCodePoint(nonAsciiSpace(c) ? ' ' : c);
              }
            });
    String normalized = Normalizer.normalize(mapped, Normalizer.Form.NFKC);
    if (normalized.codePoints().anyMatch(Scram::prohibited) || !bidiOk(normalized)) {
      return password;
    }
    return normalized;
  }

  private static boolean mappedToNothing(int c) {
    return c == 0x00AD
        || c == 0x034F
        || c == 0x1806
        || (c >= 0x180B && c <= 0x180D)
        || (c >= 0x200B && c <= 0x200D)
        || c == 0x2060
        || (c >= 0xFE00 && c <= 0xFE0F)
        || c == 0xFEFF;
  }

  private static boolean nonAsciiSpace(int c) {
    return c == 0x00A0
        || c == 0x1680
        || (c >= 0x2000 && c <= 0x200B)
        || c == 0x202F
        || c == 0x205F
        || c == 0x3000;
  }

  /** RFC 4013 section 2.3 (tables C.1.2 to C.9) and unassigned code points, as Java's Unicode data knows them. */
  private static boolean prohibited(int c) {
    int type = Character.getType(c);
    return nonAsciiSpace(c)
        || type == Character.CONTROL
        || type == Character.PRIVATE_USE
        || type == Character.SURROGATE
        || type == Character.UNASSIGNED
        || (c >= 0xFDD0 && c <= 0xFDEF)
        || (c & 0xFFFE) == 0xFFFE
        || (c >= 0xFFF9 && c <= 0xFFFD)
        || (c >= 0x2FF0 && c <= 0x2FFB)
        || c == 0x0340
        || c == 0x0341
        || c == 0x200E
        || c == 0x200F
        || (c >= 0x202A && c <= 0x202E)
        || (c >= 0x206A && c <= 0x206F)
        || c == 0xE0001
        || (c >= 0xE0020 && c <= 0xE007F);
  }

  /** RFC 3454 section 6: right-to-left text has no left-to-right character and starts and ends right-to-left. */
  private static boolean bidiOk(String text) {
    boolean rtl = text.codePoints().anyMatch(Scram::rightToLeft);
    if (!rtl) {
      return true;
    }
    boolean ltr =
        text.codePoints()
            .anyMatch(
                c -> Character.getDirectionality(c) == Character.DIRECTIONALITY_LEFT_TO_RIGHT);
    return !ltr
        && rightToLeft(text.codePointAt(0))
        && rightToLeft(text.codePointBefore(text.length()));
  }

  private static boolean rightToLeft(int c) {
    byte d = Character.getDirectionality(c);
    return d == Character.DIRECTIONALITY_RIGHT_TO_LEFT
        || d == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC;
  }
}
