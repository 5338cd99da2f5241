package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Job {@code <n>-users-<hash>}: idempotent SQL that creates or alters the application roles and their databases,
 * run with psql from the cluster's image against {@code <n>-rw} as the superuser. The name carries a hash of the
 * users spec, so a change runs a new Job (Jobs are OnDelete children: a Job never changes once created), and
 * deleting the Job runs it again. Removed users are not dropped: their roles may own data.
 */
final class UsersJobs {
  static final String CONTAINER = "psql";

  private UsersJobs() {}

  /** The Job, when there are users and pods to run it against. */
  static Optional<ObjectNode> build(String cluster, String namespace, ClusterSpec spec) {
    if (spec.users().isEmpty() || spec.instances() == 0) {
      return Optional.empty();
    }
    ObjectNode job = Json.object().put("apiVersion", "batch/v1").put("kind", "Job");
    job.putObject("metadata").put("name", Names.usersJob(cluster, hash(spec.users())))
        .set("labels", Labels.child(cluster, "users"));
    ObjectNode jobSpec = job.putObject("spec").put("backoffLimit", 6);
    ObjectNode template = jobSpec.putObject("template");
    // Not the database pods' labels: Services, the StatefulSet and Patroni must never select this pod.
    template.putObject("metadata").putObject("labels")
        .put(Labels.INSTANCE, cluster)
        .put(Labels.MANAGED_BY, Labels.MANAGER)
        .put(Labels.COMPONENT, "users");
    ObjectNode podSpec = template.putObject("spec")
        .put("restartPolicy", "Never")
        .put("automountServiceAccountToken", false);
    ObjectNode container = podSpec.putArray("containers").addObject()
        .put("name", CONTAINER)
        .put("image", spec.image())
        .put("imagePullPolicy", "IfNotPresent");
    ArrayNode command = container.putArray("command");
    command.add("/bin/sh").add("-c").add(script(cluster, namespace, spec.users())).add("users").add(sql(spec.users()));
    ArrayNode env = container.putArray("env");
    secretEnv(env, "PGPASSWORD", Names.superuserSecret(cluster));
    for (int i = 0; i < spec.users().size(); i++) {
      secretEnv(env, passwordVariable(i), Names.userSecret(cluster, spec.users().get(i).name()));
    }
    return Optional.of(job);
  }

  /**
   * Waits for the primary, then feeds the SQL ($1) to psql; passwords reach psql as variables from the
   * environment (filled from the Secrets), never inside the SQL text.
   */
  static String script(String cluster, String namespace, List<ClusterSpec.User> users) {
    String host = Names.serviceHost(Names.primaryService(cluster), namespace);
    StringBuilder script = new StringBuilder()
        .append("set -eu\n")
        .append("for attempt in $(seq 1 60); do pg_isready -q -h ").append(host).append(" -p ")
        .append(StatefulSets.POSTGRES_PORT).append(" && break; sleep 5; done\n")
        .append("printf '%s\\n' \"$1\" | psql -X -q -v ON_ERROR_STOP=1");
    for (int i = 0; i < users.size(); i++) {
      script.append(" -v \"").append(passwordVariable(i).toLowerCase()).append("=$").append(passwordVariable(i)).append('"');
    }
    script.append(" \"host=").append(host).append(" port=").append(StatefulSets.POSTGRES_PORT)
        .append(" dbname=postgres user=").append(StatefulSets.SUPERUSER).append(" sslmode=require connect_timeout=10\"\n");
    return script.toString();
  }

  /**
   * The SQL: every statement can run again with the same result. Statement logging is off for the session, so
   * that passwords do not reach the server log (Spilo logs DDL).
   */
  static String sql(List<ClusterSpec.User> users) {
    StringBuilder sql = new StringBuilder()
        .append("SET log_statement = 'none';\n")
        .append("SET log_min_duration_statement = -1;\n");
    for (int i = 0; i < users.size(); i++) {
      ClusterSpec.User user = users.get(i);
      String role = user.name();
      sql.append("SELECT format('CREATE ROLE %I', '").append(role)
          .append("') WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = '").append(role)
          .append("') \\gexec\n");
      sql.append("ALTER ROLE \"").append(role).append("\" WITH LOGIN NOSUPERUSER NOREPLICATION ")
          .append(user.options().contains("CREATEDB") ? "CREATEDB" : "NOCREATEDB").append(' ')
          .append(user.options().contains("CREATEROLE") ? "CREATEROLE" : "NOCREATEROLE")
          .append(" PASSWORD :'").append(passwordVariable(i).toLowerCase()).append("';\n");
      for (String database : user.databases()) {
        sql.append("SELECT format('CREATE DATABASE %I OWNER %I', '").append(database).append("', '").append(role)
            .append("') WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_database WHERE datname = '").append(database)
            .append("') \\gexec\n");
        sql.append("ALTER DATABASE \"").append(database).append("\" OWNER TO \"").append(role).append("\";\n");
      }
    }
    return sql.toString();
  }

  /** A short hash of the users spec, independent of the order users, databases and options are listed in. */
  static String hash(List<ClusterSpec.User> users) {
    ArrayNode canonical = Json.MAPPER.createArrayNode();
    users.stream().sorted(Comparator.comparing(ClusterSpec.User::name)).forEach(user -> {
      ObjectNode entry = canonical.addObject().put("name", user.name());
      new TreeSet<>(user.databases()).forEach(entry.putArray("databases")::add);
      new TreeSet<>(user.options()).forEach(entry.putArray("options")::add);
    });
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 10);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }

  private static String passwordVariable(int index) {
    return "PASSWORD_" + (index + 1);
  }

  private static void secretEnv(ArrayNode env, String name, String secretName) {
    env.addObject().put("name", name).putObject("valueFrom").putObject("secretKeyRef")
        .put("name", secretName).put("key", "password");
  }
}
