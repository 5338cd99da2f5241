package dev.metahooks.controllers.postgres.children.jobs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.children.Jobs;
import dev.metahooks.controllers.postgres.children.access.Secrets;
import dev.metahooks.controllers.postgres.children.access.ServiceRoles;
import dev.metahooks.controllers.postgres.plan.Credentials;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.kube.KubeletText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Job {@code <n>-users-<hash>}: idempotent SQL that creates or alters the application roles and their databases,
 * and the declared databases of {@code spec.databases} ({@link DeclaredDatabases}) with their schemas and
 * extensions, run with psql from the cluster's image against {@code <n>-rw} as the superuser. The name carries a hash of the
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
public final class UsersJobs {
  public static final String CONTAINER = "psql";
  public static final String SCRIPT = ResourceTexts.load("scripts/users.sh");
  public static final String USERS_SQL = ResourceTexts.load("sql/users.sql");

  /** The comment that marks a role as an application user of the cluster. */
  public static final String MARKER = "application user managed by metahooks.dev PostgresCluster";

  private UsersJobs() {}

  /**
   * The Job's name, when a Job is asked for: when there are pods to run it against and users to apply (the spec's,
   * or users removed from it whose Secrets are still there: their roles must become NOLOGIN) or component roles
   * to set. Read from what the plan decided the Secrets hold, so it is known before any Secret is rendered.
   */
  public static Optional<String> name(String cluster, ClusterSpec spec, Credentials credentials) {
    Set<String> secretNames = secretNames(cluster, spec, credentials);
    boolean removedUsers =
        secretNames.stream().anyMatch(name -> !Secrets.clusterSecretNames(cluster).contains(name));
    String serviceRoles = ServiceRoles.identity(cluster, spec, credentials, secretNames);
    if (spec.instances() == 0
        || (spec.users().isEmpty() && !removedUsers && serviceRoles.isEmpty())) {
      return Optional.empty();
    }
    List<ClusterSpec.User> users = spec.users();
    return Optional.of(
        Names.usersJob(
            cluster,
            hash(
                users,
                credentials(cluster, users, credentials),
                serviceRoles,
                DeclaredDatabases.identity(spec.databases()))));
  }

  /** The names of the Secrets an answer carries: those the spec asks for and every one observed. */
  public static Set<String> secretNames(String cluster, ClusterSpec spec, Credentials credentials) {
    Set<String> names = new TreeSet<>(credentials.applied().keySet());
    Secrets.wanted(cluster, spec).forEach(wanted -> names.add(wanted.name()));
    return names;
  }

  /**
   * The Job {@code name} (the plan's).
   *
   * @param uid the cluster's, which the declared databases' marks name (empty for a parent without one)
   * @param secretNames the names of the Secrets the answer carries (a retired component role's is among them)
   */
  public static ObjectNode build(
      String name,
      String cluster,
      String namespace,
      String uid,
      ClusterSpec spec,
      Set<String> secretNames) {
    List<ClusterSpec.User> users = spec.users();
    ObjectNode job = Jobs.job(name, cluster, Names.USERS_COMPONENT, spec.scheduling().jobs());
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("automountServiceAccountToken", false);
    ObjectNode container = Jobs.container(pod, CONTAINER, spec.image());
    ArrayNode command =
        container
            .putArray("command")
            .add("/bin/sh")
            .add("-c")
            .add(KubeletText.literal(SCRIPT))
            .add("users")
            .add(KubeletText.literal(USERS_SQL))
            .add(KubeletText.literal(ServiceRoles.SQL))
            .add(KubeletText.literal(ServiceRoles.LOOKUP_SQL))
            .add(KubeletText.literal(DeclaredDatabases.OBJECTS_SQL));
    Set<String> visited = new LinkedHashSet<>(ServiceRoles.lookupDatabases(spec));
    visited.addAll(DeclaredDatabases.names(spec));
    visited.forEach(database -> command.add(KubeletText.literal(database)));
    ArrayNode env = env(cluster, namespace, users);
    DeclaredDatabases.env(env, cluster, namespace, uid, spec.databases());
    ServiceRoles.env(env, cluster, spec, secretNames);
    container.set("env", env);
    return job;
  }

  /**
   * libpq's connection settings, then the superuser's password, the users spec as JSON ({@code USERS}) and each
   * user's verifier from its Secret, gathered in {@code VERIFIERS} (space-separated, in the order of the spec) by
   * the kubelet's own references. The connection is entirely in the environment, so pg_isready and psql connect
   * the same way: as the superuser, with TLS (Spilo refuses connections without it).
   */
  public static ArrayNode env(String cluster, String namespace, List<ClusterSpec.User> users) {
    ArrayNode env = Jobs.primaryConnection(cluster, namespace, cluster + "-users");
    env.addObject().put("name", "USERS").put("value", KubeletText.literal(usersJson(users)));
    List<String> references = new ArrayList<>();
    for (int i = 0; i < users.size(); i++) {
      secretEnv(
          env,
          verifierVariable(i),
          Names.userSecret(cluster, users.get(i).name()),
          Secrets.VERIFIER);
      references.add(KubeletText.reference(verifierVariable(i)));
    }
    if (!users.isEmpty()) {
      env.addObject().put("name", "VERIFIERS").put("value", String.join(" ", references));
    }
    return env;
  }

  /** What users.sql reads of each user, in the order of the spec. */
  public static String usersJson(List<ClusterSpec.User> users) {
    ArrayNode json = Json.array();
    for (ClusterSpec.User user : users) {
      ObjectNode entry = json.addObject().put("name", user.name());
      user.databases().forEach(entry.putArray("databases")::add);
      user.options().forEach(entry.putArray("options")::add);
      user.connect().forEach(entry.putArray("connect")::add);
    }
    return json.toString();
  }

  /** Each user's credential identity: the verifier its Secret holds (the password if it has none). */
  public static Map<String, String> credentials(
      String cluster, List<ClusterSpec.User> users, Credentials credentials) {
    Map<String, String> identities = new LinkedHashMap<>();
    for (ClusterSpec.User user : users) {
      String name = Names.userSecret(cluster, user.name());
      credentials
          .verifierHeld(name)
          .or(() -> credentials.passwordHeld(name))
          .ifPresent(identity -> identities.put(user.name(), identity));
    }
    return identities;
  }

  /**
   * A short hash of the users spec and the credentials, independent of the order users, databases and options
   * are listed in. The credentials go in only through the hash: the Job's name says nothing about them.
   */
  public static String hash(List<ClusterSpec.User> users, Map<String, String> credentials) {
    return hash(users, credentials, "");
  }

  /** {@link #hash(List, Map)}, and the component roles' state when there is any (else the same hash as without). */
  public static String hash(
      List<ClusterSpec.User> users, Map<String, String> credentials, String serviceRoles) {
    return hash(users, credentials, serviceRoles, "");
  }

  /** {@link #hash(List, Map, String)}, and the declared databases when there are any (else the same hash as without). */
  public static String hash(
      List<ClusterSpec.User> users,
      Map<String, String> credentials,
      String serviceRoles,
      String databases) {
    ArrayNode canonical = Json.array();
    users.stream()
        .sorted(Comparator.comparing(ClusterSpec.User::name))
        .forEach(
            user -> {
              ObjectNode entry = canonical.addObject().put("name", user.name());
              sorted(user.databases()).forEach(entry.putArray("databases")::add);
              sorted(user.options()).forEach(entry.putArray("options")::add);
              sorted(user.connect()).forEach(entry.putArray("connect")::add);
              entry.put("credentials", credentials.getOrDefault(user.name(), ""));
            });
    if (!serviceRoles.isEmpty()) {
      canonical.addObject().put("componentRoles", serviceRoles);
    }
    if (!databases.isEmpty()) {
      canonical.addObject().put("databases", databases);
    }
    return Names.shortHash(canonical.toString());
  }

  private static Set<String> sorted(List<String> items) {
    return new TreeSet<>(items);
  }

  private static String verifierVariable(int index) {
    return "VERIFIER_" + (index + 1);
  }

  private static void secretEnv(ArrayNode env, String name, String secretName, String key) {
    env.addObject()
        .put("name", name)
        .putObject("valueFrom")
        .putObject("secretKeyRef")
        .put("name", secretName)
        .put("key", key);
  }
}
