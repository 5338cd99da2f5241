package dev.metahooks.controllers.postgres.spec;

import static dev.metahooks.controllers.postgres.spec.SpecReaderTest.fields;
import static dev.metahooks.controllers.postgres.spec.SpecReaderTest.read;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** spec.databases as the hook reads it: the CRD's rules again, with every problem named by its field. */
class DatabaseSpecReaderTest {
  private static final Consumer<ObjectNode> USERS =
      spec -> {
        spec.putArray("users").addObject().put("name", "app").putArray("databases").add("app");
        spec.withArray("users").addObject().put("name", "bi");
      };

  private static SpecReader.Result withDatabase(Consumer<ObjectNode> database) {
    return read(USERS.andThen(spec -> database.accept(spec.putArray("databases").addObject())));
  }

  @Test
  void aDeclaredDatabaseWithEveryFieldAndTheDefaults() {
    SpecReader.Result read =
        withDatabase(
            d -> {
              d.put("name", "it's \"Ünïcødé\" -x")
                  .put("owner", "app")
                  .put("reclaimPolicy", "Delete");
              d.putArray("extensions").add("uuid-ossp").add("citext");
              d.putArray("schemas").add("billing").add("my schema");
            });
    assertThat(read.problems()).isEmpty();
    assertThat(read.spec().databases())
        .containsExactly(
            new ClusterSpec.Database(
                "it's \"Ünïcødé\" -x",
                "app",
                List.of("uuid-ossp", "citext"),
                List.of("billing", "my schema"),
                "Delete"));
    assertThat(
            withDatabase(d -> d.put("name", "x").put("owner", "bi"))
                .spec()
                .databases()
                .get(0)
                .reclaimPolicy())
        .isEqualTo("Retain");
    assertThat(read(USERS).spec().databases()).isEmpty();
  }

  @Test
  void namesAreRefusedWhenPostgresqlWouldCutOrOwnThem() {
    assertThat(fields(withDatabase(d -> d.put("name", "ü".repeat(32)).put("owner", "app"))))
        .as("64 bytes in UTF-8, though 32 characters")
        .containsExactly("spec.databases[0].name");
    assertThat(
            withDatabase(d -> d.put("name", "ü".repeat(31) + "x").put("owner", "app")).problems())
        .isEmpty();
    assertThat(fields(withDatabase(d -> d.put("name", "template1").put("owner", "app"))))
        .containsExactly("spec.databases[0].name");
    assertThat(fields(withDatabase(d -> d.put("name", "tab\there").put("owner", "app"))))
        .containsExactly("spec.databases[0].name");
    assertThat(fields(withDatabase(d -> d.put("name", "app").put("owner", "app"))))
        .as("also in users[].databases")
        .containsExactly("spec.databases[0].name");
    assertThat(
            fields(
                withDatabase(
                    d ->
                        d.put("name", "x")
                            .putArray("schemas")
                            .add("pg_x")
                            .add("information_schema")
                            .add("ok")
                            .add("ü".repeat(32)))))
        .containsExactly(
            "spec.databases[0].owner",
            "spec.databases[0].schemas[0]",
            "spec.databases[0].schemas[1]",
            "spec.databases[0].schemas[3]");
    assertThat(
            fields(
                withDatabase(
                    d -> d.put("name", "x").put("owner", "app").putArray("extensions").add("a b"))))
        .containsExactly("spec.databases[0].extensions[0]");
  }

  @Test
  void theOwnerIsAUserAndEachNameIsListedOnce() {
    assertThat(
            SpecReaderTest.read(
                    USERS.andThen(
                        spec -> {
                          spec.putArray("databases")
                              .addObject()
                              .put("name", "x")
                              .put("owner", "nobody");
                          spec.withArray("databases")
                              .addObject()
                              .put("name", "y")
                              .put("owner", "app")
                              .put("reclaimPolicy", "Drop");
                          spec.withArray("databases")
                              .addObject()
                              .put("name", "y")
                              .put("owner", "bi");
                        }))
                .problems())
        .extracting(p -> p.field() + ": " + p.message())
        .containsExactly(
            "spec.databases[0].owner: \"nobody\" is not a user of this cluster (spec.users)",
            "spec.databases[1].reclaimPolicy: must be one of Retain, Delete",
            "spec.databases[2].name: \"y\" is listed twice");
  }

  @Test
  void connectMayNameADeclaredDatabaseOfAnotherUser() {
    Consumer<ObjectNode> declared =
        USERS.andThen(
            spec ->
                spec.putArray("databases")
                    .addObject()
                    .put("name", "app reports")
                    .put("owner", "app"));
    assertThat(
            read(declared.andThen(
                    spec ->
                        ((ObjectNode) spec.withArray("users").get(1))
                            .putArray("connect")
                            .add("app reports")))
                .problems())
        .isEmpty();
    assertThat(
            fields(
                read(
                    declared.andThen(
                        spec ->
                            ((ObjectNode) spec.withArray("users").get(0))
                                .putArray("connect")
                                .add("app reports")))))
        .containsExactly("spec.users[0].connect[0]");
  }
}
