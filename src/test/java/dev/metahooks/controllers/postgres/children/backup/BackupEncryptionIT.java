package dev.metahooks.controllers.postgres.children.backup;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.BackupEncryptionTest;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.RenderedContainers;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.S3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's encryption asked for by every upload of the rendered logical backup, against a real PostgreSQL and s3rver. */
class BackupEncryptionIT {
  @TempDir Path dir;

  /** Every upload of the logical backup asks for the store's encryption; what it downloads does not need to. */
  @Test
  void theLogicalBackupUploadsWithTheStoresEncryption() throws IOException {
    PostgresServer server = PostgresServer.shared();
    if (server
        .query("SELECT count(*) FROM pg_database WHERE datname = 'sealed'")
        .strip()
        .equals("0")) {
      server.query("CREATE DATABASE sealed");
    }
    try (S3Server s3 = S3Server.start("pg-encrypted")) {
      ObjectNode spec = BackupEncryptionTest.libsodiumAndKms();
      ((ObjectNode) spec.at("/backup/s3"))
          .put("bucket", "pg-encrypted")
          .put("prefix", "shop/sealed");
      spec.with("backup").putObject("logical");
      ObservedRequests world = new ObservedRequests("sealed", spec);
      world.sync();
      ObjectNode cron = world.children.get("CronJob/" + Names.logicalCronJob("sealed"));
      Path calls = dir.resolve("aws-calls");
      Path shim = Files.createDirectories(dir.resolve("bin")).resolve("aws");
      Files.writeString(
          shim,
          "#!/bin/sh\nprintf '%s\\n' \"$*\" >> "
              + calls
              + "\nexec "
              + s3.awsDirectory().resolve("aws")
              + " \"$@\"\n");
      Files.setPosixFilePermissions(shim, PosixFilePermissions.fromString("rwxr-xr-x"));
      Map<String, String> local = RenderedContainers.localStore(server, s3);
      local.put("PATH", shim.getParent() + ":" + server.bin() + ":" + System.getenv("PATH"));
      PostgresServer.Result backup =
          RenderedContainers.run(
              RenderedContainers.of(
                  world,
                  cron,
                  LogicalBackups.CONTAINER,
                  List.of(BaseBackupVerificationIT.userSecret())),
              local,
              Duration.ofMinutes(3));
      assertThat(backup.exitCode()).as(backup.output()).isZero();
      List<String> uploads =
          Arrays.stream(Files.readString(calls).split("\n"))
              .filter(
                  call ->
                      call.contains(" s3 cp ")
                          && call.contains(" s3://pg-encrypted/")
                          && call.indexOf(" s3://") > call.indexOf(" cp "))
              .filter(
                  call ->
                      call.trim().endsWith(".dump")
                          || call.endsWith("/COMPLETE")
                          || call.contains(" --recursive "))
              .toList();
      // The dumps one by one, the four small files (roles, settings, their checksums) at once,
      // the manifest last.
      assertThat(uploads)
          .anyMatch(call -> call.endsWith("/sealed.dump"))
          .anyMatch(call -> call.contains(" --recursive ") && call.matches(".*/[0-9TZ]+/$"))
          .anyMatch(call -> call.endsWith("/COMPLETE"))
          .hasSizeGreaterThanOrEqualTo(3)
          .allMatch(
              call ->
                  call.contains("--sse aws:kms --sse-kms-key-id arn:aws:kms:eu-west-1:1:key/abc"));
      assertThat(s3.keys("pg-encrypted", "shop/sealed/logical/"))
          .anyMatch(key -> key.endsWith("/COMPLETE"))
          .anyMatch(key -> key.endsWith("/settings.sql"))
          .anyMatch(key -> key.endsWith("/GLOBALS"));
    }
  }
}
