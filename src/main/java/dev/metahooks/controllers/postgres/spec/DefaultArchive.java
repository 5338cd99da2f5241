package dev.metahooks.controllers.postgres.spec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * Where a cluster archives when {@code spec.backup.s3.prefix} is not given. A new cluster archives into
 * {@code <namespace>/<name>/<uid>}: the uid is that of this incarnation, so a cluster deleted and created again
 * under the same name starts a new archive instead of overwriting the old one's WAL and pruning its backups (as
 * Zalando's operator does: {@code WAL_BUCKET_SCOPE_SUFFIX} is {@code /<uid>}, pkg/cluster/k8sres.go). A cluster
 * that archives already keeps its archive, whatever the default was when it started, as long as the bucket stays:
 * an upgrade of the hook never moves an archive.
 *
 * @param incarnation {@code <namespace>/<name>/<uid>} ({@code <namespace>/<name>} for a parent without uid)
 * @param inUse the archive the cluster uses now, {@code s3://<bucket>/<prefix>}, if any
 */
public record DefaultArchive(String incarnation, Optional<String> inUse) {

  /**
   * From the parent: its uid, and the archive its pods archive into ({@code archiving}, read from the observed
   * StatefulSet) or, without one, the archive its status names (the StatefulSet may be absent for a while, as when
   * the volumes grow).
   */
  public static DefaultArchive of(ObjectNode parent, Optional<String> archiving) {
    String namespace = parent.path("metadata").path("namespace").asText("");
    String name = parent.path("metadata").path("name").asText("");
    String uid = parent.path("metadata").path("uid").asText("");
    String location = parent.path("status").path("backup").path("location").asText("");
    String incarnation = namespace + "/" + name + (uid.isEmpty() ? "" : "/" + uid);
    return new DefaultArchive(
        incarnation, archiving.or(() -> Optional.of(location).filter(l -> !l.isEmpty())));
  }

  /** The default prefix in {@code bucket}: the one in use there, else this incarnation's. */
  public String prefix(String bucket) {
    String inBucket = "s3://" + bucket + "/";
    return inUse
        .filter(url -> url.startsWith(inBucket) && url.length() > inBucket.length())
        .map(url -> url.substring(inBucket.length()))
        .filter(prefix -> BackupSpecReader.PREFIX.matcher(prefix).matches())
        .orElse(incarnation);
  }
}
