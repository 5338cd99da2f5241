package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The roles the cluster's own components log in as, created by the users Job next to the application users:
 * {@value #EXPORTER} (postgres_exporter; member of {@code pg_monitor} only) and {@value #POOLER} (PgBouncer's
 * {@code auth_user}: it may call {@value #LOOKUP_FUNCTION} and nothing else). Their names have an underscore,
 * which no application user's name can have. Each has its own Secret ({@code <n>-exporter}, {@code <n>-pooler});
 * the Job sets only the verifier. A role whose feature is turned off becomes NOLOGIN (its Secret is kept, so
 * turning it on again gives the same password).
 *
 * <p>The lookup function returns no row for any other role (a set, not a record of nulls, which PgBouncer could
 * take for a user without a password). It is SECURITY DEFINER (owned by the superuser), so that the pooler role need not read
 * {@code pg_authid} itself; it answers only for roles that can log in and are neither superuser nor replication
 * roles. PgBouncer runs {@code auth_query} in the database the client asks for, so the function is created in
 * {@code postgres} and in every database of {@code spec.users}.
 */
final class ServiceRoles {
  static final String EXPORTER = "metahooks_exporter";
  static final String POOLER = "metahooks_pooler";
  static final String SCHEMA = "metahooks";
  static final String LOOKUP_FUNCTION = SCHEMA + ".pooler_lookup";
  /** The comment that marks a role as one of the cluster's own components (not an application user). */
  static final String MARKER = "component role managed by metahooks.dev PostgresCluster";

  /** One role: its name, the Secret it logs in with, and the Job variable that carries its verifier. */
  record Role(String name, String variable) {
    String secret(String cluster) {
      return name.equals(POOLER) ? Names.poolerSecret(cluster) : Names.exporterSecret(cluster);
    }

    String psqlVariable() {
      return variable.toLowerCase();
    }
  }

  static final Role EXPORTER_ROLE = new Role(EXPORTER, "EXPORTER_VERIFIER");
  static final Role POOLER_ROLE = new Role(POOLER, "POOLER_VERIFIER");

  private ServiceRoles() {}

  /** The roles the spec turns on. */
  static List<Role> wanted(ClusterSpec spec) {
    List<Role> roles = new ArrayList<>();
    if (spec.monitoring().enabled()) {
      roles.add(EXPORTER_ROLE);
    }
    if (spec.pooler().enabled()) {
      roles.add(POOLER_ROLE);
    }
    return roles;
  }

  /** The roles turned off whose Secret still exists: they were on once, and must not log in now. */
  static List<Role> retired(String cluster, ClusterSpec spec, List<ObjectNode> secrets) {
    List<Role> wanted = wanted(spec);
    Set<String> names = secrets.stream().map(ObservedCluster::nameOf).collect(Collectors.toSet());
    return List.of(EXPORTER_ROLE, POOLER_ROLE).stream()
        .filter(role -> !wanted.contains(role) && names.contains(role.secret(cluster))).toList();
  }

  /** What the users Job's name depends on beyond the users: each role's state and credential; empty when none. */
  static String identity(String cluster, ClusterSpec spec, List<ObjectNode> secrets) {
    StringBuilder identity = new StringBuilder();
    for (Role role : wanted(spec)) {
      String verifier = secrets.stream().filter(s -> ObservedCluster.nameOf(s).equals(role.secret(cluster)))
          .findFirst().flatMap(s -> Secrets.value(s, Secrets.VERIFIER)).orElse("");
      identity.append(role.name()).append('=').append(verifier).append(';');
    }
    retired(cluster, spec, secrets).forEach(role -> identity.append(role.name()).append("=off;"));
    return identity.toString();
  }

  /** The verifiers of the wanted roles, from their Secrets. */
  static void env(ArrayNode env, String cluster, ClusterSpec spec) {
    for (Role role : wanted(spec)) {
      env.addObject().put("name", role.variable()).putObject("valueFrom").putObject("secretKeyRef")
          .put("name", role.secret(cluster)).put("key", Secrets.VERIFIER);
    }
  }

  /** psql's {@code -v} options that hand the verifiers to the SQL. */
  static String psqlVariables(ClusterSpec spec) {
    return wanted(spec).stream().map(role -> " -v \"" + role.psqlVariable() + "=$" + role.variable() + "\"")
        .collect(Collectors.joining());
  }

  /**
   * The SQL, run after the users' (in the same session, so nothing of it is logged): each wanted role with its
   * verifier and grants, each retired one NOLOGIN; the pooler's lookup function last, database by database.
   */
  static String sql(String cluster, ClusterSpec spec, List<ObjectNode> secrets) {
    StringBuilder sql = new StringBuilder();
    for (Role role : wanted(spec)) {
      sql.append("SELECT format('CREATE ROLE %I', '").append(role.name())
          .append("') WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = '").append(role.name())
          .append("') \\gexec\n");
      sql.append("ALTER ROLE ").append(role.name())
          .append(" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS CONNECTION LIMIT ")
          .append(role.name().equals(POOLER) ? 100 : 5)
          .append(" PASSWORD :'").append(role.psqlVariable()).append("';\n");
      sql.append("COMMENT ON ROLE ").append(role.name()).append(" IS '").append(MARKER).append("';\n");
      if (role.name().equals(EXPORTER)) {
        sql.append("GRANT pg_monitor TO ").append(EXPORTER).append(";\n");
      }
    }
    for (Role role : retired(cluster, spec, secrets)) {
      sql.append("SELECT format('ALTER ROLE %I NOLOGIN', rolname) FROM pg_catalog.pg_roles WHERE rolname = '")
          .append(role.name()).append("' AND rolcanlogin \\gexec\n");
    }
    if (spec.pooler().enabled()) {
      for (String database : poolerDatabases(spec)) {
        sql.append("GRANT CONNECT ON DATABASE \"").append(database).append("\" TO ").append(POOLER).append(";\n");
      }
      for (String database : poolerDatabases(spec)) {
        sql.append("\\connect \"").append(database).append("\"\n").append(lookupFunction());
      }
    }
    return sql.toString();
  }

  /** {@code postgres} and every database of the users spec. */
  static List<String> poolerDatabases(ClusterSpec spec) {
    Set<String> databases = new LinkedHashSet<>();
    databases.add("postgres");
    spec.users().forEach(user -> databases.addAll(user.databases()));
    return List.copyOf(databases);
  }

  /** The schema and function {@code auth_query} calls, in the current database; only the pooler role may use them. */
  static String lookupFunction() {
    return "CREATE SCHEMA IF NOT EXISTS " + SCHEMA + ";\n"
        + "REVOKE ALL ON SCHEMA " + SCHEMA + " FROM PUBLIC;\n"
        + "CREATE OR REPLACE FUNCTION " + LOOKUP_FUNCTION + "(i_username text, OUT usename name, OUT passwd text)"
        + " RETURNS SETOF record LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$"
        + " SELECT rolname, rolpassword FROM pg_catalog.pg_authid WHERE rolname = i_username AND rolcanlogin"
        + " AND NOT rolsuper AND NOT rolreplication $$;\n"
        + "REVOKE ALL ON FUNCTION " + LOOKUP_FUNCTION + "(text) FROM PUBLIC;\n"
        + "GRANT USAGE ON SCHEMA " + SCHEMA + " TO " + POOLER + ";\n"
        + "GRANT EXECUTE ON FUNCTION " + LOOKUP_FUNCTION + "(text) TO " + POOLER + ";\n";
  }
}
