package dev.metahooks.testing;

import dev.metahooks.api.Sources;
import dev.metahooks.emulator.Cluster;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;

/**
 * Pinned time and secrets, so that fixtures are golden: the time is fixed, and a secret is derived from its
 * purpose, so one request always gets the same answer whatever ran before it.
 */
public final class FixedSources implements Sources {
  /** The emulator's cluster starts its clock here too, so that a scenario and a fixture see the same time. */
  public static final Instant NOW = Cluster.START;

  public static final FixedSources INSTANCE = new FixedSources();

  @Override
  public Instant now() {
    return NOW;
  }

  @Override
  public String secret(String purpose, int length) {
    long seed = 0;
    for (byte b : purpose.getBytes(StandardCharsets.UTF_8)) {
      seed = seed * 31 + b;
    }
    return Sources.randomAlphanumeric(new Random(seed), length);
  }
}
