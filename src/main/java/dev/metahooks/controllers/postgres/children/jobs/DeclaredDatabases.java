package dev.metahooks.controllers.postgres.children.jobs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.kube.KubeletText;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * What the users Job needs of {@code spec.databases}: the declared databases as JSON ({@code DATABASES}, read by
 * users.sql and database-objects.sql), the comment that marks them as this cluster's ({@code DATABASE_MARK}: the
 * reclaimPolicy is kept with the database, so that a removed entry is dropped only when it said so), and their
 * identity in the Job's hash.
 */
public final class DeclaredDatabases {
  public static final String OBJECTS_SQL = ResourceTexts.load("sql/database-objects.sql");

  private DeclaredDatabases() {}

  /**
   * The mark of the cluster's declared databases. It names the namespace, the cluster and its incarnation (the
   * cluster's uid), so neither a cluster restored from another's backup under another name nor one restored under
   * the same name (a new uid) ever drops a database the backup holds: a physical restore copies the marks, and the
   * users Job acts only on its own incarnation's (users.sql). The mark written before marks named the incarnation
   * is {@link #mark(String, String)}.
   */
  public static String mark(String cluster, String namespace, String uid) {
    return uid.isEmpty()
        ? mark(cluster, namespace)
        : mark(cluster, namespace) + INCARNATION + uid + ")";
  }

  /** The mark without an incarnation, as earlier versions wrote it (a parent without uid gets it too). */
  public static String mark(String cluster, String namespace) {
    return "database managed by metahooks.dev PostgresCluster " + namespace + "/" + cluster;
  }

  /** What separates the cluster from its uid in a mark (users.sql splits on it). */
  static final String INCARNATION = " (incarnation ";

  /** Adds {@code DATABASES} and {@code DATABASE_MARK} (always: removed entries may need the mark). */
  public static void env(
      ArrayNode env,
      String cluster,
      String namespace,
      String uid,
      List<ClusterSpec.Database> databases) {
    env.addObject()
        .put("name", "DATABASES")
        .put("value", KubeletText.literal(json(databases).toString()));
    env.addObject()
        .put("name", "DATABASE_MARK")
        .put("value", KubeletText.literal(mark(cluster, namespace, uid)));
  }

  /** The declared databases in the order of the spec. */
  public static ArrayNode json(List<ClusterSpec.Database> databases) {
    ArrayNode json = Json.array();
    databases.forEach(database -> entry(json, database, database.extensions(), database.schemas()));
    return json;
  }

  /** What the Job's name hashes of them, independent of the order they are listed in; empty when none is declared. */
  public static String identity(List<ClusterSpec.Database> databases) {
    if (databases.isEmpty()) {
      return "";
    }
    ArrayNode json = Json.array();
    databases.stream()
        .sorted(Comparator.comparing(ClusterSpec.Database::name))
        .forEach(
            database ->
                entry(
                    json,
                    database,
                    new TreeSet<>(database.extensions()),
                    new TreeSet<>(database.schemas())));
    return json.toString();
  }

  /** The declared databases' names: the Job visits each one for its schemas and extensions. */
  public static List<String> names(ClusterSpec spec) {
    return spec.databases().stream().map(ClusterSpec.Database::name).toList();
  }

  private static void entry(
      ArrayNode json,
      ClusterSpec.Database database,
      Iterable<String> extensions,
      Iterable<String> schemas) {
    ObjectNode entry = json.addObject().put("name", database.name()).put("owner", database.owner());
    extensions.forEach(entry.putArray("extensions")::add);
    schemas.forEach(entry.putArray("schemas")::add);
    entry.put("reclaimPolicy", database.reclaimPolicy());
  }
}
