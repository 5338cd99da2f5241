package dev.metahooks.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs Debian's {@code shellcheck} over shell scripts, with every rule at its default severity: a script passes only
 * when shellcheck prints nothing. A rule a script disables is disabled in the script, with the reason beside it.
 */
public final class Shellcheck {
  private Shellcheck() {}

  /** Fails with shellcheck's findings, if any, for the files. */
  public static void check(List<Path> scripts) {
    assertThat(scripts).as("scripts to check").isNotEmpty();
    List<String> command = new ArrayList<>(List.of(binary(), "--format=gcc"));
    scripts.forEach(script -> command.add(script.toString()));
    PostgresServer.Result result = PostgresServer.exec(command, Map.of(), Duration.ofMinutes(2));
    assertThat(result.output()).as("shellcheck %s", scripts).isEmpty();
    assertThat(result.exitCode()).as("shellcheck's exit code").isZero();
  }

  /** Writes a script text (one that only exists composed, or rendered) under target/ and checks it. */
  public static void checkText(String name, String text) {
    try {
      Path file = Files.createDirectories(Path.of("target", "shellcheck")).resolve(name);
      Files.writeString(file, text, StandardCharsets.UTF_8);
      check(List.of(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String binary() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      if (Files.isExecutable(Path.of(dir, "shellcheck"))) {
        return Path.of(dir, "shellcheck").toString();
      }
    }
    throw MissingComponent.skipOrFail("shellcheck is not installed (Debian's package shellcheck)");
  }
}
