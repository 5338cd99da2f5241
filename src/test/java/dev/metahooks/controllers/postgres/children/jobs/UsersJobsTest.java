package dev.metahooks.controllers.postgres.children.jobs;

import static dev.metahooks.controllers.postgres.BuilderTestSupport.spec;
import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.BuilderTestSupport;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Scram;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.children.access.Secrets;
import dev.metahooks.controllers.postgres.children.access.ServiceRoles;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.plan.Credentials;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.Kubelet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UsersJobsTest {
  static final ClusterSpec.User APP =
      new ClusterSpec.User("app", List.of("app", "audit"), List.of("CREATEDB"), List.of());
  static final ClusterSpec.User BI =
      new ClusterSpec.User("bi", List.of(), List.of("CREATEDB"), List.of("app"));

  static ClusterSpec withUsers() {
    return spec(
        s -> {
          ObjectNode app = s.putArray("users").addObject().put("name", "app");
          app.putArray("databases").add("app").add("audit");
          app.putArray("options").add("CREATEDB");
          ObjectNode bi = s.withArray("users").addObject().put("name", "bi");
          bi.putArray("options").add("CREATEDB");
          bi.putArray("connect").add("app");
        });
  }

  @Test
  void noJobWithoutUsersOrWithoutPods() {
    assertThat(job(spec(s -> {}), List.of())).isEmpty();
    assertThat(
            job(
                spec(s -> s.put("instances", 0).putArray("users").addObject().put("name", "app")),
                List.of()))
        .isEmpty();
  }

  @Test
  void aJobStaysWhileRemovedUsersHaveSecretsSoTheirRolesBecomeNologin() {
    ObjectNode kept =
        Secrets.application("pg", "shop", APP, "pw", Scram.verifier("pw", new byte[16]));
    ObjectNode superuser = Secrets.credentials("pg", Names.superuserSecret("pg"), "postgres", "pw");
    assertThat(job(spec(s -> {}), List.of(superuser))).isEmpty();
    ObjectNode job = job(spec(s -> {}), List.of(superuser, kept)).orElseThrow();
    // No user is wanted: users.sql makes every marked role NOLOGIN (UsersJobPostgresIT runs it).
    assertThat(
            Kubelet.pod(job.at("/spec/template/spec"))
                .objects(List.of(superuser, kept))
                .container(UsersJobs.CONTAINER)
                .environment())
        .containsEntry("USERS", "[]")
        .doesNotContainKey("VERIFIERS");
  }

  @Test
  void nameCarriesAHashOfTheUsersSpecAndTheCredentials() {
    ObjectNode job = job(withUsers(), List.of()).orElseThrow();
    KubeSchema.assertValid(job);
    assertThat(Names.of(job)).isEqualTo("pg-users-" + UsersJobs.hash(List.of(APP, BI), Map.of()));
    assertThat(UsersJobs.hash(List.of(APP, BI), Map.of()))
        .hasSize(10)
        .isEqualTo(
            UsersJobs.hash(
                List.of(
                    BI,
                    new ClusterSpec.User(
                        "app", List.of("audit", "app"), List.of("CREATEDB"), List.of())),
                Map.of()));
    assertThat(UsersJobs.hash(List.of(APP), Map.of()))
        .isNotEqualTo(UsersJobs.hash(List.of(APP, BI), Map.of()));
    assertThat(
            UsersJobs.hash(
                List.of(new ClusterSpec.User("app", List.of("app", "audit"), List.of(), List.of())),
                Map.of()))
        .isNotEqualTo(UsersJobs.hash(List.of(APP), Map.of()));
    assertThat(UsersJobs.hash(List.of(APP), Map.of("app", "SCRAM-SHA-256$4096:a$b:c")))
        .as("a new password (its verifier) runs the Job again")
        .isNotEqualTo(UsersJobs.hash(List.of(APP), Map.of("app", "SCRAM-SHA-256$4096:d$e:f")));
    ObjectNode secret =
        Secrets.application("pg", "shop", APP, "pw", Scram.verifier("pw", new byte[16]));
    assertThat(UsersJobs.credentials("pg", List.of(APP), applied(List.of(secret))))
        .containsExactly(
            Map.entry("app", SecretData.value(secret, Secrets.VERIFIER).orElseThrow()));
  }

  @Test
  void theNameStaysOnceTheSecretsItWasNamedFromAreCreated() {
    ClusterSpec spec =
        spec(
            s -> {
              s.putArray("users").addObject().put("name", "app");
              s.putObject("pooler").put("enabled", true);
            });
    ObservedCluster nothing = new ObservedRequests("pg", Json.object()).observed();
    Credentials decided =
        Credentials.decide(
            "pg", "shop", spec, nothing, Secrets.wanted("pg", spec), FixedSources.INSTANCE);
    assertThat(decided.passwords()).containsKeys("pg.app", "pg-pooler");
    Credentials kept =
        applied(Secrets.build("pg", "shop", spec, decided, BuilderTestSupport.NO_TLS));
    assertThat(UsersJobs.name("pg", spec, kept))
        .isPresent()
        .isEqualTo(UsersJobs.name("pg", spec, decided));
    assertThat(UsersJobs.name("pg", spec, applied(List.of())))
        .as("another verifier, another name")
        .isNotEqualTo(UsersJobs.name("pg", spec, decided));
  }

  @Test
  void theScriptAndTheSqlFilesReachTheProcessUnchangedAndEveryNameAsData() {
    ObjectNode job = job(withUsers(), List.of()).orElseThrow();
    Kubelet.Container container =
        Kubelet.pod(job.at("/spec/template/spec"))
            .objects(
                List.of(
                    verifierSecret("pg.app", "SCRAM-SHA-256$4096:a$b:c"),
                    verifierSecret("pg.bi", "SCRAM-SHA-256$4096:d$e:f"),
                    verifierSecret("pg-superuser", "unused")))
            .container(UsersJobs.CONTAINER);
    assertThat(container.argv())
        .containsExactly(
            "/bin/sh",
            "-c",
            UsersJobs.SCRIPT,
            "users",
            UsersJobs.USERS_SQL,
            ServiceRoles.SQL,
            ServiceRoles.LOOKUP_SQL,
            DeclaredDatabases.OBJECTS_SQL);
    assertThat(container.environment())
        .containsEntry("USERS", UsersJobs.usersJson(List.of(APP, BI)))
        .containsEntry("DATABASES", "[]")
        .containsEntry("DATABASE_MARK", "database managed by metahooks.dev PostgresCluster shop/pg")
        .containsEntry("VERIFIERS", "SCRAM-SHA-256$4096:a$b:c SCRAM-SHA-256$4096:d$e:f");
    assertThat(container.unresolvedReferences()).isEmpty();
  }

  /** The Job as an answer renders it, with {@code observed} the cluster's Secrets, kept as applied. */
  private static Optional<ObjectNode> job(ClusterSpec spec, List<ObjectNode> observed) {
    Credentials credentials = applied(observed);
    return UsersJobs.name("pg", spec, credentials)
        .map(
            name ->
                UsersJobs.build(
                    name, "pg", "shop", "", spec, UsersJobs.secretNames("pg", spec, credentials)));
  }

  /** Credentials that keep {@code secrets} as applied and create nothing. */
  private static Credentials applied(List<ObjectNode> secrets) {
    Map<String, ObjectNode> applied = new LinkedHashMap<>();
    secrets.forEach(secret -> applied.put(Names.of(secret), secret));
    return new Credentials(applied, Map.of(), Map.of());
  }

  private static ObjectNode verifierSecret(String name, String verifier) {
    ObjectNode secret = Json.object().put("apiVersion", "v1").put("kind", "Secret");
    secret.putObject("metadata").put("name", name);
    String encoded =
        java.util.Base64.getEncoder()
            .encodeToString(verifier.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    secret.putObject("data").put(Secrets.VERIFIER, encoded).put("password", encoded);
    return secret;
  }

  @Test
  void theConnectionIsInTheEnvironmentAndThePodIsNeverADatabasePod() {
    ObjectNode job = job(withUsers(), List.of()).orElseThrow();
    assertThat(job.at("/spec/template/spec/containers/0/env"))
        .isEqualTo(
            json(
                "["
                    + "{\"name\":\"PGHOST\",\"value\":\"pg-rw.shop.svc\"},{\"name\":\"PGPORT\",\"value\":\"5432\"},"
                    + "{\"name\":\"PGUSER\",\"value\":\"postgres\"},{\"name\":\"PGDATABASE\",\"value\":\"postgres\"},"
                    + "{\"name\":\"PGSSLMODE\",\"value\":\"require\"},{\"name\":\"PGCONNECT_TIMEOUT\",\"value\":\"10\"},"
                    + "{\"name\":\"PGAPPNAME\",\"value\":\"pg-users\"},"
                    + "{\"name\":\"PGPASSWORD\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"pg-superuser\",\"key\":\"password\"}}},"
                    + "{\"name\":\"USERS\",\"value\":\""
                    + UsersJobs.usersJson(List.of(APP, BI)).replace("\"", "\\\"")
                    + "\"},"
                    + "{\"name\":\"VERIFIER_1\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"pg.app\",\"key\":\"verifier\"}}},"
                    + "{\"name\":\"VERIFIER_2\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"pg.bi\",\"key\":\"verifier\"}}},"
                    + "{\"name\":\"VERIFIERS\",\"value\":\"$(VERIFIER_1) $(VERIFIER_2)\"},"
                    + "{\"name\":\"DATABASES\",\"value\":\"[]\"},"
                    + "{\"name\":\"DATABASE_MARK\",\"value\":\"database managed by metahooks.dev PostgresCluster shop/pg\"}]"));
    ObjectNode podLabels = (ObjectNode) job.at("/spec/template/metadata/labels");
    assertThat(podLabels.has(Labels.NAME) && podLabels.has(Labels.INSTANCE)).isFalse();
    assertThat(podLabels.has(Labels.CLUSTER_NAME)).isFalse();
    assertThat(job.at("/spec/template/spec/securityContext/runAsNonRoot").asBoolean()).isTrue();
  }
}
