package dev.metahooks.controllers.postgres.spec;

import static dev.metahooks.controllers.postgres.spec.SpecFields.oneOf;

import dev.metahooks.kube.FieldReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads {@code spec.databases}: databases with an owner among the cluster's users, the extensions and schemas to
 * create in them, and what happens when an entry is removed ({@code reclaimPolicy}, Retain by default). A name is
 * any PostgreSQL identifier text (spaces, quotes, Unicode): it reaches SQL only as data, quoted by {@code %I}.
 */
public final class DatabaseSpecReader {
  public static final int MAX_DATABASES = 32;
  public static final int MAX_ITEMS = 32;

  /** PostgreSQL keeps at most 63 bytes of a name (NAMEDATALEN 64) and cuts longer ones silently. */
  public static final int MAX_NAME_BYTES = 63;

  /** Any text without control characters (they would break the Job's logs and a shell's view of the names). */
  public static final Pattern NAME = Pattern.compile("[^\\x00-\\x1f\\x7f]+");

  /** Extension names as their control files are named ({@code uuid-ossp}, {@code postgis_topology}). */
  public static final Pattern EXTENSION = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  public static final List<String> RECLAIM_POLICIES = List.of("Retain", "Delete");

  private DatabaseSpecReader() {}

  public static List<ClusterSpec.Database> read(FieldReader spec, List<ClusterSpec.User> users) {
    List<FieldReader> given = spec.optionalObjects("databases");
    if (given.size() > MAX_DATABASES) {
      spec.report("databases", "must have at most " + MAX_DATABASES + " databases");
    }
    Set<String> userDatabases = new LinkedHashSet<>();
    users.forEach(user -> userDatabases.addAll(user.databases()));
    Set<String> names = new LinkedHashSet<>();
    List<ClusterSpec.Database> databases = new ArrayList<>();
    for (FieldReader database : given) {
      Optional<String> name = name(database, "name");
      Optional<String> owner = SpecFields.required(database, "owner", SpecReader.USER_NAME, 63);
      List<String> extensions = SpecFields.stringList(database, "extensions", EXTENSION, MAX_ITEMS);
      List<String> schemas = schemas(database);
      String policy = oneOf(database, "reclaimPolicy", "Retain", RECLAIM_POLICIES);
      name.ifPresent(
          n -> {
            if (SpecReader.RESERVED_DATABASES.contains(n)) {
              database.report("name", "\"" + n + "\" is a system database");
            } else if (!names.add(n)) {
              database.report("name", "\"" + n + "\" is listed twice");
            } else if (userDatabases.contains(n)) {
              database.report(
                  "name", "\"" + n + "\" is also in users[].databases: list it in one place");
            }
          });
      owner.ifPresent(
          o -> {
            if (users.stream().noneMatch(user -> user.name().equals(o))) {
              database.report("owner", "\"" + o + "\" is not a user of this cluster (spec.users)");
            }
          });
      if (name.isPresent() && owner.isPresent()) {
        databases.add(
            new ClusterSpec.Database(name.get(), owner.get(), extensions, schemas, policy));
      }
    }
    return List.copyOf(databases);
  }

  private static List<String> schemas(FieldReader database) {
    List<String> schemas = SpecFields.stringList(database, "schemas", NAME, MAX_ITEMS);
    for (int i = 0; i < schemas.size(); i++) {
      String schema = schemas.get(i);
      if (schema.startsWith("pg_") || schema.equals("information_schema")) {
        database
            .problems()
            .add(
                database.path("schemas", i),
                "\"" + schema + "\" is reserved for PostgreSQL's own schemas");
      } else if (bytes(schema) > MAX_NAME_BYTES) {
        database
            .problems()
            .add(
                database.path("schemas", i),
                "must be at most " + MAX_NAME_BYTES + " bytes in UTF-8");
      }
    }
    return schemas;
  }

  private static Optional<String> name(FieldReader r, String field) {
    Optional<String> name = SpecFields.required(r, field, NAME, MAX_NAME_BYTES);
    if (name.isPresent() && bytes(name.get()) > MAX_NAME_BYTES) {
      r.report(
          field, "must be at most " + MAX_NAME_BYTES + " bytes in UTF-8 (PostgreSQL would cut it)");
      return Optional.empty();
    }
    return name;
  }

  private static int bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
