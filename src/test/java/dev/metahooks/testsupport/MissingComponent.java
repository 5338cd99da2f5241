package dev.metahooks.testsupport;

import org.junit.jupiter.api.Assumptions;

/**
 * What a test does when a real component it needs (PostgreSQL, Patroni, PgBouncer, s3rver, ...) is not installed:
 * outside CI it is skipped with a message saying what to install; in CI, where {@code .ci/run} installs everything,
 * it fails.
 */
public final class MissingComponent {
  private MissingComponent() {}

  /** Never returns normally; {@code message} names what is missing and how to install it. */
  public static RuntimeException skipOrFail(String message) {
    if (System.getenv("CI") != null) {
      throw new IllegalStateException(message + "; CI is set, so the tests that need it fail");
    }
    Assumptions.abort(message);
    throw new IllegalStateException("unreachable");
  }
}
