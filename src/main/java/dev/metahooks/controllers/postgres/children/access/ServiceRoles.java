package dev.metahooks.controllers.postgres.children.access;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.plan.Credentials;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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
public final class ServiceRoles {
  public static final String EXPORTER = "metahooks_exporter";
  public static final String POOLER = "metahooks_pooler";
  public static final String SCHEMA = "metahooks";
  public static final String LOOKUP_FUNCTION = SCHEMA + ".pooler_lookup";

  /** The comment that marks a role as one of the cluster's own components (not an application user). */
  public static final String MARKER = "component role managed by metahooks.dev PostgresCluster";

  /** The roles, run after users.sql in the users Job's session. */
  public static final String SQL = ResourceTexts.load("sql/component-roles.sql");

  /** The pooler's lookup function, run in each database of {@link #lookupDatabases}. */
  public static final String LOOKUP_SQL = ResourceTexts.load("sql/pooler-lookup.sql");

  /** One role: its name, and the Job variables that carry its verifier and its state (on, retired). */
  public record Role(String name, String variable, String stateVariable) {
    public String secret(String cluster) {
      return name.equals(POOLER) ? Names.poolerSecret(cluster) : Names.exporterSecret(cluster);
    }
  }

  public static final Role EXPORTER_ROLE = new Role(EXPORTER, "EXPORTER_VERIFIER", "EXPORTER_ROLE");
  public static final Role POOLER_ROLE = new Role(POOLER, "POOLER_VERIFIER", "POOLER_ROLE");

  private ServiceRoles() {}

  /** The roles the spec turns on. */
  public static List<Role> wanted(ClusterSpec spec) {
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
  public static List<Role> retired(String cluster, ClusterSpec spec, Set<String> secretNames) {
    List<Role> wanted = wanted(spec);
    return List.of(EXPORTER_ROLE, POOLER_ROLE).stream()
        .filter(role -> !wanted.contains(role) && secretNames.contains(role.secret(cluster)))
        .toList();
  }

  /**
   * What the users Job's name depends on beyond the users: each role's state and the verifier its Secret holds;
   * empty when none.
   *
   * @param secretNames the names of every Secret the answer carries
   */
  public static String identity(
      String cluster, ClusterSpec spec, Credentials credentials, Set<String> secretNames) {
    StringBuilder identity = new StringBuilder();
    for (Role role : wanted(spec)) {
      String verifier = credentials.verifierHeld(role.secret(cluster)).orElse("");
      identity.append(role.name()).append('=').append(verifier).append(';');
    }
    retired(cluster, spec, secretNames)
        .forEach(role -> identity.append(role.name()).append("=off;"));
    return identity.toString();
  }

  /**
   * Each role's state for component-roles.sql ({@code on}, {@code retired}; off when absent) and the verifiers of
   * the roles that are on, from their Secrets.
   */
  public static void env(ArrayNode env, String cluster, ClusterSpec spec, Set<String> secretNames) {
    List<Role> wanted = wanted(spec);
    for (Role role : wanted) {
      env.addObject().put("name", role.stateVariable()).put("value", "on");
      env.addObject()
          .put("name", role.variable())
          .putObject("valueFrom")
          .putObject("secretKeyRef")
          .put("name", role.secret(cluster))
          .put("key", Secrets.VERIFIER);
    }
    for (Role role : retired(cluster, spec, secretNames)) {
      env.addObject().put("name", role.stateVariable()).put("value", "retired");
    }
  }

  /**
   * The databases the pooler's lookup function goes into, with the pooler on: {@code postgres} and every database
   * of the users spec and of spec.databases (PgBouncer runs {@code auth_query} in the database the client asks for).
   */
  public static List<String> lookupDatabases(ClusterSpec spec) {
    if (!spec.pooler().enabled()) {
      return List.of();
    }
    Set<String> databases = new LinkedHashSet<>();
    databases.add("postgres");
    spec.users().forEach(user -> databases.addAll(user.databases()));
    spec.databases().forEach(database -> databases.add(database.name()));
    return List.copyOf(databases);
  }
}
