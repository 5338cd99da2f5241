package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.controllers.postgres.children.backup.Backups;
import dev.metahooks.controllers.postgres.children.backup.LogicalBackups;
import dev.metahooks.testsupport.Shellcheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every script a PostgresCluster container runs passes shellcheck: the files as they are, and the logical backup
 * and restore scripts and the base backup verification as they are put together (store-common.sh first).
 */
class ScriptFilesIT {
  private static final Path SCRIPTS = Path.of("src/main/resources/postgrescluster/scripts");

  @Test
  void everyWholeScriptPassesShellcheck() throws IOException {
    try (Stream<Path> files = Files.list(SCRIPTS)) {
      List<Path> whole = files.filter(ScriptFilesIT::startsWithAShebang).sorted().toList();
      assertThat(whole)
          .extracting(path -> path.getFileName().toString())
          .contains(
              "users.sh",
              "store-common.sh",
              "base-backup-started.sh",
              "cleanup.sh",
              "parameters.sh",
              "switchover.sh",
              "pooler-certificate.sh");
      Shellcheck.check(whole);
    }
  }

  @Test
  void theLogicalBackupScriptsPassShellcheckAsTheyRun() {
    Shellcheck.checkText("logical-backup.sh", LogicalBackups.BACKUP_SCRIPT);
    Shellcheck.checkText("logical-restore.sh", LogicalBackups.RESTORE_SCRIPT);
    Shellcheck.checkText("base-backup-verify.sh", Backups.VERIFY_SCRIPT);
  }

  private static boolean startsWithAShebang(Path file) {
    try {
      return Files.readString(file).startsWith("#!");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
