package dev.metahooks.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test JVMs of one build share one control plane ({@code metahooks.kubeShared}): a "build" JVM starts two test
 * JVMs at once; both use the same control plane, started once, and it stops once the build has exited. The start
 * script is a stand-in (src/test/resources/controlplane-stub/kube-up.sh: one long-running process, a kubeconfig);
 * the stop is the repository's own {@code kube-down-after.sh} and {@code kube-down.sh}.
 */
class ControlPlaneSharingIT {
  private static final Duration LIMIT = Duration.ofMinutes(2);

  @Test
  void theJvmsOfOneBuildShareOneControlPlaneThatStopsWithTheBuild(@TempDir Path dir)
      throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path stub = Path.of("src/test/resources/controlplane-stub/kube-up.sh");
    Files.copy(stub, bin.resolve("kube-up.sh"));
    for (String script : List.of("kube-down.sh", "kube-down-after.sh")) {
      Files.copy(Path.of("scripts", script), bin.resolve(script));
    }
    for (String script : List.of("kube-up.sh", "kube-down.sh", "kube-down-after.sh")) {
      bin.resolve(script).toFile().setExecutable(true);
    }
    Path meeting = dir.resolve("meeting");

    Process build = java(List.of(), Build.class, dir.toString()).start();
    String said = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(build.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(build.exitValue()).as(said).isZero();

    List<String> kubeconfigs = said.lines().filter(l -> l.startsWith("kubeconfig ")).toList();
    assertThat(kubeconfigs).as(said).hasSize(2);
    assertThat(kubeconfigs.get(0)).isEqualTo(kubeconfigs.get(1));
    Path planeDir = Path.of(kubeconfigs.get(0).substring("kubeconfig ".length())).getParent();
    // Started once, by whichever JVM came first, in a directory of its own under /tmp.
    List<String> starts = Files.readAllLines(dir.resolve("starts"));
    assertThat(starts).containsExactly(planeDir.toString());
    assertThat(Files.list(meeting).map(p -> p.getFileName().toString()))
        .anyMatch(name -> name.startsWith("plane-"));

    // The build has exited: within a few of the watcher's two-second looks, kube-down has run.
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (Files.exists(planeDir.resolve("pids")) && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertThat(planeDir.resolve("pids"))
        .as("kube-down ran once the build had exited")
        .doesNotExist();
  }

  /** A JVM with {@code options}, running {@code main} of {@code type} with this JVM's classpath. */
  private static ProcessBuilder java(List<String> options, Class<?> type, String... arguments) {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path")));
    command.addAll(options);
    command.add(type.getName());
    command.addAll(List.of(arguments));
    return new ProcessBuilder(command).redirectErrorStream(true);
  }

  /** The build: two test JVMs at once, sharing through {@code <dir>/meeting}; prints what each said. */
  public static final class Build {
    public static void main(String[] arguments) throws IOException, InterruptedException {
      Path dir = Path.of(arguments[0]);
      List<Process> members = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        ProcessBuilder member =
            java(
                List.of(
                    "-Dmetahooks.kubeShared=" + dir.resolve("meeting"),
                    "-Dmetahooks.kubeUp=" + dir.resolve("bin/kube-up.sh")),
                Member.class);
        member.environment().put("STAND_IN_STARTS", dir.resolve("starts").toString());
        members.add(member.start());
      }
      for (Process member : members) {
        System.out.print(
            new String(member.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        member.waitFor();
      }
    }
  }

  /** A test JVM: asks for the shared control plane and says which it got. */
  public static final class Member {
    public static void main(String[] arguments) {
      System.out.println("kubeconfig " + ControlPlane.shared().kubeconfig());
    }
  }
}
