package dev.metahooks.controllers.postgres;

import static dev.metahooks.controllers.postgres.BuilderTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.KubeSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsersJobsTest {
  static final ClusterSpec.User APP = new ClusterSpec.User("app", List.of("app", "audit"), List.of("CREATEDB"), List.of());
  static final ClusterSpec.User BI = new ClusterSpec.User("bi", List.of(), List.of("CREATEDB"), List.of("app"));

  static ClusterSpec withUsers() {
    return spec(s -> {
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
    assertThat(UsersJobs.build("pg", "shop", spec(s -> {}), List.of())).isEmpty();
    assertThat(UsersJobs.build("pg", "shop", spec(s -> s.put("instances", 0)
        .putArray("users").addObject().put("name", "app")), List.of())).isEmpty();
  }

  @Test
  void aJobStaysWhileRemovedUsersHaveSecretsSoTheirRolesBecomeNologin() {
    ObjectNode kept = Secrets.application("pg", "shop", APP, "pw", new byte[16]);
    ObjectNode superuser = Secrets.credentials("pg", Names.superuserSecret("pg"), "postgres", "pw");
    assertThat(UsersJobs.build("pg", "shop", spec(s -> {}), List.of(superuser))).isEmpty();
    ObjectNode job = UsersJobs.build("pg", "shop", spec(s -> {}), List.of(superuser, kept)).orElseThrow();
    assertThat(job.at("/spec/template/spec/containers/0/command/4").asText())
        .contains("SELECT format('ALTER ROLE %I NOLOGIN', rolname) FROM (SELECT r.rolname, r.rolcanlogin FROM")
        .contains("WHERE rolcanlogin AND rolname <> ALL (ARRAY[]::text[]) \\gexec");
  }

  @Test
  void nameCarriesAHashOfTheUsersSpecAndTheCredentials() {
    ObjectNode job = UsersJobs.build("pg", "shop", withUsers(), List.of()).orElseThrow();
    KubeSchema.assertValid(job);
    assertThat(ObservedCluster.nameOf(job)).isEqualTo("pg-users-" + UsersJobs.hash(List.of(APP, BI), Map.of()));
    assertThat(UsersJobs.hash(List.of(APP, BI), Map.of())).hasSize(10)
        .isEqualTo(UsersJobs.hash(List.of(BI, new ClusterSpec.User("app", List.of("audit", "app"), List.of("CREATEDB"),
            List.of())), Map.of()));
    assertThat(UsersJobs.hash(List.of(APP), Map.of())).isNotEqualTo(UsersJobs.hash(List.of(APP, BI), Map.of()));
    assertThat(UsersJobs.hash(List.of(new ClusterSpec.User("app", List.of("app", "audit"), List.of(), List.of())), Map.of()))
        .isNotEqualTo(UsersJobs.hash(List.of(APP), Map.of()));
    assertThat(UsersJobs.hash(List.of(APP), Map.of("app", "SCRAM-SHA-256$4096:a$b:c")))
        .as("a new password (its verifier) runs the Job again")
        .isNotEqualTo(UsersJobs.hash(List.of(APP), Map.of("app", "SCRAM-SHA-256$4096:d$e:f")));
    ObjectNode secret = Secrets.application("pg", "shop", APP, "pw", new byte[16]);
    assertThat(UsersJobs.credentials("pg", List.of(APP), List.of(secret)))
        .containsExactly(Map.entry("app", Secrets.value(secret, Secrets.VERIFIER).orElseThrow()));
  }

  @Test
  void idempotentSqlWithVerifiersOnlyAndASilentSession() {
    String sql = UsersJobs.sql(List.of(APP, BI));
    assertThat(sql).startsWith("SET log_statement = 'none';\nSET log_min_duration_statement = -1;\n"
            + "SET log_min_error_statement = 'panic';\nSET pg_stat_statements.track_utility = off;\n")
        .contains("SELECT format('CREATE ROLE %I', 'app') WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'app') \\gexec\n")
        .contains("ALTER ROLE \"app\" WITH LOGIN NOSUPERUSER NOREPLICATION NOBYPASSRLS CREATEDB NOCREATEROLE PASSWORD :'verifier_1';\n")
        .contains("COMMENT ON ROLE \"app\" IS '" + UsersJobs.MARKER + "';\n")
        .contains("SELECT format('CREATE DATABASE %I OWNER %I', 'audit', 'app') WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_database WHERE datname = 'audit') \\gexec\n")
        .contains("ALTER DATABASE \"audit\" OWNER TO \"app\";\nREVOKE CONNECT ON DATABASE \"audit\" FROM PUBLIC;\n")
        .contains("ALTER ROLE \"bi\" WITH LOGIN NOSUPERUSER NOREPLICATION NOBYPASSRLS CREATEDB NOCREATEROLE PASSWORD :'verifier_2';\n")
        .contains("rolname <> ALL (ARRAY['app', 'bi']::text[]) \\gexec\nGRANT CONNECT ON DATABASE \"app\" TO \"bi\";\n")
        .contains("rolname <> ALL (ARRAY['app']::text[]) \\gexec\n")
        .doesNotContain("DROP");
  }

  @Test
  void theConnectionIsInTheEnvironmentAndThePodIsNeverADatabasePod() {
    ObjectNode job = UsersJobs.build("pg", "shop", withUsers(), List.of()).orElseThrow();
    assertThat(job.at("/spec/template/spec/containers/0/env").toString()).isEqualTo("["
        + "{\"name\":\"PGHOST\",\"value\":\"pg-rw.shop.svc\"},{\"name\":\"PGPORT\",\"value\":\"5432\"},"
        + "{\"name\":\"PGUSER\",\"value\":\"postgres\"},{\"name\":\"PGDATABASE\",\"value\":\"postgres\"},"
        + "{\"name\":\"PGSSLMODE\",\"value\":\"require\"},{\"name\":\"PGCONNECT_TIMEOUT\",\"value\":\"10\"},"
        + "{\"name\":\"PGAPPNAME\",\"value\":\"pg-users\"},"
        + "{\"name\":\"PGPASSWORD\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"pg-superuser\",\"key\":\"password\"}}},"
        + "{\"name\":\"VERIFIER_1\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"pg.app\",\"key\":\"verifier\"}}},"
        + "{\"name\":\"VERIFIER_2\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"pg.bi\",\"key\":\"verifier\"}}}]");
    assertThat(job.at("/spec/template/spec/containers/0/command/2").asText())
        .isEqualTo("set -eu\nfor attempt in $(seq 1 60); do pg_isready -q && break; sleep 5; done\n"
            + "printf '%s\\n' \"$1\" | psql -X -q -v ON_ERROR_STOP=1 -v \"verifier_1=$VERIFIER_1\" -v \"verifier_2=$VERIFIER_2\"\n");
    ObjectNode podLabels = (ObjectNode) job.at("/spec/template/metadata/labels");
    assertThat(podLabels.has(Labels.NAME) && podLabels.has(Labels.INSTANCE)).isFalse();
    assertThat(podLabels.has(Labels.CLUSTER_NAME)).isFalse();
    assertThat(job.at("/spec/template/spec/securityContext/runAsNonRoot").asBoolean()).isTrue();
  }
}
