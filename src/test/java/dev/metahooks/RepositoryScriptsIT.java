package dev.metahooks;

import dev.metahooks.testsupport.Shellcheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The repository's own shell scripts (benchmarks, load and soak runs, the test control plane, CI) pass shellcheck. */
class RepositoryScriptsIT {
  @Test
  void everyScriptOfTheRepositoryPassesShellcheck() throws IOException {
    List<Path> scripts = new ArrayList<>(List.of(Path.of(".ci/run")));
    for (String folder :
        List.of("scripts", "controlplane", "src/test/resources/controlplane-stub")) {
      try (Stream<Path> files = Files.walk(Path.of(folder))) {
        files.filter(file -> file.toString().endsWith(".sh")).sorted().forEach(scripts::add);
      }
    }
    Shellcheck.check(scripts);
  }
}
