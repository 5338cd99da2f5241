package dev.metahooks.controllers.postgres.spec;

import java.util.Optional;

/**
 * {@code spec.standby}: the cluster follows another one, read-only, from the source's WAL archive ({@code archive})
 * or by streaming from its primary ({@code streaming}); exactly one of the two. Removing it promotes the cluster.
 *
 * @param cluster the source cluster's name (Spilo's {@code STANDBY_SCOPE}, the default prefix and Secret names)
 * @param superuserSecret the source's Secret whose {@code password} this cluster's superuser Secret copies
 * @param replicationSecret the source's Secret whose {@code password} this cluster's replication Secret copies
 */
public record StandbySpec(
    String cluster,
    Optional<BackupSpec.S3> archive,
    Optional<Streaming> streaming,
    String superuserSecret,
    String replicationSecret) {

  /** The source's primary, as a host this cluster's pods reach. */
  public record Streaming(String host, int port) {}

  /** {@code archive} or {@code streaming}. */
  public String method() {
    return archive.isPresent() ? "archive" : "streaming";
  }

  /** Where the WAL comes from: the archive's URL, or {@code host:port}. */
  public String location() {
    return archive
        .map(BackupSpec.S3::url)
        .orElseGet(() -> streaming.map(s -> s.host() + ":" + s.port()).orElse(""));
  }
}
