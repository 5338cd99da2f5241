package dev.metahooks.controllers.postgres.children.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.plan.MajorUpgrade;
import dev.metahooks.controllers.postgres.spec.BackupSpecReader;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upgrade Job's command as the kubelet starts it: a stand-in {@code kubectl exec} runs the script in a stand-in
 * of the primary's container, where a stand-in of Spilo's {@code inplace_upgrade.py} keeps its contract (exit codes,
 * log lines, the data directory it leaves; src/test/resources/postgrescluster/standin). The exit code the script
 * gives for each outcome is what the hook reads from the Job ({@link MajorUpgrade}).
 */
class MajorUpgradeScriptIT {
  private static final MajorUpgrade.Plan PLAN =
      new MajorUpgrade.Plan(
          15,
          16,
          MajorUpgrade.Phase.Upgrading,
          "",
          new MajorUpgrade.Steps(
              Optional.empty(), Optional.of("pg-upgrade-16"), Optional.of("pg-0")),
          Optional.empty());

  @TempDir Path root;

  @BeforeEach
  void container() throws IOException {
    Path scripts = Files.createDirectories(root.resolve("scripts"));
    Path standIns = Resources.path("postgrescluster/standin");
    Files.copy(standIns.resolve("inplace_upgrade.py"), scripts.resolve("inplace_upgrade.py"));
    Path bin = Files.createDirectories(root.resolve("bin"));
    Files.copy(
        standIns.resolve("kubectl"), bin.resolve("kubectl"), StandardCopyOption.COPY_ATTRIBUTES);
    bin.resolve("kubectl").toFile().setExecutable(true);
    Path data = Files.createDirectories(root.resolve("home/postgres/pgdata/pgroot/data"));
    Files.writeString(data.resolve("PG_VERSION"), "15\n");
    for (String version : List.of("15", "16")) {
      Path versionBin =
          Files.createDirectories(root.resolve("usr/lib/postgresql/" + version + "/bin"));
      for (String binary : List.of("postgres", "pg_upgrade")) {
        Files.writeString(versionBin.resolve(binary), "#!/bin/sh\n");
        versionBin.resolve(binary).toFile().setExecutable(true);
      }
    }
  }

  @Test
  void anUpgradeExecsIntoThePrimaryAndEndsWithTheNewDataDirectory() throws Exception {
    PostgresServer.Result result = run(Map.of());
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(pgVersion()).isEqualTo("16");
    assertThat(result.output())
        .contains(
            "major upgrade: PostgreSQL 15 to 16 with 3 members",
            "inplace_upgrade INFO: Cluster demo is ready to be upgraded",
            "major upgrade: done, the data directory is " + "PostgreSQL 16");
    assertThat(Files.readAllLines(root.resolve("kubectl.args")))
        .containsExactly("exec", "--namespace", "shop", "pod/pg-0", "--container", Spilo.CONTAINER);
  }

  @Test
  void aRolledBackUpgradeExitsTenWithTheOldDataDirectory() throws Exception {
    for (String failure : List.of("check", "upgrade")) {
      PostgresServer.Result result = run(Map.of("STANDIN_FAIL", failure));
      assertThat(result.exitCode()).as(result.output()).isEqualTo(MajorUpgrade.NOT_UPGRADED);
      assertThat(pgVersion()).isEqualTo("15");
      assertThat(root.resolve("home/postgres/pgdata/pgroot/data_new")).doesNotExist();
      assertThat(result.output())
          .contains(
              "inplace_upgrade ERROR:",
              "inplace_upgrade.py exited 1; the data directory is still PostgreSQL 15");
    }
  }

  @Test
  void aMemberCountSpiloRefusesExitsTen() throws Exception {
    PostgresServer.Result result = run(Map.of("STANDIN_MEMBERS", "2"));
    assertThat(result.exitCode()).isEqualTo(MajorUpgrade.NOT_UPGRADED);
    assertThat(result.output()).contains("the number of replicas does not match (2 != 3)");
    assertThat(pgVersion()).isEqualTo("15");
  }

  @Test
  void aFailureAfterTheSwitchExitsElevenWithTheNewDataDirectory() throws Exception {
    PostgresServer.Result result = run(Map.of("STANDIN_FAIL", "rsync"));
    assertThat(result.exitCode()).as(result.output()).isEqualTo(MajorUpgrade.INCOMPLETE);
    assertThat(pgVersion()).isEqualTo("16");
    assertThat(result.output())
        .contains(
            "rsync failed",
            "the primary's data directory is PostgreSQL 16, but " + "inplace_upgrade.py exited 1");
  }

  @Test
  void anImageWithoutTheNewVersionExitsTwelveAndRunsNothing() throws Exception {
    Files.delete(root.resolve("usr/lib/postgresql/16/bin/pg_upgrade"));
    PostgresServer.Result result = run(Map.of());
    assertThat(result.exitCode()).isEqualTo(MajorUpgrade.NO_BINARIES);
    assertThat(result.output())
        .contains("this image has no PostgreSQL 16")
        .doesNotContain("inplace_upgrade");
  }

  @Test
  void anAlreadyUpgradedDataDirectoryIsSuccessAndADifferentOneIsRefused() throws Exception {
    Files.writeString(root.resolve("home/postgres/pgdata/pgroot/data/PG_VERSION"), "16\n");
    assertThat(run(Map.of()).exitCode()).isZero();
    Files.writeString(root.resolve("home/postgres/pgdata/pgroot/data/PG_VERSION"), "14\n");
    PostgresServer.Result result = run(Map.of());
    assertThat(result.exitCode()).isEqualTo(MajorUpgrade.OTHER_VERSION);
    assertThat(result.output())
        .contains("the data directory is PostgreSQL 14, not 15: nothing done");
  }

  private PostgresServer.Result run(Map<String, String> env) {
    ObjectNode job =
        UpgradeJobs.job(
            "pg", "shop", BackupSpecReader.DEFAULT_JOB_IMAGE, PodScheduling.NONE, PLAN, "pg-0", 3);
    Kubelet.Container container = RenderedContainers.of(job, UpgradeJobs.CONTAINER, List.of());
    assertThat(container.unresolvedReferences()).isEmpty();
    List<String> argv = new ArrayList<>(container.argv());
    // The kubectl image's kubectl, found on its PATH; here the stand-in.
    assertThat(argv.get(0)).isEqualTo("kubectl");
    argv.set(0, root.resolve("bin/kubectl").toString());
    Map<String, String> environment = new HashMap<>(container.environment());
    environment.putAll(env);
    environment.put("STANDIN_ROOT", root.toString());
    return PostgresServer.exec(argv, environment, Duration.ofMinutes(1));
  }

  private String pgVersion() throws IOException {
    return Files.readString(root.resolve("home/postgres/pgdata/pgroot/data/PG_VERSION")).strip();
  }
}
