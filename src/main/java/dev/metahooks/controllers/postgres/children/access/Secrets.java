package dev.metahooks.controllers.postgres.children.access;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.pod.TlsMounts;
import dev.metahooks.controllers.postgres.plan.Credentials;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.TlsSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The credentials: {@code <n>-superuser}, {@code <n>-replication}, {@code <n>-restapi} (Patroni's REST API) and
 * {@code <n>.<user>} per user. An application user's Secret also holds the password's SCRAM-SHA-256 verifier
 * (key {@value #VERIFIER}), computed with it from a random salt: the users Job sends only the verifier to
 * PostgreSQL, and keeping it with the password keeps every answer a function of what is observed. A password
 * is generated once, when its Secret is not observed; afterwards the observed Secret is returned as it was
 * applied, so a password never changes behind anyone's back. Observed Secrets that the spec no longer asks for
 * (a user removed from the spec) are kept as well: the role still exists in the database.
 */
public final class Secrets {
  public static final int PASSWORD_LENGTH = Credentials.PASSWORD_LENGTH;
  public static final String VERIFIER = SecretData.VERIFIER;
  public static final int SALT_LENGTH = Credentials.SALT_LENGTH;
  public static final String POOLER_URI = "pooler-uri";
  public static final String POOLER_JDBC_URI = "pooler-jdbc-uri";

  private Secrets() {}

  /**
   * Every Secret of the cluster. The application users' connection keys point at the server's certificate:
   * {@code sslmode=verify-full} with the CA the TLS Secret carries (key {@code Tls.CA}), or {@code sslmode=require}
   * without {@code spec.tls}; while the TLS Secret is missing or invalid they stay as they are.
   */
  public static List<ObjectNode> build(
      String cluster, String namespace, ClusterSpec spec, Credentials credentials, Tls.State tls) {
    List<ObjectNode> secrets = new ArrayList<>();
    Set<String> wanted = new LinkedHashSet<>();
    for (String name :
        List.of(
            Names.superuserSecret(cluster),
            Names.replicationSecret(cluster),
            Names.restApiSecret(cluster))) {
      wanted.add(name);
      String username =
          name.equals(Names.superuserSecret(cluster))
              ? Spilo.SUPERUSER
              : name.equals(Names.replicationSecret(cluster))
                  ? Spilo.REPLICATION_USER
                  : Spilo.RESTAPI_USER;
      secrets.add(
          credentials
              .keptCopy(name)
              .orElseGet(() -> credentials(cluster, name, username, credentials.password(name))));
    }
    for (ClusterSpec.User user : spec.users()) {
      String name = Names.userSecret(cluster, user.name());
      wanted.add(name);
      secrets.add(
          credentials
              .keptCopy(name)
              .orElseGet(
                  () ->
                      application(
                          cluster,
                          namespace,
                          user,
                          credentials.password(name),
                          credentials.verifier(name))));
    }
    for (ServiceRoles.Role role : ServiceRoles.wanted(spec)) {
      String name = role.secret(cluster);
      wanted.add(name);
      secrets.add(
          credentials
              .keptCopy(name)
              .orElseGet(
                  () ->
                      componentRole(
                          cluster, role, credentials.password(name), credentials.verifier(name))));
    }
    if (tls.check() == Tls.Check.VALID || tls.check() == Tls.Check.NOT_CONFIGURED) {
      Set<String> users = new HashSet<>();
      spec.users().forEach(user -> users.add(Names.userSecret(cluster, user.name())));
      secrets.stream()
          .filter(secret -> users.contains(Names.of(secret)) && secret.path("data").isObject())
          .forEach(secret -> connection((ObjectNode) secret.get("data"), tls.ca()));
    }
    Set<String> userSecrets = new HashSet<>();
    spec.users().forEach(user -> userSecrets.add(Names.userSecret(cluster, user.name())));
    String poolerHost = Names.serviceHost(Names.pooler(cluster), namespace);
    secrets.stream()
        .filter(secret -> userSecrets.contains(Names.of(secret)) && secret.path("data").isObject())
        .forEach(
            secret ->
                poolerConnection(
                    (ObjectNode) secret.get("data"), poolerHost, spec.pooler().enabled(), tls));
    credentials.applied().keySet().stream()
        .filter(name -> !wanted.contains(name))
        .forEach(name -> secrets.add(credentials.keptCopy(name).orElseThrow()));
    secrets.sort(Comparator.comparing(Names::of));
    // Marked for this cluster only, kept ones included: a standby may use them once someone gives
    // them to it too.
    secrets.forEach(secret -> SecretMarks.markOwn(secret, cluster));
    return secrets;
  }

  /** The Secrets the spec asks for, and whether each holds a verifier. */
  public static List<Credentials.Wanted> wanted(String cluster, ClusterSpec spec) {
    List<Credentials.Wanted> wanted = new ArrayList<>();
    wanted.add(new Credentials.Wanted(Names.superuserSecret(cluster), false));
    wanted.add(new Credentials.Wanted(Names.replicationSecret(cluster), false));
    wanted.add(new Credentials.Wanted(Names.restApiSecret(cluster), false));
    spec.users()
        .forEach(
            user ->
                wanted.add(new Credentials.Wanted(Names.userSecret(cluster, user.name()), true)));
    ServiceRoles.wanted(spec)
        .forEach(role -> wanted.add(new Credentials.Wanted(role.secret(cluster), true)));
    return wanted;
  }

  /** The Secrets every cluster has, whatever its users. */
  public static Set<String> clusterSecretNames(String cluster) {
    return Set.of(
        Names.superuserSecret(cluster),
        Names.replicationSecret(cluster),
        Names.restApiSecret(cluster),
        Names.exporterSecret(cluster),
        Names.poolerSecret(cluster));
  }

  /**
   * A component role's Secret ({@link ServiceRoles}): its name, password and verifier; the pooler's also holds
   * PgBouncer's auth file, which lists that one role.
   */
  public static ObjectNode componentRole(
      String cluster, ServiceRoles.Role role, String password, String verifier) {
    ObjectNode secret = credentials(cluster, role.secret(cluster), role.name(), password);
    ObjectNode data = (ObjectNode) secret.get("data");
    put(data, VERIFIER, verifier);
    if (role.equals(ServiceRoles.POOLER_ROLE)) {
      put(data, PoolerAccess.AUTH_FILE, PoolerAccess.authFile(password));
    }
    return secret;
  }

  /** A Secret with a username and a password: the superuser and the replication user. */
  public static ObjectNode credentials(
      String cluster, String name, String username, String password) {
    ObjectNode secret = secret(cluster, name);
    ObjectNode data = secret.putObject("data");
    put(data, "username", username);
    put(data, "password", password);
    return secret;
  }

  /** An application user's Secret, with everything a client needs to connect to the primary. */
  public static ObjectNode application(
      String cluster, String namespace, ClusterSpec.User user, String password, String verifier) {
    String host = Names.serviceHost(Names.primaryService(cluster), namespace);
    String port = String.valueOf(Spilo.POSTGRES_PORT);
    String dbname = user.databases().isEmpty() ? "postgres" : user.databases().get(0);
    ObjectNode secret = secret(cluster, Names.userSecret(cluster, user.name()));
    ObjectNode data = secret.putObject("data");
    put(data, "username", user.name());
    put(data, "password", password);
    put(data, VERIFIER, verifier);
    put(data, "host", host);
    put(data, "port", port);
    put(data, "dbname", dbname);
    connection(data, Optional.empty());
    return secret;
  }

  /**
   * The pooler's URIs of a user's Secret, only while the pooler is on: to its Service, {@code verify-full} against
   * the CA when the pooler serves the user's certificate (the TLS Secret is valid), {@code require} without
   * {@code spec.tls}; while the TLS Secret is missing or invalid, as they were (or {@code require} when new).
   */
  static void poolerConnection(ObjectNode data, String poolerHost, boolean enabled, Tls.State tls) {
    if (!enabled) {
      data.remove(POOLER_URI);
      data.remove(POOLER_JDBC_URI);
      return;
    }
    boolean keep =
        (tls.check() == Tls.Check.MISSING || tls.check() == Tls.Check.INVALID)
            && data.has(POOLER_URI);
    if (keep) {
      return;
    }
    String user = dataValue(data, "username");
    String password = dataValue(data, "password");
    String address = poolerHost + ":" + PoolerAccess.PORT + "/" + dataValue(data, "dbname");
    String ssl =
        tls.ca().isPresent()
            ? "sslmode=verify-full&sslrootcert=" + TlsMounts.CLIENT_CA_PATH
            : "sslmode=require";
    put(data, POOLER_URI, "postgresql://" + user + ":" + password + "@" + address + "?" + ssl);
    put(
        data,
        POOLER_JDBC_URI,
        "jdbc:postgresql://"
            + address
            + "?user="
            + user
            + "&password="
            + password
            + "&"
            + ssl
            + "&prepareThreshold=0");
  }

  /**
   * The URIs of a user's Secret, from its other keys. Spilo refuses connections without TLS; with its self-signed
   * certificate that is "require" (no verification); with the user's certificate ({@link Tls}) "verify-full"
   * against the CA, which the Secret carries as {@code ca.crt} for clients to mount at {@code Tls.CLIENT_CA_PATH}.
   */
  public static void connection(ObjectNode data, Optional<String> ca) {
    String user = dataValue(data, "username");
    String password = dataValue(data, "password");
    String address =
        dataValue(data, "host") + ":" + dataValue(data, "port") + "/" + dataValue(data, "dbname");
    String ssl =
        ca.isPresent()
            ? "sslmode=verify-full&sslrootcert=" + TlsMounts.CLIENT_CA_PATH
            : "sslmode=require";
    put(data, "uri", "postgresql://" + user + ":" + password + "@" + address + "?" + ssl);
    put(
        data,
        "jdbc-uri",
        "jdbc:postgresql://" + address + "?user=" + user + "&password=" + password + "&" + ssl);
    ca.ifPresentOrElse(pem -> put(data, TlsSpec.CA, pem), () -> data.remove(TlsSpec.CA));
  }

  private static String dataValue(ObjectNode data, String key) {
    return SecretData.value(Json.object().set("data", data), key).orElse("");
  }

  private static ObjectNode secret(String cluster, String name) {
    ObjectNode secret = Json.object().put("apiVersion", "v1").put("kind", "Secret");
    secret
        .putObject("metadata")
        .put("name", name)
        .set("labels", Labels.child(cluster, "credentials"));
    secret.put("type", "Opaque");
    return secret;
  }

  private static void put(ObjectNode data, String key, String value) {
    data.put(key, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
  }
}
