package dev.metahooks.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Patroni a {@link PatroniCluster} runs: Debian's package, and the major version Spilo's image runs, installed
 * from PyPI by {@code scripts/patroni4.sh} into a virtualenv of its own. The Patroni tests run on each.
 */
public enum PatroniVersion {
  /** Debian's package {@code patroni} (3.0.2 on Debian 12), on the path. */
  DEBIAN("3.0.2"),
  /** Patroni 4 from PyPI in {@code ~/.cache/metahooks-patroni/<version>} (the version scripts/patroni4.sh installs). */
  PYPI("4.1.5");

  private static final Map<PatroniVersion, List<String>> REACHABLE = new ConcurrentHashMap<>();

  private final String version;

  PatroniVersion(String version) {
    this.version = version;
  }

  public String version() {
    return version;
  }

  /** The major version, for what differs between 3 and 4. */
  public int major() {
    return Integer.parseInt(version.substring(0, version.indexOf('.')));
  }

  @Override
  public String toString() {
    return "Patroni " + version + (this == DEBIAN ? " (Debian)" : " (PyPI)");
  }

  /** Whether this Patroni is installed here. */
  boolean installed() {
    return this == DEBIAN
        ? PostgresServer.exec(
                    List.of("sh", "-c", "command -v patroni"), Map.of(), Duration.ofSeconds(10))
                .exitCode()
            == 0
        : Files.exists(virtualenv().resolve(".complete"));
  }

  /** What to install when it is not. */
  String installHint() {
    return this == DEBIAN
        ? "install Debian's packages patroni, etcd-server and postgresql"
        : "run scripts/patroni4.sh (it installs Patroni "
            + version
            + " from PyPI into "
            + virtualenv()
            + ")";
  }

  /**
   * The command that starts Patroni, as the given user. A virtualenv under a home directory the user cannot reach
   * (root's, when the members run as {@code postgres}) is copied once where the user can: a virtualenv's python
   * finds its packages next to itself, so the copy runs as is when its own python runs the script.
   */
  List<String> command(Optional<String> user) {
    if (this == DEBIAN) {
      return List.of("patroni");
    }
    return REACHABLE.computeIfAbsent(
        this,
        v -> {
          Path venv = virtualenv();
          if (PostgresServer.exec(
                      PostgresServer.as(
                          user, List.of("test", "-r", venv.resolve("bin/patroni").toString())),
                      Map.of(),
                      Duration.ofSeconds(10))
                  .exitCode()
              != 0) {
            try {
              Path parent = PostgresServer.workDirectory(user, "patroni", "venv-" + version + "-");
              Path copy = parent.resolve("venv");
              PostgresServer.run(
                  List.of("chmod", "755", parent.toString()), Map.of(), Duration.ofSeconds(10));
              PostgresServer.run(
                  List.of("cp", "-a", venv.toString(), copy.toString()),
                  Map.of(),
                  Duration.ofMinutes(2));
              venv = copy;
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
          return List.of(
              venv.resolve("bin/python3").toString(), venv.resolve("bin/patroni").toString());
        });
  }

  private Path virtualenv() {
    String cache = System.getenv("METAHOOKS_PATRONI_CACHE");
    Path base =
        cache != null
            ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache", "metahooks-patroni");
    return base.resolve(version);
  }
}
