package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.BackupSpecReader;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.kube.FieldProblem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Archives stay in their namespace. A cluster writes only inside {@code <namespace>/} (its default archive is
 * {@code <namespace>/<name>/<uid>}), never at the namespace's root, which encloses every cluster's archive; of the
 * prefixes inside, two clusters never share or nest one ({@link PrefixClaims}). It reads a source (clone, logical
 * restore, standby) only under {@code <namespace>/}. Beyond that, only
 * under the roots the platform team allows for every namespace ({@value #ENVIRONMENT}, comma-separated prefixes):
 * a setting of the hook server, never of the spec, because a spec is written by whoever may edit one
 * PostgresCluster, and the store's credentials (or the pods' own identity) may reach every namespace's archives.
 */
public record ArchiveScope(List<String> roots) {
  public static final String ENVIRONMENT = "METAHOOKS_POSTGRES_ARCHIVE_ROOTS";

  /** Nothing beyond the namespace. */
  public static final ArchiveScope NAMESPACE = new ArchiveScope(List.of());

  public ArchiveScope {
    roots = List.copyOf(roots);
  }

  /** The roots of {@value #ENVIRONMENT}; an unreadable one stops the server from starting. */
  public static ArchiveScope fromEnvironment() {
    return parse(Optional.ofNullable(System.getenv(ENVIRONMENT)).orElse(""));
  }

  /** Comma-separated prefixes, each as {@code spec.backup.s3.prefix} takes them. */
  public static ArchiveScope parse(String text) {
    List<String> roots =
        Arrays.stream(text.split(",")).map(String::trim).filter(root -> !root.isEmpty()).toList();
    for (String root : roots) {
      if (!BackupSpecReader.PREFIX.matcher(root).matches()
          || Arrays.asList(root.split("/")).contains("..")) {
        throw new IllegalArgumentException(
            ENVIRONMENT
                + ": \""
                + root
                + "\" is not a prefix such as "
                + "shared/archives (letters, digits, _ . -, segments joined by /)");
      }
    }
    return new ArchiveScope(roots);
  }

  /** The prefixes of {@code spec} outside what the cluster may write or read. */
  public List<FieldProblem> check(
      ClusterSpec spec, JsonNode parent, String namespace, String name) {
    List<FieldProblem> problems = new ArrayList<>();
    BackupSpec backups = spec.backups();
    // Only a prefix given: the default lies under <namespace>/<name>, or is the archive in use,
    // which never moves.
    if (parent.at("/spec/backup/s3/prefix").isTextual()) {
      backups
          .backup()
          .map(backup -> backup.s3().prefix())
          .filter(prefix -> !allowed(prefix, namespace, true))
          .ifPresent(
              prefix ->
                  problems.add(
                      new FieldProblem(
                          "spec.backup.s3.prefix",
                          "\""
                              + prefix
                              + "\" is not "
                              + "inside "
                              + namespace
                              + "/ (such as "
                              + namespace
                              + "/"
                              + name
                              + "): a cluster archives only inside "
                              + "its own namespace, never at its root"
                              + beyond())));
    }
    backups
        .cloneFrom()
        .flatMap(BackupSpec.Clone::s3)
        .ifPresent(s3 -> source(problems, "spec.bootstrap.clone.s3.prefix", s3, namespace));
    backups
        .logicalRestore()
        .ifPresent(
            logical ->
                source(problems, "spec.bootstrap.logical.s3.prefix", logical.s3(), namespace));
    spec.standby()
        .flatMap(standby -> standby.archive())
        .ifPresent(s3 -> source(problems, "spec.standby.s3.prefix", s3, namespace));
    return problems;
  }

  private void source(
      List<FieldProblem> problems, String field, BackupSpec.S3 s3, String namespace) {
    if (!allowed(s3.prefix(), namespace, false)) {
      problems.add(
          new FieldProblem(
              field,
              "\""
                  + s3.prefix()
                  + "\" is not under "
                  + namespace
                  + "/: a cluster "
                  + "reads only archives of its own namespace"
                  + beyond()));
    }
  }

  /** Under {@code namespace} ({@code inside}: strictly, below its root), or under an allowed root. */
  private boolean allowed(String prefix, String namespace, boolean inside) {
    boolean inNamespace = inside ? prefix.startsWith(namespace + "/") : under(prefix, namespace);
    return inNamespace || roots.stream().anyMatch(root -> under(prefix, root));
  }

  private static boolean under(String prefix, String base) {
    return prefix.equals(base) || prefix.startsWith(base + "/");
  }

  private String beyond() {
    return roots.isEmpty()
        ? " (the hook server's " + ENVIRONMENT + " can allow shared roots)"
        : " or under " + String.join(", ", roots) + " (" + ENVIRONMENT + ")";
  }
}
