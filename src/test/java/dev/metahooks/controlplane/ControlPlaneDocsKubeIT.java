package dev.metahooks.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.testing.ControlPlane;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/control-plane.md's example, run as written (in a directory of its own instead of /tmp/kube): the control
 * plane starts, kubectl sees three Ready nodes, and kube-down stops every process kube-up started.
 */
class ControlPlaneDocsKubeIT {
  private static final Path PROJECT = Resources.projectDir();

  @Test
  void theStartAndStopExampleRunsAsWritten() throws IOException {
    ControlPlane
        .shared(); // skips, or fails in CI, without the binaries, like every test of the tier
    String doc = Files.readString(PROJECT.resolve("docs/control-plane.md"));
    Matcher block = Pattern.compile("```sh\n(scripts/kube-up\\.sh /tmp/kube[^`]*)```").matcher(doc);
    assertThat(block.find()).as("the start-and-stop example of docs/control-plane.md").isTrue();
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "mhk-doc-");
    String script = "set -e\n" + block.group(1).replace("/tmp/kube", dir.toString());

    ControlPlane.Run run =
        ControlPlane.Run.of(List.of("bash", "-c", script), PROJECT, Duration.ofMinutes(3));

    assertThat(run.ok())
        .contains("kwok-node-0", "kwok-node-1", "kwok-node-2", "kwok-node-3")
        .doesNotContain("NotReady");
    assertThat(dir.resolve("pids")).doesNotExist();
    List<String> left =
        ControlPlane.Run.of(List.of("pgrep", "-f", dir + "/"), PROJECT, Duration.ofSeconds(10))
            .output()
            .lines()
            .toList();
    assertThat(left).as("processes of the example's control plane still running").isEmpty();
  }
}
