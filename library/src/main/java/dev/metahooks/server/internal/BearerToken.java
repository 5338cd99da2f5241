package dev.metahooks.server.internal;

import dev.metahooks.server.config.ConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

/**
 * The token hook calls must carry as {@code Authorization: Bearer <token>}, as Metacontroller's
 * {@code authorization} endpoint config sends it (the Secret value, trimmed, after the config's {@code type} as
 * written: the scheme is compared ignoring case, as RFC 9110 says). Read from a file so a mounted Secret can
 * rotate it; the token is compared in constant time.
 */
public final class BearerToken {
  private static final String SCHEME = "Bearer";
  private final Path file;
  private volatile byte[] expected;

  public BearerToken(Path file) {
    this.file = file;
    reload();
  }

  /** Re-reads the file; an empty token is refused, because it would let every caller in. */
  public void reload() {
    String token;
    try {
      token = Files.readString(file, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new ConfigurationException(
          "METAHOOKS_TOKEN_FILE: cannot read " + file + ": " + e.getMessage(), e);
    }
    if (token.isEmpty()) {
      throw new ConfigurationException("METAHOOKS_TOKEN_FILE: " + file + " is empty");
    }
    expected = token.getBytes(StandardCharsets.UTF_8);
  }

  public Path file() {
    return file;
  }

  boolean accepts(String authorization) {
    String header = authorization == null ? "" : authorization.trim();
    int space = header.indexOf(' ');
    boolean bearer = space == SCHEME.length() && header.regionMatches(true, 0, SCHEME, 0, space);
    byte[] given =
        space < 0
            ? new byte[0]
            : header.substring(space + 1).trim().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(expected, given) & bearer;
  }
}
