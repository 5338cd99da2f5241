package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Job {@code <n>-users-<hash>}: idempotent SQL that creates or alters the application roles and their databases,
 * run with psql from the cluster's image against {@code <n>-rw} as the superuser. The name carries a hash of the
 * users spec and of each user's credentials (the password's verifier), so a change of either runs a new Job
 * (Jobs are OnDelete children: a Job never changes once created), and deleting the Job runs it again. The same
 * Job creates the roles of the cluster's own components ({@link ServiceRoles}: the exporter's, the pooler's) when
 * those are on; their state and verifiers then go into the hash too.
 *
 * <p>What the SQL guarantees: no password in the SQL text (only SCRAM-SHA-256 verifiers, and the session logs
 * no statement and tracks no utility statement); each role carries a comment that marks it as the cluster's;
 * a marked role no longer in the spec becomes NOLOGIN (never dropped: it may own data); each database the spec
 * lists can be connected to by its owner and by the users that list it in {@code connect}, nobody else but the
 * superuser.
 */
final class UsersJobs {
  static final String CONTAINER = "psql";
  /** The comment that marks a role as an application user of the cluster. */
  static final String MARKER = "application user managed by metahooks.dev PostgresCluster";

  private UsersJobs() {}

  /**
   * The Job, when there are pods to run it against and users to apply: the spec's, or users removed from it
   * whose Secrets are still there (their roles must become NOLOGIN).
   *
   * @param secrets the Secrets this answer renders (the users' verifiers are read from them)
   */
  static Optional<ObjectNode> build(String cluster, String namespace, ClusterSpec spec, List<ObjectNode> secrets) {
    boolean removedUsers = secrets.stream().map(ObservedCluster::nameOf)
        .anyMatch(name -> !Secrets.clusterSecretNames(cluster).contains(name));
    String serviceRoles = ServiceRoles.identity(cluster, spec, secrets);
    if (spec.instances() == 0 || (spec.users().isEmpty() && !removedUsers && serviceRoles.isEmpty())) {
      return Optional.empty();
    }
    List<ClusterSpec.User> users = spec.users();
    ObjectNode job = Jobs.job(Names.usersJob(cluster, hash(users, credentials(cluster, users, secrets), serviceRoles)),
        cluster, "users");
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("automountServiceAccountToken", false);
    ObjectNode container = Jobs.container(pod, CONTAINER, spec.image());
    container.putArray("command").add("/bin/sh").add("-c")
        .add(script(users.size(), ServiceRoles.psqlVariables(spec))).add("users")
        .add(sql(users) + ServiceRoles.sql(cluster, spec, secrets));
    ArrayNode env = env(cluster, namespace, users);
    ServiceRoles.env(env, cluster, spec);
    container.set("env", env);
    return Optional.of(job);
  }

  /**
   * libpq's connection settings, then the superuser's password and each user's verifier from the Secrets. The
   * connection is entirely in the environment, so pg_isready and psql connect the same way: as the superuser,
   * with TLS (Spilo refuses connections without it).
   */
  static ArrayNode env(String cluster, String namespace, List<ClusterSpec.User> users) {
    ArrayNode env = Jobs.primaryConnection(cluster, namespace, cluster + "-users");
    for (int i = 0; i < users.size(); i++) {
      secretEnv(env, verifierVariable(i), Names.userSecret(cluster, users.get(i).name()), Secrets.VERIFIER);
    }
    return env;
  }

  /** Waits for the primary, then feeds the SQL ($1) to psql; the verifiers reach psql as variables. */
  static String script(int users) {
    return script(users, "");
  }

  /** {@link #script(int)}, with more psql {@code -v} options (the component roles' verifiers). */
  static String script(int users, String moreVariables) {
    StringBuilder script = new StringBuilder()
        .append("set -eu\n")
        .append("for attempt in $(seq 1 60); do pg_isready -q && break; sleep 5; done\n")
        .append("printf '%s\\n' \"$1\" | psql -X -q -v ON_ERROR_STOP=1");
    for (int i = 0; i < users; i++) {
      script.append(" -v \"").append(verifierVariable(i).toLowerCase()).append("=$").append(verifierVariable(i)).append('"');
    }
    return script.append(moreVariables).append('\n').toString();
  }

  /** The SQL: every statement can run again with the same result. */
  static String sql(List<ClusterSpec.User> users) {
    // Nothing of this session reaches the server log or pg_stat_statements (the settings need the superuser).
    StringBuilder sql = new StringBuilder()
        .append("SET log_statement = 'none';\n")
        .append("SET log_min_duration_statement = -1;\n")
        .append("SET log_min_error_statement = 'panic';\n")
        .append("SET pg_stat_statements.track_utility = off;\n");
    for (int i = 0; i < users.size(); i++) {
      ClusterSpec.User user = users.get(i);
      String role = user.name();
      sql.append("SELECT format('CREATE ROLE %I', '").append(role)
          .append("') WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = '").append(role)
          .append("') \\gexec\n");
      sql.append("ALTER ROLE \"").append(role).append("\" WITH LOGIN NOSUPERUSER NOREPLICATION NOBYPASSRLS ")
          .append(user.options().contains("CREATEDB") ? "CREATEDB" : "NOCREATEDB").append(' ')
          .append(user.options().contains("CREATEROLE") ? "CREATEROLE" : "NOCREATEROLE")
          .append(" PASSWORD :'").append(verifierVariable(i).toLowerCase()).append("';\n");
      sql.append("COMMENT ON ROLE \"").append(role).append("\" IS '").append(MARKER).append("';\n");
      for (String database : user.databases()) {
        sql.append("SELECT format('CREATE DATABASE %I OWNER %I', '").append(database).append("', '").append(role)
            .append("') WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_database WHERE datname = '").append(database)
            .append("') \\gexec\n");
        sql.append("ALTER DATABASE \"").append(database).append("\" OWNER TO \"").append(role).append("\";\n");
        sql.append("REVOKE CONNECT ON DATABASE \"").append(database).append("\" FROM PUBLIC;\n");
      }
    }
    // Once every role exists: who else may connect to each database.
    for (ClusterSpec.User owner : users) {
      for (String database : owner.databases()) {
        List<String> allowed = users.stream().filter(u -> u.connect().contains(database)).map(ClusterSpec.User::name).toList();
        sql.append("SELECT format('REVOKE CONNECT ON DATABASE %I FROM %I', '").append(database)
            .append("', rolname) FROM (").append(markedRoles()).append(") marked WHERE rolname <> ALL (")
            .append(array(concat(owner.name(), allowed))).append(") \\gexec\n");
        for (String user : allowed) {
          sql.append("GRANT CONNECT ON DATABASE \"").append(database).append("\" TO \"").append(user).append("\";\n");
        }
      }
    }
    sql.append("SELECT format('ALTER ROLE %I NOLOGIN', rolname) FROM (").append(markedRoles())
        .append(") marked WHERE rolcanlogin AND rolname <> ALL (")
        .append(array(users.stream().map(ClusterSpec.User::name).toList())).append(") \\gexec\n");
    return sql.toString();
  }

  /** The roles that carry {@link #MARKER}. */
  private static String markedRoles() {
    return "SELECT r.rolname, r.rolcanlogin FROM pg_catalog.pg_roles r JOIN pg_catalog.pg_shdescription d"
        + " ON d.objoid = r.oid AND d.classoid = 'pg_catalog.pg_authid'::pg_catalog.regclass WHERE d.description = '"
        + MARKER + "'";
  }

  private static List<String> concat(String first, List<String> rest) {
    return Stream.concat(Stream.of(first), rest.stream()).toList();
  }

  /** A text[] literal; the names are validated identifiers without quotes. */
  private static String array(List<String> names) {
    return names.stream().map(n -> "'" + n + "'").collect(Collectors.joining(", ", "ARRAY[", "]::text[]"));
  }

  /** Each user's credential identity: the verifier in its rendered Secret (the password if it has none). */
  static Map<String, String> credentials(String cluster, List<ClusterSpec.User> users, List<ObjectNode> secrets) {
    Map<String, String> credentials = new LinkedHashMap<>();
    for (ClusterSpec.User user : users) {
      String name = Names.userSecret(cluster, user.name());
      secrets.stream().filter(s -> ObservedCluster.nameOf(s).equals(name)).findFirst()
          .flatMap(s -> Secrets.value(s, Secrets.VERIFIER).or(() -> Secrets.value(s, "password")))
          .ifPresent(identity -> credentials.put(user.name(), identity));
    }
    return credentials;
  }

  /**
   * A short hash of the users spec and the credentials, independent of the order users, databases and options
   * are listed in. The credentials go in only through the hash: the Job's name says nothing about them.
   */
  static String hash(List<ClusterSpec.User> users, Map<String, String> credentials) {
    return hash(users, credentials, "");
  }

  /** {@link #hash(List, Map)}, and the component roles' state when there is any (else the same hash as without). */
  static String hash(List<ClusterSpec.User> users, Map<String, String> credentials, String serviceRoles) {
    ArrayNode canonical = Json.MAPPER.createArrayNode();
    users.stream().sorted(Comparator.comparing(ClusterSpec.User::name)).forEach(user -> {
      ObjectNode entry = canonical.addObject().put("name", user.name());
      sorted(user.databases()).forEach(entry.putArray("databases")::add);
      sorted(user.options()).forEach(entry.putArray("options")::add);
      sorted(user.connect()).forEach(entry.putArray("connect")::add);
      entry.put("credentials", credentials.getOrDefault(user.name(), ""));
    });
    if (!serviceRoles.isEmpty()) {
      canonical.addObject().put("componentRoles", serviceRoles);
    }
    return Jobs.shortHash(canonical.toString());
  }

  private static Set<String> sorted(List<String> items) {
    return new TreeSet<>(items);
  }

  private static String verifierVariable(int index) {
    return "VERIFIER_" + (index + 1);
  }

  private static void secretEnv(ArrayNode env, String name, String secretName, String key) {
    env.addObject().put("name", name).putObject("valueFrom").putObject("secretKeyRef")
        .put("name", secretName).put("key", key);
  }
}
