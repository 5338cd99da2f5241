package dev.metahooks.testing;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Kubernetes control plane for tests: kube-apiserver, controller manager, scheduler and nodes played by KWOK.
 * One is shared by every test of a JVM ({@link #shared()}), found in this order:
 *
 * <ol>
 *   <li>the kubeconfig named by the system property {@code metahooks.kubeconfig} or the variable
 *       {@code METAHOOKS_KUBECONFIG}: a control plane someone else started and stops;
 *   <li>with the system property {@code metahooks.kubeShared} (a directory), the one the test JVMs of this build share:
 *       the first to need it starts it, the others find it recorded there, and it stops once the build (the nearest
 *       ancestor process that is a JVM: Maven) has exited ({@code kube-down-after.sh});
 *   <li>a start script, {@code metahooks.kubeUp} or {@code scripts/kube-up.sh} under {@code metahooks.projectDir}, run
 *       into a new directory and stopped by the script beside it ({@code kube-down.sh}) when the JVM exits.
 * </ol>
 *
 * <p>Without either, or when the start script finds no binaries (its exit status 3), a test that asks for one is
 * skipped with a message saying what to build, except where the variable {@code CI} is set: there it fails.
 */
public final class ControlPlane implements AutoCloseable {
  private static final int MISSING_BINARIES = 3;
  private static ControlPlane shared;

  private final Path kubeconfig;
  private final Path bin;
  private final Runnable stop;
  private KubernetesClient client;

  private ControlPlane(Path kubeconfig, Path bin, Runnable stop) {
    this.kubeconfig = kubeconfig;
    this.bin = bin;
    this.stop = stop;
  }

  /** The control plane of this JVM, started on first use. */
  public static synchronized ControlPlane shared() {
    if (shared == null) {
      shared = find();
    }
    return shared;
  }

  /**
   * A control plane of its own, for a test that needs one nobody else has written to (installing a Helm release
   * that owns CRDs, say); {@link #close()} stops it. Started by the same script as the shared one.
   */
  public static ControlPlane startNew() {
    return start(startScript().toAbsolutePath());
  }

  /** Stops a control plane this JVM started ({@link #startNew()}); the shared one stops when the JVM exits. */
  @Override
  public synchronized void close() {
    if (client != null) {
      client.close();
      client = null;
    }
    stop.run();
  }

  /** The kubeconfig of an administrator of this control plane. */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /** A client acting as the administrator; shared, do not close it. */
  public synchronized KubernetesClient client() {
    if (client == null) {
      client = new KubernetesClientBuilder().withConfig(config()).build();
    }
    return client;
  }

  /** The administrator's client settings, to build clients of other identities from. */
  public Config config() {
    try {
      return Config.fromKubeconfig(Files.readString(kubeconfig));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A program of the control plane's build ({@code kubectl}, {@code helm}), or from the PATH when attached. */
  public String program(String name) {
    Path own = bin.resolve(name);
    return Files.isExecutable(own) ? own.toString() : name;
  }

  /**
   * Runs {@code kubectl} against this control plane with {@code input} on its standard input; the result holds its
   * exit status and output.
   */
  public Run kubectl(String input, String... arguments) {
    List<String> command =
        new ArrayList<>(List.of(program("kubectl"), "--kubeconfig", kubeconfig.toString()));
    command.addAll(List.of(arguments));
    return Run.of(command, input, Duration.ofMinutes(3));
  }

  /** Runs {@code helm} against this control plane. */
  public Run helm(String... arguments) {
    List<String> command =
        new ArrayList<>(List.of(program("helm"), "--kubeconfig", kubeconfig.toString()));
    command.addAll(List.of(arguments));
    return Run.of(command, "", Duration.ofMinutes(3));
  }

  /** What a program printed and how it ended. */
  public record Run(List<String> command, int exitCode, String output) {
    /** Runs {@code command} in {@code directory}, with nothing on its standard input. */
    public static Run of(List<String> command, Path directory, Duration limit) {
      return run(command, "", directory, limit);
    }

    static Run of(List<String> command, String input, Duration limit) {
      return run(command, input, Path.of("."), limit);
    }

    private static Run run(List<String> command, String input, Path directory, Duration limit) {
      try {
        Process process =
            new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .start();
        try (var stdin = process.getOutputStream()) {
          stdin.write(input.getBytes(StandardCharsets.UTF_8));
        }
        // The output is read to its end before waiting, so a full pipe never blocks the program.
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly();
          throw new IllegalStateException(command + " ran longer than " + limit);
        }
        return new Run(command, process.exitValue(), output);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** The output, once the program succeeded; otherwise an error with the command and its output. */
    public String ok() {
      if (exitCode != 0) {
        throw new AssertionError(
            String.join(" ", command) + " exited " + exitCode + ":\n" + output);
      }
      return output;
    }
  }

  private static ControlPlane find() {
    Optional<String> given = setting("metahooks.kubeconfig", "METAHOOKS_KUBECONFIG");
    if (given.isPresent()) {
      Path kubeconfig = Path.of(given.get());
      return new ControlPlane(kubeconfig, kubeconfig.resolveSibling("bin"), () -> {});
    }
    Optional<String> meeting = setting("metahooks.kubeShared", "METAHOOKS_KUBE_SHARED");
    Optional<ProcessHandle> build =
        ProcessHandle.current().parent().flatMap(ControlPlane::nearestJvm);
    if (meeting.isPresent() && build.isPresent()) {
      return sharedByTheBuild(Path.of(meeting.get()), build.get());
    }
    ControlPlane started = start(startScript().toAbsolutePath());
    Runtime.getRuntime().addShutdownHook(new Thread(started::close));
    return started;
  }

  /** The process, or its nearest ancestor, that runs a JVM. */
  private static Optional<ProcessHandle> nearestJvm(ProcessHandle process) {
    for (Optional<ProcessHandle> at = Optional.of(process);
        at.isPresent();
        at = at.get().parent()) {
      if (at.get().info().command().map(c -> c.endsWith("/java")).orElse(false)) {
        return at;
      }
    }
    return Optional.empty();
  }

  /**
   * The control plane of the build {@code build}, recorded in {@code meeting} under the build's pid and start: started
   * by the first JVM that asks (the others wait on a lock meanwhile), stopped once the build has exited.
   */
  private static ControlPlane sharedByTheBuild(Path meeting, ProcessHandle build) {
    String owner =
        build.pid() + "-" + build.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    try {
      Files.createDirectories(meeting);
      try (FileChannel channel =
              FileChannel.open(
                  meeting.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock locked = channel.lock()) {
        Path record = meeting.resolve("plane-" + owner);
        Path dir;
        if (Files.exists(record)) {
          dir = Path.of(Files.readString(record).strip());
        } else {
          Path up = startScript().toAbsolutePath();
          dir = start(up).kubeconfig.getParent();
          new ProcessBuilder(
                  "setsid",
                  up.resolveSibling("kube-down-after.sh").toString(),
                  String.valueOf(build.pid()),
                  dir.toString())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectOutput(dir.resolve("logs/kube-down-after.log").toFile())
              .redirectErrorStream(true)
              .start();
          Files.writeString(record, dir.toString());
        }
        return new ControlPlane(dir.resolve("kubeconfig"), dir.resolve("bin"), () -> {});
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path startScript() {
    Path up =
        setting("metahooks.kubeUp", "METAHOOKS_KUBE_UP")
            .map(Path::of)
            .orElse(
                Path.of(System.getProperty("metahooks.projectDir", "."))
                    .resolve("scripts/kube-up.sh"));
    if (!Files.isRegularFile(up)) {
      throw skipOrFail(
          "no control plane: set metahooks.kubeconfig, or metahooks.kubeUp to a start script ("
              + up
              + " does not exist)");
    }
    return up;
  }

  private static ControlPlane start(Path up) {
    Path dir;
    try {
      // A short path: Unix sockets and some components' paths are length-limited.
      dir = Files.createTempDirectory(Path.of("/tmp"), "mhk-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path down = up.resolveSibling("kube-down.sh");
    Runnable stop =
        () -> Run.of(List.of(down.toString(), dir.toString()), "", Duration.ofMinutes(1));
    Run run = Run.of(List.of(up.toString(), dir.toString()), "", Duration.ofMinutes(5));
    if (run.exitCode() == MISSING_BINARIES) {
      throw skipOrFail(
          "the control plane's binaries are not built ("
              + run.output().strip()
              + "); build them with controlplane/build.sh (Go 1.26 and the Go module proxy; about half an hour cold)");
    }
    if (run.exitCode() != 0) {
      stop.run();
      throw new IllegalStateException(
          "the control plane did not start (logs in " + dir + "/logs):\n" + run.output());
    }
    return new ControlPlane(dir.resolve("kubeconfig"), dir.resolve("bin"), stop);
  }

  private static Optional<String> setting(String property, String variable) {
    String value = System.getProperty(property, System.getenv(variable));
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }

  private static RuntimeException skipOrFail(String message) {
    if (System.getenv("CI") != null) {
      throw new IllegalStateException(message + "; CI is set, so the tests that need it fail");
    }
    Assumptions.abort(message);
    throw new IllegalStateException("unreachable");
  }
}
