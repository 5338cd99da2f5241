package dev.metahooks.controllers.postgres.spec;

import static dev.metahooks.controllers.postgres.spec.SpecFields.stringList;

import dev.metahooks.kube.FieldReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code spec.users}: names that are not Spilo's or PostgreSQL's, each database owned by one user, options
 * that cannot bypass the cluster's safety, and {@code connect} only to another user's database.
 */
public final class UserSpecReader {
  private UserSpecReader() {}

  public static List<ClusterSpec.User> read(FieldReader spec, int version) {
    List<FieldReader> given = spec.optionalObjects("users");
    if (given.size() > SpecReader.MAX_USERS) {
      spec.report("users", "must have at most " + SpecReader.MAX_USERS + " users");
    }
    List<ClusterSpec.User> users = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Map<String, String> databaseOwners = new HashMap<>();
    for (FieldReader user : given) {
      Optional<String> read = SpecFields.required(user, "name", SpecReader.USER_NAME, 63);
      if (read.isEmpty()) {
        continue;
      }
      String name = read.get();
      if (SpecReader.RESERVED_USERS.contains(name)) {
        user.report("name", "\"" + name + "\" is reserved for Spilo or PostgreSQL");
      } else if (!names.add(name)) {
        user.report("name", "\"" + name + "\" is listed twice");
      }
      List<String> databases =
          stringList(user, "databases", SpecReader.DATABASE_NAME, SpecReader.MAX_DATABASES);
      for (int d = 0; d < databases.size(); d++) {
        String database = databases.get(d);
        if (SpecReader.RESERVED_DATABASES.contains(database)) {
          user.problems()
              .add(user.path("databases", d), "\"" + database + "\" is a system database");
        }
        String owner = databaseOwners.putIfAbsent(database, name);
        if (owner != null && !owner.equals(name)) {
          user.problems()
              .add(
                  user.path("databases", d),
                  "\"" + database + "\" is already owned by user \"" + owner + "\"");
        }
      }
      List<String> options = options(user, version);
      List<String> connect =
          stringList(user, "connect", DatabaseSpecReader.NAME, SpecReader.MAX_DATABASES);
      users.add(new ClusterSpec.User(name, databases, options, connect));
    }
    return List.copyOf(users);
  }

  /**
   * Each name in a user's {@code connect} must be a database of another user: in that user's {@code databases},
   * or declared in {@code spec.databases} with that user as its owner.
   */
  public static void checkConnect(
      FieldReader spec, List<ClusterSpec.User> users, List<ClusterSpec.Database> declared) {
    Map<String, String> owners = new HashMap<>();
    users.forEach(
        user -> user.databases().forEach(database -> owners.putIfAbsent(database, user.name())));
    declared.forEach(database -> owners.putIfAbsent(database.name(), database.owner()));
    for (int i = 0; i < users.size(); i++) {
      ClusterSpec.User user = users.get(i);
      for (int c = 0; c < user.connect().size(); c++) {
        String database = user.connect().get(c);
        String owner = owners.get(database);
        if (owner == null || owner.equals(user.name())) {
          spec.problems()
              .add(
                  spec.path("users", i) + ".connect[" + c + "]",
                  "\"" + database + "\" is not a database of another user of this cluster");
        }
      }
    }
  }

  private static List<String> options(FieldReader user, int version) {
    List<String> options = stringList(user, "options", null, SpecReader.USER_OPTIONS.size());
    for (int o = 0; o < options.size(); o++) {
      String option = options.get(o);
      if (option.equals("SUPERUSER") || option.equals("REPLICATION")) {
        user.problems()
            .add(
                user.path("options", o),
                option + " is refused: application roles must not bypass the cluster's safety");
      } else if (!SpecReader.USER_OPTIONS.contains(option)) {
        user.problems()
            .add(
                user.path("options", o),
                "must be one of "
                    + String.join(", ", SpecReader.USER_OPTIONS)
                    + " (LOGIN is implied)");
      }
    }
    if (options.contains("CREATEROLE") && version < SpecReader.CREATEROLE_SAFE_FROM) {
      user.report(
          "options",
          "CREATEROLE is refused below PostgreSQL "
              + SpecReader.CREATEROLE_SAFE_FROM
              + ": on "
              + version
              + " a CREATEROLE role can grant itself pg_execute_server_program and so become superuser");
    }
    return options;
  }
}
