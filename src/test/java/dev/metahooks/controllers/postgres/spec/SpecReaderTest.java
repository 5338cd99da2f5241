package dev.metahooks.controllers.postgres.spec;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.kube.FieldProblem;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

public class SpecReaderTest {

  public static ObjectNode parent(String name, Consumer<ObjectNode> spec) {
    ObjectNode parent = Json.object();
    parent.putObject("metadata").put("name", name).put("namespace", "shop");
    spec.accept(parent.putObject("spec"));
    return parent;
  }

  public static SpecReader.Result read(Consumer<ObjectNode> spec) {
    return SpecReader.read(parent("pg", spec));
  }

  public static List<String> fields(SpecReader.Result result) {
    return result.problems().stream().map(FieldProblem::field).toList();
  }

  @Test
  void emptySpecGetsEveryDefaultOfTheCrd() {
    SpecReader.Result result = read(spec -> {});
    assertThat(result.valid()).isTrue();
    ClusterSpec spec = result.spec();
    assertThat(spec.postgresVersion()).isEqualTo(17);
    assertThat(spec.image()).isEqualTo(ClusterSpec.DEFAULT_IMAGE);
    assertThat(spec.instances()).isEqualTo(1);
    assertThat(spec.paused()).isFalse();
    assertThat(spec.resources())
        .isEqualTo(
            json(
                "{\"requests\":{\"cpu\":\"100m\",\"memory\":\"256Mi\"},\"limits\":{\"memory\":\"512Mi\"}}"));
    assertThat(spec.storage()).isEqualTo(new ClusterSpec.Storage("1Gi", null, "Retain", "Retain"));
    assertThat(spec.parameters()).isEmpty();
    assertThat(spec.users()).isEmpty();
    assertThat(spec.availability())
        .isEqualTo(new ClusterSpec.Availability("preferred", "kubernetes.io/hostname", true));
    assertThat(spec.services()).isEqualTo(new ClusterSpec.ServiceOptions("ClusterIP", true));
    assertThat(spec.deletionProtection()).isFalse();
  }

  @Test
  void absentSpecIsTheEmptySpec() {
    ObjectNode parent = Json.object();
    parent.putObject("metadata").put("name", "pg");
    assertThat(SpecReader.read(parent)).isEqualTo(read(spec -> {}));
  }

  @Test
  void readsEveryField() {
    ClusterSpec spec =
        read(s -> {
              s.put("postgresVersion", 15)
                  .put("image", "registry.local/spilo:1")
                  .put("instances", 3)
                  .put("paused", true)
                  .put("deletionProtection", true);
              s.putObject("resources").putObject("limits").put("memory", "1Gi").put("cpu", 2);
              s.putObject("storage")
                  .put("size", "5Gi")
                  .put("storageClassName", "fast")
                  .putObject("retentionPolicy")
                  .put("whenDeleted", "Delete")
                  .put("whenScaled", "Delete");
              s.putObject("postgresql")
                  .putObject("parameters")
                  .put("work_mem", "8MB")
                  .put("max_connections", "50");
              ObjectNode user = s.putArray("users").addObject().put("name", "app");
              user.putArray("databases").add("app").add("app_audit");
              user.putArray("options").add("CREATEDB");
              s.putObject("availability")
                  .put("podAntiAffinity", "none")
                  .put("topologyKey", "topology.kubernetes.io/zone")
                  .put("podDisruptionBudget", false);
              s.putObject("services").putObject("primary").put("type", "LoadBalancer");
              s.withObjectProperty("services").putObject("replicas").put("enabled", false);
            })
            .spec();
    assertThat(spec.postgresVersion()).isEqualTo(15);
    assertThat(spec.image()).isEqualTo("registry.local/spilo:1");
    assertThat(spec.resources()).isEqualTo(json("{\"limits\":{\"cpu\":\"2\",\"memory\":\"1Gi\"}}"));
    assertThat(spec.storage())
        .isEqualTo(new ClusterSpec.Storage("5Gi", "fast", "Delete", "Delete"));
    assertThat(spec.parameters())
        .containsExactly(
            java.util.Map.entry("max_connections", "50"), java.util.Map.entry("work_mem", "8MB"));
    assertThat(spec.users())
        .containsExactly(
            new ClusterSpec.User(
                "app", List.of("app", "app_audit"), List.of("CREATEDB"), List.of()));
    assertThat(spec.availability())
        .isEqualTo(new ClusterSpec.Availability("none", "topology.kubernetes.io/zone", false));
    assertThat(spec.services()).isEqualTo(new ClusterSpec.ServiceOptions("LoadBalancer", false));
    assertThat(spec.paused()).isTrue();
    assertThat(spec.deletionProtection()).isTrue();
  }

  @Test
  void boundsAndEnums() {
    assertThat(fields(read(s -> s.put("postgresVersion", 12))))
        .containsExactly("spec.postgresVersion");
    assertThat(fields(read(s -> s.put("postgresVersion", 18))))
        .containsExactly("spec.postgresVersion");
    assertThat(fields(read(s -> s.put("instances", -1)))).containsExactly("spec.instances");
    assertThat(fields(read(s -> s.put("instances", 17)))).containsExactly("spec.instances");
    assertThat(fields(read(s -> s.put("instances", 2.5)))).containsExactly("spec.instances");
    assertThat(read(s -> s.put("instances", 3.0)).spec().instances()).isEqualTo(3);
    assertThat(fields(read(s -> s.put("instances", "3")))).containsExactly("spec.instances");
    assertThat(
            fields(
                read(
                    s -> s.putObject("services").putObject("primary").put("type", "ExternalName"))))
        .containsExactly("spec.services.primary.type");
    assertThat(
            fields(
                read(
                    s ->
                        s.putObject("storage")
                            .putObject("retentionPolicy")
                            .put("whenScaled", "Keep"))))
        .containsExactly("spec.storage.retentionPolicy.whenScaled");
    assertThat(fields(read(s -> s.putObject("availability").put("podAntiAffinity", "always"))))
        .containsExactly("spec.availability.podAntiAffinity");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1Gi", "1GB", "ten", "1.5.2Gi", ""})
  void storageSizeMustBeAPositiveQuantity(String size) {
    assertThat(fields(read(s -> s.putObject("storage").put("size", size))))
        .contains("spec.storage.size");
  }

  @Test
  void resourceValuesMustBeQuantities() {
    assertThat(fields(read(s -> s.putObject("resources").putObject("requests").put("cpu", "lots"))))
        .containsExactly("spec.resources.requests.cpu");
    assertThat(fields(read(s -> s.putObject("resources").putObject("requests").put("cpu", true))))
        .containsExactly("spec.resources.requests.cpu");
  }

  @Test
  void reservedAndMalformedUsers() {
    for (String reserved : SpecReader.RESERVED_USERS) {
      assertThat(fields(read(s -> s.putArray("users").addObject().put("name", reserved))))
          .containsExactly("spec.users[0].name");
    }
    assertThat(fields(read(s -> s.putArray("users").addObject().put("name", "App"))))
        .containsExactly("spec.users[0].name");
    assertThat(fields(read(s -> s.putArray("users").addObject().put("name", "my_app"))))
        .containsExactly("spec.users[0].name");
    assertThat(fields(read(s -> s.putArray("users").addObject())))
        .containsExactly("spec.users[0].name");
    assertThat(
            fields(
                read(
                    s -> {
                      s.putArray("users").addObject().put("name", "app");
                      s.withArray("users").addObject().put("name", "app");
                    })))
        .containsExactly("spec.users[1].name");
  }

  @Test
  void superuserAndReplicationAreRefusedWithAClearMessage() {
    SpecReader.Result result =
        read(
            s ->
                s.putArray("users")
                    .addObject()
                    .put("name", "app")
                    .putArray("options")
                    .add("SUPERUSER")
                    .add("REPLICATION"));
    assertThat(result.problems())
        .extracting(FieldProblem::toString)
        .containsExactly(
            "spec.users[0].options[0]: SUPERUSER is refused: application roles must not bypass the cluster's safety",
            "spec.users[0].options[1]: REPLICATION is refused: application roles must not bypass the cluster's safety");
    assertThat(
            fields(
                read(
                    s ->
                        s.putArray("users")
                            .addObject()
                            .put("name", "app")
                            .putArray("options")
                            .add("LOGIN"))))
        .containsExactly("spec.users[0].options[0]");
  }

  @Test
  void databasesAreOwnedOnceAndNeverSystemDatabases() {
    assertThat(
            fields(
                read(
                    s -> {
                      s.putArray("users")
                          .addObject()
                          .put("name", "a")
                          .putArray("databases")
                          .add("shared");
                      s.withArray("users")
                          .addObject()
                          .put("name", "b")
                          .putArray("databases")
                          .add("shared");
                    })))
        .containsExactly("spec.users[1].databases[0]");
    assertThat(
            fields(
                read(
                    s ->
                        s.putArray("users")
                            .addObject()
                            .put("name", "a")
                            .putArray("databases")
                            .add("template1"))))
        .containsExactly("spec.users[0].databases[0]");
    assertThat(
            fields(
                read(
                    s ->
                        s.putArray("users")
                            .addObject()
                            .put("name", "a")
                            .putArray("databases")
                            .add("My-DB"))))
        .containsExactly("spec.users[0].databases[0]");
  }

  @Test
  void parametersAreStringsAndNotManagedByPatroni() {
    assertThat(
            fields(read(s -> s.putObject("postgresql").putObject("parameters").put("work_mem", 4))))
        .containsExactly("spec.postgresql.parameters.work_mem");
    assertThat(
            fields(
                read(
                    s ->
                        s.putObject("postgresql")
                            .putObject("parameters")
                            .put("listen_addresses", "*"))))
        .containsExactly("spec.postgresql.parameters.listen_addresses");
    assertThat(
            fields(
                read(
                    s -> s.putObject("postgresql").putObject("parameters").put("Work Mem", "4MB"))))
        .containsExactly("spec.postgresql.parameters.Work Mem");
    assertThat(
            read(s ->
                    s.putObject("postgresql")
                        .putObject("parameters")
                        .put("pg_stat_statements.max", "1000"))
                .valid())
        .isTrue();
  }

  @Test
  void clusterNameMustFitEveryChildName() {
    assertThat(fields(SpecReader.read(parent("a".repeat(41), s -> {}))))
        .containsExactly("metadata.name");
    assertThat(SpecReader.read(parent("a".repeat(40), s -> {})).valid()).isTrue();
    assertThat(fields(SpecReader.read(parent("9lives", s -> {})))).containsExactly("metadata.name");
  }

  @Test
  void anUnreadableDeletionProtectionCountsAsOn() {
    SpecReader.Result result = read(s -> s.put("deletionProtection", "false"));
    assertThat(fields(result)).containsExactly("spec.deletionProtection");
    assertThat(result.spec().deletionProtection()).isTrue();
  }

  @Test
  void anUnreadablePausedCountsAsPaused() {
    SpecReader.Result result = read(s -> s.put("paused", 0));
    assertThat(result.spec().paused()).isTrue();
  }

  @Test
  void wrongShapesAreProblemsNotExceptions() {
    assertThat(fields(SpecReader.read(parent("pg", s -> {}).put("spec", "x"))))
        .containsExactly("spec");
    assertThat(fields(read(s -> s.put("storage", 1)))).containsExactly("spec.storage");
    assertThat(fields(read(s -> s.put("users", "app")))).containsExactly("spec.users");
    assertThat(fields(read(s -> s.putArray("users").add("app")))).contains("spec.users[0]");
    assertThat(fields(read(s -> s.putObject("postgresql").put("parameters", "x"))))
        .containsExactly("spec.postgresql.parameters");
  }

  @Test
  void everyProblemIsListedNotJustTheFirst() {
    assertThat(fields(read(s -> s.put("instances", 99).put("postgresVersion", 9).put("image", ""))))
        .containsExactly("spec.postgresVersion", "spec.image", "spec.instances");
  }

  @Test
  void createRoleIsRefusedBelowPostgres16() {
    for (int version = 13; version <= 17; version++) {
      int v = version;
      SpecReader.Result result =
          read(
              s ->
                  s.put("postgresVersion", v)
                      .putArray("users")
                      .addObject()
                      .put("name", "app")
                      .putArray("options")
                      .add("CREATEROLE"));
      if (version < 16) {
        assertThat(fields(result)).as("version %d", v).containsExactly("spec.users[0].options");
        assertThat(result.problems().get(0).message()).contains("pg_execute_server_program");
      } else {
        assertThat(result.problems()).as("version %d", v).isEmpty();
      }
    }
  }

  @Test
  void parametersThatBreakOrLeakAreRefusedAndNamed() {
    for (String name :
        List.of(
            "listen_addresses",
            "port",
            "archive_command",
            "pg_stat_statements.track_utility",
            "primary_conninfo",
            "synchronous_standby_names",
            "restore_command")) {
      assertThat(
              fields(read(s -> s.putObject("postgresql").putObject("parameters").put(name, "x"))))
          .containsExactly("spec.postgresql.parameters." + name);
    }
    assertThat(
            fields(
                read(
                    s ->
                        s.putObject("postgresql")
                            .putObject("parameters")
                            .put("wal_level", "minimal"))))
        .containsExactly("spec.postgresql.parameters.wal_level");
    assertThat(
            read(s -> s.putObject("postgresql").putObject("parameters").put("wal_level", "logical"))
                .problems())
        .isEmpty();
    assertThat(
            fields(
                read(
                    s ->
                        s.putObject("postgresql")
                            .putObject("parameters")
                            .put("shared_preload_libraries", "a;b"))))
        .containsExactly("spec.postgresql.parameters.shared_preload_libraries");
    assertThat(
            read(s ->
                    s.putObject("postgresql")
                        .putObject("parameters")
                        .put("shared_preload_libraries", "pg_partman_bgw, auto_explain"))
                .problems())
        .isEmpty();
  }

  @Test
  void aMemoryLimitIsAlwaysSetAndOneTooSmallIsRefused() {
    assertThat(
            read(s -> s.putObject("resources").putObject("requests").put("cpu", "1"))
                .spec()
                .resources()
                .at("/limits/memory")
                .asText())
        .isEqualTo(SpecReader.DEFAULT_MEMORY_LIMIT);
    assertThat(
            read(s -> s.putObject("resources").putObject("requests").put("memory", "2Gi"))
                .spec()
                .resources()
                .at("/limits/memory")
                .asText())
        .as("a larger request is the limit")
        .isEqualTo("2Gi");
    assertThat(
            fields(read(s -> s.putObject("resources").putObject("limits").put("memory", "128Mi"))))
        .containsExactly("spec.resources.limits.memory");
    assertThat(
            fields(
                read(
                    s -> {
                      ObjectNode resources = s.putObject("resources");
                      resources.putObject("requests").put("memory", "2Gi");
                      resources.putObject("limits").put("memory", "1Gi");
                    })))
        .containsExactly("spec.resources.requests.memory");
  }

  @Test
  void connectNamesOnlyDatabasesOfOtherUsers() {
    java.util.function.Consumer<ObjectNode> users =
        s -> {
          s.putArray("users").addObject().put("name", "app").putArray("databases").add("app");
          s.withArray("users").addObject().put("name", "bi").putArray("connect").add("app");
        };
    assertThat(read(users).problems()).isEmpty();
    assertThat(read(users).spec().users().get(1).connect()).containsExactly("app");
    assertThat(
            fields(
                read(
                    users.andThen(
                        s ->
                            ((ObjectNode) s.withArray("users").get(0))
                                .putArray("connect")
                                .add("app")))))
        .containsExactly("spec.users[0].connect[0]");
    assertThat(
            fields(
                read(
                    users.andThen(
                        s ->
                            ((ObjectNode) s.withArray("users").get(1))
                                .putArray("connect")
                                .add("other")))))
        .containsExactly("spec.users[1].connect[0]");
  }

  @Test
  void strictSynchronousModeNeedsOneInstanceMoreThanItsSynchronousStandbys() {
    Consumer<ObjectNode> strictTwo =
        spec ->
            spec.putObject("patroni")
                .putObject("synchronous")
                .put("mode", "strict")
                .put("nodeCount", 2);
    for (int instances : new int[] {0, 1, 2}) {
      assertThat(fields(read(strictTwo.andThen(spec -> spec.put("instances", instances)))))
          .as("%d instances", instances)
          .containsExactly("spec.patroni.synchronous.mode");
    }
    assertThat(read(strictTwo.andThen(spec -> spec.put("instances", 3))).problems()).isEmpty();
    assertThat(
            read(spec -> spec.putObject("patroni").putObject("synchronous").put("mode", "strict"))
                .problems())
        .extracting(FieldProblem::toString)
        .containsExactly(
            "spec.patroni.synchronous.mode: strict needs at least 2 "
                + "instances (1 + nodeCount), not 1: without a synchronous standby streaming every commit waits; use "
                + "sync, or raise instances");
    assertThat(
            read(spec -> spec.putObject("patroni").putObject("synchronous").put("mode", "sync"))
                .problems())
        .as("sync drops back to asynchronous commits without a standby")
        .isEmpty();
  }

  @Test
  void patroniSettingsDefaultToFailsafeWithoutSynchronousReplication() {
    assertThat(read(spec -> {}).spec().patroni())
        .isEqualTo(new ClusterSpec.Patroni(true, "async", 1));
    ClusterSpec.Patroni strict =
        read(spec ->
                spec.putObject("patroni")
                    .put("failsafeMode", false)
                    .putObject("synchronous")
                    .put("mode", "strict")
                    .put("nodeCount", 2))
            .spec()
            .patroni();
    assertThat(strict).isEqualTo(new ClusterSpec.Patroni(false, "strict", 2));
    assertThat(strict.synchronous()).isTrue();
    // kubectl's YAML reads an unquoted off as false: refused with the values that work.
    SpecReader.Result yamlOff =
        read(spec -> spec.putObject("patroni").putObject("synchronous").put("mode", false));
    assertThat(yamlOff.problems())
        .extracting(FieldProblem::toString)
        .containsExactly("spec.patroni.synchronous.mode: must be one of async, sync, strict");
    assertThat(
            fields(
                read(
                    spec ->
                        spec.putObject("patroni").putObject("synchronous").put("nodeCount", 0))))
        .containsExactly("spec.patroni.synchronous.nodeCount");
  }

  @Test
  void maintenanceWindowsAreReadAndCheckedAsTheCrdChecksThem() {
    ClusterSpec.Updates updates =
        read(spec ->
                spec.putObject("updates")
                    .putArray("maintenanceWindows")
                    .add(window("01:00", "03:00", "Sat", "Sun"))
                    .add(window("23:30", "00:30")))
            .spec()
            .updates();
    assertThat(updates.maintenanceWindows())
        .containsExactly(
            new MaintenanceWindows.Window(
                java.util.EnumSet.of(java.time.DayOfWeek.SATURDAY, java.time.DayOfWeek.SUNDAY),
                java.time.LocalTime.of(1, 0),
                java.time.LocalTime.of(3, 0)),
            new MaintenanceWindows.Window(
                java.util.EnumSet.allOf(java.time.DayOfWeek.class),
                java.time.LocalTime.of(23, 30),
                java.time.LocalTime.of(0, 30)));
    assertThat(
            fields(
                read(
                    spec ->
                        spec.putObject("updates")
                            .putArray("maintenanceWindows")
                            .add(window("1:00", "24:00", "Saturday"))
                            .add(window("02:00", "02:00")))))
        .containsExactly(
            "spec.updates.maintenanceWindows[0].days[0]",
            "spec.updates.maintenanceWindows[0].start",
            "spec.updates.maintenanceWindows[0].end",
            "spec.updates.maintenanceWindows[1].end");
    assertThat(
            fields(
                read(
                    spec ->
                        spec.putObject("updates")
                            .put("method", "restart")
                            .putArray("maintenanceWindows")
                            .add(window("01:00", "03:00")))))
        .containsExactly("spec.updates.maintenanceWindows");
  }

  private static ObjectNode window(String start, String end, String... days) {
    ObjectNode window = Json.object().put("start", start).put("end", end);
    if (days.length > 0) {
      java.util.Arrays.stream(days).forEach(window.putArray("days")::add);
    }
    return window;
  }
}
