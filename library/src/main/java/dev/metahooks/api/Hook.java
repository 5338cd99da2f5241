package dev.metahooks.api;

import java.util.Arrays;
import java.util.Optional;

/** The hooks a controller can serve; each is a URL path segment: {@code /<controller>/<hook>}. */
public enum Hook {
  SYNC("sync"),
  FINALIZE("finalize"),
  CUSTOMIZE("customize");

  private final String path;

  Hook(String path) {
    this.path = path;
  }

  public String path() {
    return path;
  }

  public static Optional<Hook> fromPath(String path) {
    return Arrays.stream(values()).filter(h -> h.path.equals(path)).findFirst();
  }
}
