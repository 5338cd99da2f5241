package dev.metahooks.controllers.postgres.base;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The scripts and SQL texts the cluster's containers run, kept as files under {@code postgrescluster/} in the
 * jar (so that shellcheck and psql read them as they are) and read once, when the class that runs them loads.
 */
public final class ResourceTexts {
  private ResourceTexts() {}

  /** The text of {@code postgrescluster/<path>}; a missing file is a broken build. */
  public static String load(String path) {
    String resource = "/postgrescluster/" + path;
    try (InputStream in = ResourceTexts.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
