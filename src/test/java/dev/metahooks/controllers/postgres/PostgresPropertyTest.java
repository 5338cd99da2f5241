package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.Quantities;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testing.kube.KubeSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Properties of sync and finalize over many random valid specs and observed states, from fixed seeds so that a
 * failure is repeatable (the message names the seed): the answer is deterministic, never drops an observed
 * Secret, and its StatefulSet has {@code spec.instances} replicas, or the observed replicas while paused or
 * invalid. Random edits include invalid ones, pauses, scaling, users and parameters; random pod states include
 * failovers, rolling updates and pods that are not ready.
 */
class PostgresPropertyTest {
  private static final int RUNS = 300;
  private static final List<String> USER_NAMES =
      List.of("app", "reporting", "etl", "web-api", "audit");
  private static final List<String> PARAMETERS =
      List.of(
          "work_mem",
          "max_connections",
          "shared_buffers",
          "log_min_duration_statement",
          "statement_timeout",
          "pg_stat_statements.max");
  private static final List<String> SIZES = List.of("1Gi", "512Mi", "10Gi", "2G");

  /**
   * The children found valid so far: the schema check is a function of the object alone, and the runs render
   * many children alike (the same cluster's Services, Secrets and Roles), so each distinct one is checked once.
   */
  private static final Set<JsonNode> VALID = new HashSet<>();

  /** One random run: its random source and its world. */
  private static final class Run {
    final Random random;
    final ObservedRequests world;

    Run(long seed) {
      random = new Random(seed);
      world =
          new ObservedRequests(
              random.nextBoolean() ? "pg" : "orders-" + random.nextInt(100), randomSpec(random));
      world.hookVersion = random.nextBoolean() ? "v1" : "v2";
      if (world.hookVersion.equals("v2")) {
        // A class that does not expand: any size change stays refused (the test's own judgement
        // below).
        world.relateStorageClass("standard", false);
      }
    }
  }

  @Test
  void syncIsDeterministicKeepsSecretsAndScalesAsAsked() throws Exception {
    int[] modes = new int[3];
    for (long seed = 1; seed <= RUNS; seed++) {
      Run run = new Run(seed);
      int steps = run.random.nextInt(6);
      for (int step = 0; step < steps; step++) {
        run.world.sync();
        randomPods(run);
        randomEdit(run);
      }
      modes[check(run, seed)]++;
    }
    // The generator reaches every case: rendered, frozen with a StatefulSet, frozen before one
    // exists.
    for (int count : modes) {
      assertThat(count).as("runs per case %s", java.util.Arrays.toString(modes)).isGreaterThan(10);
    }
  }

  @Test
  void finalizeKeepsEverythingWhileProtectedAndFinishesOnlyWithoutAStatefulSet() {
    for (long seed = 1; seed <= RUNS / 3; seed++) {
      Run run = new Run(seed);
      for (int step = 0; step < 1 + run.random.nextInt(3); step++) {
        run.world.sync();
        randomPods(run);
      }
      boolean protectedCluster = run.random.nextBoolean();
      run.world.spec.put("deletionProtection", protectedCluster);
      run.world.deletionTimestamp = "2026-01-01T00:00:00Z";
      boolean frozen = protectedCluster || run.world.spec.path("paused").asBoolean();
      JsonNode answer = run.world.call(true);
      String context = "seed " + seed;
      assertThat(answer.path("children").size())
          .as(context)
          .isEqualTo(frozen ? run.world.children.size() : 0);
      assertThat(answer.path("finalized").asBoolean())
          .as(context)
          .isEqualTo(!frozen && run.world.statefulSet() == null);
      assertThat(answer.at("/status/phase").asText()).as(context).isEqualTo("Deleting");
    }
  }

  /** Checks the properties; returns 0 when rendered, 1 when frozen with a StatefulSet, 2 when frozen without. */
  private static int check(Run run, long seed) throws Exception {
    ObservedRequests world = run.world;
    String context = "seed " + seed + ", spec " + world.spec;
    String first = JsonTrees.MAPPER.writeValueAsString(world.call(false));
    String second = JsonTrees.MAPPER.writeValueAsString(world.call(false));
    assertThat(second).as("deterministic, " + context).isEqualTo(first);
    JsonNode answer = JsonTrees.MAPPER.readTree(first);

    Set<String> emitted = new HashSet<>();
    JsonNode sts = null;
    for (JsonNode child : answer.path("children")) {
      String name = child.path("metadata").path("name").asText();
      emitted.add(child.path("kind").asText() + "/" + name);
      if (!VALID.contains(child)) {
        KubeSchema.assertValid(child);
        VALID.add(child);
      }
      assertThat(
              List.of("-config", "-leader", "-failover", "-sync").stream()
                  .anyMatch(s -> name.equals(world.name + s)))
          .as("collides with a Patroni object: " + name)
          .isFalse();
      if (child.path("kind").asText().equals("StatefulSet")) {
        sts = child;
      }
    }
    for (ObjectNode secret : world.observedSecrets()) {
      assertThat(emitted)
          .as("observed Secret kept, " + context)
          .contains("Secret/" + Names.of(secret));
    }
    boolean frozen = invalid(world) || world.spec.path("paused").asBoolean();
    ObjectNode observedSts = world.statefulSet();
    if (frozen) {
      if (observedSts == null) {
        assertThat(sts).as("no StatefulSet created while frozen, " + context).isNull();
      } else {
        assertThat(sts).as(context).isNotNull();
        assertThat(sts.at("/spec/replicas").asInt())
            .as("observed replicas kept, " + context)
            .isEqualTo(observedSts.at("/spec/replicas").asInt());
      }
      assertThat(answer.path("children").size()).as(context).isEqualTo(world.children.size());
    } else {
      assertThat(sts).as(context).isNotNull();
      int instances = world.spec.path("instances").asInt(1);
      boolean primaryMoves =
          observedSts != null
              && instances > 0
              && observedSts.at("/spec/replicas").asInt() > instances
              && primaryOrdinal(world) >= instances;
      assertThat(sts.at("/spec/replicas").asInt())
          .as(
              "replicas follow spec.instances, unless the primary must "
                  + "move off a removed ordinal first, "
                  + context)
          .isEqualTo(primaryMoves ? observedSts.at("/spec/replicas").asInt() : instances);
      if (primaryMoves && !observedReadyBelow(world, instances)) {
        assertThat(answer.at("/status/rollout/step").asText()).as(context).isEqualTo("Waiting");
      } else if (primaryMoves) {
        assertThat(emitted)
            .as("a switchover Job moves the primary first, " + context)
            .anyMatch(child -> child.startsWith("Job/" + world.name + "-switchover-"));
      }
    }
    assertThat(answer.at("/status/phase").asText())
        .as(context)
        .isIn(
            "Provisioning",
            "Ready",
            "Scaling",
            "Updating",
            "Degraded",
            "Paused",
            "Hibernating",
            "Hibernated",
            "Invalid");
    return !frozen ? 0 : observedSts != null ? 1 : 2;
  }

  /**
   * The test's own judgement of the invalid edits it makes, independent of the hook's reading: instances out of
   * range, a reserved user, or a version or storage size other than the deployed StatefulSet's.
   */
  /** Whether a ready pod below {@code ordinal} could take the leader. */
  private static boolean observedReadyBelow(ObservedRequests world, int ordinal) {
    for (int i = 0; i < ordinal; i++) {
      ObjectNode pod = world.pods.get(world.name + "-" + i);
      if (pod != null
          && ObservedCluster.ready(pod)
          && !pod.path("metadata").has("deletionTimestamp")) {
        return true;
      }
    }
    return false;
  }

  /** The ordinal of the pod labelled leader, or -1. */
  private static int primaryOrdinal(ObservedRequests world) {
    for (ObjectNode pod : world.pods.values()) {
      if (Labels.LEADER.equals(pod.at("/metadata/labels/" + Labels.ROLE).asText())
          && !pod.path("metadata").has("deletionTimestamp")) {
        String name = Names.of(pod);
        return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
      }
    }
    return -1;
  }

  private static boolean invalid(ObservedRequests world) {
    JsonNode spec = world.spec;
    boolean reservedUser = false;
    for (JsonNode user : spec.path("users")) {
      reservedUser |= user.path("name").asText().equals("postgres");
    }
    boolean changed = false;
    ObjectNode sts = world.statefulSet();
    if (sts != null) {
      String deployedVersion = "";
      for (JsonNode env : sts.at("/spec/template/spec/containers/0/env")) {
        if (env.path("name").asText().equals("PGVERSION")) {
          deployedVersion = env.path("value").asText();
        }
      }
      String deployedSize =
          sts.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText();
      changed =
          !deployedVersion.equals(String.valueOf(spec.path("postgresVersion").asInt(17)))
              || !Quantities.same(deployedSize, spec.path("storage").path("size").asText("1Gi"));
    }
    return spec.path("instances").asInt(1) > 16 || reservedUser || changed;
  }

  private static ObjectNode randomSpec(Random random) {
    ObjectNode spec = Json.object();
    if (random.nextBoolean()) {
      spec.put("postgresVersion", 13 + random.nextInt(5));
    }
    spec.put(
        "instances",
        random.nextInt(6) == 0 ? 0 : 1 + random.nextInt(random.nextBoolean() ? 3 : 16));
    if (random.nextBoolean()) {
      ObjectNode storage =
          spec.putObject("storage").put("size", SIZES.get(random.nextInt(SIZES.size())));
      if (random.nextBoolean()) {
        storage.put("storageClassName", "standard");
      }
      storage
          .putObject("retentionPolicy")
          .put("whenScaled", random.nextBoolean() ? "Delete" : "Retain")
          .put("whenDeleted", random.nextBoolean() ? "Delete" : "Retain");
    }
    if (random.nextBoolean()) {
      spec.putObject("resources").putObject("limits").put("memory", (1 + random.nextInt(4)) + "Gi");
    }
    ObjectNode parameters = Json.object();
    for (String parameter : PARAMETERS) {
      if (random.nextInt(3) == 0) {
        parameters.put(parameter, String.valueOf(1 + random.nextInt(500)));
      }
    }
    if (!parameters.isEmpty()) {
      spec.putObject("postgresql").set("parameters", parameters);
    }
    ArrayNode users = JsonTrees.MAPPER.createArrayNode();
    for (String user : USER_NAMES) {
      if (random.nextInt(3) == 0) {
        ObjectNode entry = users.addObject().put("name", user);
        if (random.nextBoolean()) {
          entry
              .putArray("databases")
              .add(user.replace('-', '_'))
              .add(user.replace('-', '_') + "_archive");
        }
        if (random.nextBoolean()) {
          // CREATEROLE only where it is not refused (PostgreSQL 16 and later).
          boolean createRole =
              random.nextBoolean()
                  && spec.path("postgresVersion").asInt(17) >= SpecReader.CREATEROLE_SAFE_FROM;
          entry.putArray("options").add(createRole ? "CREATEROLE" : "CREATEDB");
        }
      }
    }
    if (!users.isEmpty()) {
      spec.set("users", users);
    }
    ObjectNode availability = spec.putObject("availability");
    availability.put(
        "podAntiAffinity", List.of("preferred", "required", "none").get(random.nextInt(3)));
    availability.put("podDisruptionBudget", random.nextBoolean());
    spec.putObject("services").putObject("replicas").put("enabled", random.nextBoolean());
    spec.put("deletionProtection", random.nextBoolean());
    if (random.nextInt(8) == 0) {
      spec.put("paused", true);
    }
    return spec;
  }

  private static void randomPods(Run run) {
    int replicas =
        run.world.statefulSet() == null ? 0 : run.world.statefulSet().at("/spec/replicas").asInt();
    Set<Integer> notReady = new HashSet<>();
    for (int i = 0; i < replicas; i++) {
      if (run.random.nextInt(4) == 0) {
        notReady.add(i);
      }
    }
    int primary = replicas == 0 || run.random.nextInt(5) == 0 ? -1 : run.random.nextInt(replicas);
    run.world.runPods(notReady, primary, run.random.nextInt(4) == 0);
    if (run.random.nextBoolean()) {
      run.world.finishUsersJob(run.random.nextInt(5) != 0);
    }
  }

  private static void randomEdit(Run run) {
    ObservedRequests world = run.world;
    boolean deployed = world.statefulSet() != null;
    switch (run.random.nextInt(9)) {
      case 0 -> world.edit(spec -> spec.put("instances", run.random.nextInt(17)));
      case 1 -> world.edit(spec -> spec.put("paused", !spec.path("paused").asBoolean()));
      case 2 ->
          world.edit(
              spec -> {
                JsonNode users = randomSpec(run.random).path("users");
                if (users.isArray()) {
                  spec.set("users", users.deepCopy());
                } else {
                  spec.remove("users");
                }
              });
      case 3 ->
          world.edit(
              spec ->
                  spec.withObjectProperty("postgresql")
                      .withObjectProperty("parameters")
                      .put(
                          PARAMETERS.get(run.random.nextInt(PARAMETERS.size())),
                          String.valueOf(run.random.nextInt(100) + 1)));
      case 4 -> {
        world.edit(spec -> spec.put("instances", 17 + run.random.nextInt(5)));
      }
      case 5 -> {
        world.edit(spec -> spec.withArray("users").addObject().put("name", "postgres"));
      }
      case 6 -> {
        if (deployed) {
          int version = world.spec.path("postgresVersion").asInt(17);
          world.edit(spec -> spec.put("postgresVersion", version == 17 ? 16 : version + 1));
        }
      }
      case 7 -> {
        if (deployed) {
          String size = world.spec.path("storage").path("size").asText("1Gi");
          world.edit(
              spec ->
                  spec.withObjectProperty("storage")
                      .put("size", size.equals("10Gi") ? "20Gi" : "10Gi"));
        }
      }
      default -> {
        // no edit: the world changes under a constant spec
      }
    }
  }

  /** Keeps the list of names used by the generator honest: all valid user names. */
  @Test
  void generatorUsesValidNames() {
    List<String> invalid = new ArrayList<>();
    for (String user : USER_NAMES) {
      if (!SpecReader.USER_NAME.matcher(user).matches()) {
        invalid.add(user);
      }
    }
    assertThat(invalid).isEmpty();
  }
}
