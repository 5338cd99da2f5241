package dev.metahooks.server.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version this build was made as: the pom's, written into {@code dev/metahooks/build.properties} by Maven's
 * resource filtering, so that {@code --version}, the start-up log and {@code metahooks_build_info} never disagree.
 */
public final class BuildInfo {
  private static final String RESOURCE = "/dev/metahooks/build.properties";
  private static final String VERSION = load();

  private BuildInfo() {}

  /** The pom's version, for example {@code 0.1.0}. */
  public static String version() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            RESOURCE + " is missing from the class path: build with Maven");
      }
      Properties properties = new Properties();
      properties.load(in);
      String version = properties.getProperty("version", "");
      if (version.isBlank() || version.contains("${")) {
        throw new IllegalStateException(
            RESOURCE + " was not filtered by the build: '" + version + "'");
      }
      return version.trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
