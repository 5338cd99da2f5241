package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Files under {@code src/test/resources}, read from the source tree so a failing test names a real path. */
public final class Resources {
  public static final Path ROOT = projectDir().resolve("src/test/resources");

  private Resources() {}

  public static Path projectDir() {
    return Path.of(System.getProperty("metahooks.projectDir", ".")).toAbsolutePath().normalize();
  }

  public static Path path(String relative) {
    return ROOT.resolve(relative);
  }

  public static ObjectNode readObject(Path file) {
    try {
      return (ObjectNode) JsonTrees.MAPPER.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  public static byte[] bytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every file below {@code dir} whose name ends with {@code suffix}, sorted. */
  public static List<Path> find(Path dir, String suffix) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
