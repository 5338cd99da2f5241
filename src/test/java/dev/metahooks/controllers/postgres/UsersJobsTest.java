package dev.metahooks.controllers.postgres;

import static dev.metahooks.controllers.postgres.BuilderTestSupport.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.KubeSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

class UsersJobsTest {
  static final ClusterSpec.User APP = new ClusterSpec.User("app", List.of("app", "audit"), List.of("CREATEDB"));
  static final ClusterSpec.User BI = new ClusterSpec.User("bi", List.of(), List.of("CREATEROLE", "CREATEDB"));

  static ClusterSpec withUsers() {
    return spec(s -> {
      ObjectNode app = s.putArray("users").addObject().put("name", "app");
      app.putArray("databases").add("app").add("audit");
      app.putArray("options").add("CREATEDB");
      s.withArray("users").addObject().put("name", "bi").putArray("options").add("CREATEROLE").add("CREATEDB");
    });
  }

  @Test
  void noJobWithoutUsersOrWithoutPods() {
    assertThat(UsersJobs.build("pg", "shop", spec(s -> {}))).isEmpty();
    assertThat(UsersJobs.build("pg", "shop", spec(s -> s.put("instances", 0)
        .putArray("users").addObject().put("name", "app")))).isEmpty();
  }

  @Test
  void nameCarriesAHashOfTheUsersSpecOnly() {
    ObjectNode job = UsersJobs.build("pg", "shop", withUsers()).orElseThrow();
    KubeSchema.assertValid(job);
    assertThat(ObservedCluster.nameOf(job)).isEqualTo("pg-users-" + UsersJobs.hash(List.of(APP, BI)));
    assertThat(UsersJobs.hash(List.of(APP, BI))).hasSize(10)
        .isEqualTo(UsersJobs.hash(List.of(BI, new ClusterSpec.User("app", List.of("audit", "app"), List.of("CREATEDB")))));
    assertThat(UsersJobs.hash(List.of(APP))).isNotEqualTo(UsersJobs.hash(List.of(APP, BI)));
    assertThat(UsersJobs.hash(List.of(new ClusterSpec.User("app", List.of("app", "audit"), List.of()))))
        .isNotEqualTo(UsersJobs.hash(List.of(APP)));
  }

  @Test
  void idempotentSqlWithOptionsAndPasswordsAsVariables() {
    String sql = UsersJobs.sql(List.of(APP, BI));
    assertThat(sql).startsWith("SET log_statement = 'none';\nSET log_min_duration_statement = -1;\n")
        .contains("SELECT format('CREATE ROLE %I', 'app') WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'app') \\gexec\n")
        .contains("ALTER ROLE \"app\" WITH LOGIN NOSUPERUSER NOREPLICATION CREATEDB NOCREATEROLE PASSWORD :'password_1';\n")
        .contains("SELECT format('CREATE DATABASE %I OWNER %I', 'audit', 'app') WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_database WHERE datname = 'audit') \\gexec\n")
        .contains("ALTER DATABASE \"audit\" OWNER TO \"app\";\n")
        .contains("ALTER ROLE \"bi\" WITH LOGIN NOSUPERUSER NOREPLICATION CREATEDB CREATEROLE PASSWORD :'password_2';\n")
        .doesNotContain("DROP");
  }

  @Test
  void passwordsComeFromTheSecretsAndThePodIsNeverADatabasePod() {
    ObjectNode job = UsersJobs.build("pg", "shop", withUsers()).orElseThrow();
    assertThat(job.at("/spec/template/spec/containers/0/env").toString()).isEqualTo("["
        + "{\"name\":\"PGPASSWORD\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"pg-superuser\",\"key\":\"password\"}}},"
        + "{\"name\":\"PASSWORD_1\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"pg-app-app\",\"key\":\"password\"}}},"
        + "{\"name\":\"PASSWORD_2\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"pg-app-bi\",\"key\":\"password\"}}}]");
    assertThat(job.at("/spec/template/spec/containers/0/command/2").asText())
        .contains("-v \"password_1=$PASSWORD_1\" -v \"password_2=$PASSWORD_2\"")
        .contains("host=pg-rw.shop.svc port=5432 dbname=postgres user=postgres sslmode=require");
    ObjectNode podLabels = (ObjectNode) job.at("/spec/template/metadata/labels");
    assertThat(podLabels.has(Labels.NAME) && podLabels.has(Labels.INSTANCE)).isFalse();
    assertThat(podLabels.has(Labels.CLUSTER_NAME)).isFalse();
  }
}
