package dev.metahooks.server.internal;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/** SHA-256 of request and response bodies: cache keys and ETags. */
final class Digests {
  /** One digest per thread: getting one from the provider each time costs more than hashing a small body. */
  private static final ThreadLocal<MessageDigest> SHA_256 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("every Java runtime has SHA-256", e);
            }
          });

  private Digests() {}

  /** A SHA-256 value, compared by its bytes. */
  static final class Sha256 {
    private final byte[] bytes;
    private final int hash;

    private Sha256(byte[] bytes) {
      this.bytes = bytes;
      this.hash = Arrays.hashCode(bytes);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Sha256 that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    /** The value as a strong ETag: quoted, base64url without padding. */
    String etag() {
      return '"' + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes) + '"';
    }

    @Override
    public String toString() {
      return etag();
    }
  }

  static Sha256 sha256(byte[] body) {
    MessageDigest digest = SHA_256.get();
    digest.reset();
    return new Sha256(digest.digest(body));
  }

  /** A SHA-256 fed as bytes go by (an answer while it is written), on this thread's digest. */
  static MessageDigest streaming() {
    MessageDigest digest = SHA_256.get();
    digest.reset();
    return digest;
  }

  static Sha256 finish(MessageDigest digest) {
    return new Sha256(digest.digest());
  }
}
