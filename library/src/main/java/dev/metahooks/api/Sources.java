package dev.metahooks.api;

import dev.metahooks.replay.CallInputs;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;

/**
 * The only non-deterministic inputs a hook may use: the time (for a condition's transition time) and
 * randomness (for a password generated once). Injected, so that tests pin them and a hook stays a function.
 */
public interface Sources {
  Instant now();

  /**
   * A new random secret of {@code length} characters from {@code [A-Za-z0-9]}; {@code purpose} names what it
   * is for (for example {@code namespace/secret-name/password}), so that a pinned source can derive it.
   */
  String secret(String purpose, int length);

  /**
   * The wall clock and a SecureRandom: what the server uses. Within one hook call the server serves, the time is
   * the instant the call began and a purpose asked for twice gets the same secret; the server records both with
   * the call (with {@code METAHOOKS_RECORD_DIR}), and {@code metahooks diff} gives them back when it replays it.
   */
  static Sources system() {
    return new Sources() {
      private final SecureRandom random = new SecureRandom();
      private final Clock clock = Clock.systemUTC();

      @Override
      public Instant now() {
        return CallInputs.current().map(CallInputs::now).orElseGet(clock::instant);
      }

      @Override
      public String secret(String purpose, int length) {
        return CallInputs.current()
            .map(call -> call.secret(purpose, length, () -> randomAlphanumeric(random, length)))
            .orElseGet(() -> randomAlphanumeric(random, length));
      }
    };
  }

  static String randomAlphanumeric(java.util.Random random, int length) {
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    StringBuilder secret = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      secret.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return secret.toString();
  }
}
