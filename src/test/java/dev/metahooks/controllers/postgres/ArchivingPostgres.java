package dev.metahooks.controllers.postgres;

import dev.metahooks.controllers.postgres.children.backup.BaseBackupVerificationIT;
import dev.metahooks.testsupport.PostgresServer;
import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.S3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A real PostgreSQL that archives its WAL into a real S3 API (s3rver) under one prefix, through the stand-in wal-g's
 * {@code wal-push} as Spilo's archive_command runs it ({@code envdir <WAL-G's env> wal-g wal-push "%p"}), and the
 * stand-in's {@code backup-push} into the same prefix.
 */
public final class ArchivingPostgres implements AutoCloseable {
  public final S3Server s3;
  public final PostgresServer server;
  private final String bucket;
  private final String prefix;
  private final Path tools;

  private ArchivingPostgres(String bucket, String prefix) throws IOException {
    this.bucket = bucket;
    this.prefix = prefix;
    this.s3 = S3Server.start(bucket);
    // The archive_command runs as the server's user: its script and the stand-in wal-g where that
    // user reaches them.
    this.tools = Files.createTempDirectory("metahooks-archive-");
    Files.setPosixFilePermissions(tools, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path walg = tools.resolve("wal-g");
    Files.copy(Resources.projectDir().resolve("src/test/resources/wal-g/wal-g"), walg);
    Files.setPosixFilePermissions(walg, PosixFilePermissions.fromString("rwxr-xr-x"));
    archiveTo(s3.endpoint());
    this.server =
        PostgresServer.startNew(
            Map.of(
                "archive_mode",
                "on",
                "archive_command",
                tools.resolve("archive") + " %p",
                "wal_level",
                "replica"));
    // The superuser may copy the data (backupPushOfTheData), as WAL-G reads it in the pod.
    Files.writeString(
        server.dataDirectory().resolve("pg_hba.conf"),
        "hostssl replication postgres 127.0.0.1/32 scram-sha-256\n",
        StandardOpenOption.APPEND);
    server.query("SELECT pg_reload_conf()");
  }

  public static ArchivingPostgres start(String bucket, String prefix) throws IOException {
    return new ArchivingPostgres(bucket, prefix);
  }

  /** Archive to the store at {@code endpoint} from now on (a closed port: archiving fails). */
  public void archiveTo(String endpoint) throws IOException {
    Path archive = tools.resolve("archive");
    Files.writeString(
        archive,
        "#!/bin/bash\n"
            + "export WALG_S3_PREFIX=s3://"
            + bucket
            + "/"
            + prefix
            + " AWS_ENDPOINT="
            + endpoint
            + " AWS_S3_FORCE_PATH_STYLE=true AWS_ACCESS_KEY_ID="
            + S3Server.ACCESS_KEY_ID
            + " AWS_SECRET_ACCESS_KEY="
            + S3Server.SECRET_ACCESS_KEY
            + " AWS_REGION=us-east-1 HOME=/tmp\n"
            + "exec "
            + tools.resolve("wal-g")
            + " wal-push \"$1\"\n");
    Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** A base backup into the prefix, as WAL-G's backup-push writes it (the stand-in's layout, sentinel last). */
  public PostgresServer.Result backupPush() throws IOException {
    Path data = Files.createTempDirectory("metahooks-pgdata-");
    Files.writeString(data.resolve("PG_VERSION"), "15\n");
    return push(data);
  }

  /**
   * A base backup of the server's data as it is now into the prefix: a consistent copy of its files (pg_basebackup
   * copies what WAL-G's backup-push copies, postgresql.auto.conf included: both leave out only files such as
   * postmaster.pid and postgresql.auto.conf.tmp), pushed by the stand-in, which tars the directory it is given.
   */
  public PostgresServer.Result backupPushOfTheData() throws IOException {
    return push(server.baseBackup());
  }

  /** The newest base backup in the prefix, unpacked into {@code data} (what a clone's backup-fetch starts from). */
  public Path fetchNewestBackup(Path data) throws IOException {
    List<String> parts =
        s3.keys(bucket, prefix + "/basebackups_005/").stream()
            .filter(key -> key.endsWith("/tar_partitions/part_1.tar"))
            .toList();
    Path tar = Files.createTempFile("metahooks-backup-", ".tar");
    s3.download(bucket, parts.get(parts.size() - 1), tar);
    Files.createDirectories(data);
    PostgresServer.Result unpacked =
        PostgresServer.exec(
            List.of("tar", "-xpf", tar.toString(), "-C", data.toString()),
            Map.of(),
            Duration.ofMinutes(1));
    if (unpacked.exitCode() != 0) {
      throw new IOException("tar -x failed: " + unpacked.output());
    }
    Files.delete(tar);
    return data;
  }

  private PostgresServer.Result push(Path data) {
    Map<String, String> env = new HashMap<>(BaseBackupVerificationIT.credentials());
    env.put("WALG_S3_PREFIX", "s3://" + bucket + "/" + prefix);
    env.put("AWS_ENDPOINT", s3.endpoint());
    env.put("AWS_S3_FORCE_PATH_STYLE", "true");
    env.put("PATH", s3.awsDirectory() + ":" + System.getenv("PATH"));
    return PostgresServer.exec(
        List.of(tools.resolve("wal-g").toString(), "backup-push", data.toString()),
        env,
        Duration.ofMinutes(1));
  }

  @Override
  public void close() {
    server.stop();
    s3.close();
  }
}
