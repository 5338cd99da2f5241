package dev.metahooks.emulator;

import java.util.Arrays;

/**
 * Which Metacontroller the emulator behaves like. {@link #V4_17_2} (the default) reproduces the release as
 * its source reads, defects included (docs/emulator.md lists each with its source location); {@link
 * #INTENDED} does what Metacontroller means to do where the two differ. Chosen per scenario with {@link
 * Metacontroller#profile(Profile)}, or for a whole run with the system property {@value #PROPERTY}
 * ({@code v4.17.2} or {@code intended}).
 */
public enum Profile {
  V4_17_2("v4.17.2"),
  INTENDED("intended");

  public static final String PROPERTY = "metahooks.emulator.profile";

  private final String id;

  Profile(String id) {
    this.id = id;
  }

  /** The profile the system property names, {@link #V4_17_2} when it is unset or empty. */
  public static Profile configured() {
    String value = System.getProperty(PROPERTY, "").trim();
    if (value.isEmpty()) {
      return V4_17_2;
    }
    return Arrays.stream(values())
        .filter(p -> p.id.equals(value))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    PROPERTY
                        + "="
                        + value
                        + ": expected one of "
                        + Arrays.stream(values()).map(Profile::id).toList()));
  }

  public String id() {
    return id;
  }

  /** Whether Metacontroller's defects are reproduced. */
  public boolean faithful() {
    return this == V4_17_2;
  }

  @Override
  public String toString() {
    return id;
  }
}
