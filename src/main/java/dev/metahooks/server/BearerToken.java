package dev.metahooks.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

/**
 * The token hook calls must carry as {@code Authorization: Bearer <token>}, as Metacontroller's
 * {@code authorization} endpoint config sends it (the Secret value, trimmed). Read from a file so a mounted
 * Secret can rotate it; compared in constant time.
 */
final class BearerToken {
  private final Path file;
  private volatile byte[] expected;

  BearerToken(Path file) {
    this.file = file;
    reload();
  }

  /** Re-reads the file; an empty token is refused, because it would let every caller in. */
  void reload() {
    String token;
    try {
      token = Files.readString(file, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the token file " + file, e);
    }
    if (token.isEmpty()) {
      throw new IllegalStateException("the token file " + file + " is empty");
    }
    expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
  }

  Path file() {
    return file;
  }

  boolean accepts(String authorization) {
    byte[] given = authorization == null ? new byte[0] : authorization.trim().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(expected, given);
  }
}
