package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.jobs.ParameterJobs;
import dev.metahooks.controllers.postgres.children.jobs.Switchovers;
import dev.metahooks.controllers.postgres.children.pod.StatefulSets;
import dev.metahooks.controllers.postgres.plan.ManualSwitchover;
import dev.metahooks.controllers.postgres.plan.ParameterPatch;
import dev.metahooks.controllers.postgres.plan.PatroniSettings;
import dev.metahooks.controllers.postgres.plan.Rollout;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.PatroniCluster;
import dev.metahooks.testsupport.PatroniVersion;
import dev.metahooks.testsupport.PostgresServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The switchover and parameters Jobs' scripts, exactly as the hook renders them (command, environment names,
 * credentials from the {@code <n>-restapi} Secret the hook generated; only PATRONI_URL points at a local member),
 * run against a real two-member Patroni cluster with etcd, whose REST API is protected the way the rendered
 * SPILO_CONFIGURATION protects it; on each {@link PatroniVersion}.
 */
@ParameterizedClass
@EnumSource(PatroniVersion.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
// The versions at once, each on a cluster of its own; within a version the tests run in order, one
// at a time (each is SAME_THREAD: the version's thread).
@Execution(ExecutionMode.CONCURRENT)
class PatroniJobsIT {
  /** The hook's view of the cluster and the Patroni cluster that runs it. */
  private record Started(ObservedRequests world, PatroniCluster patroni) {}

  /** Each version's cluster, started once for that version's tests; the versions run at once. */
  private static final Map<PatroniVersion, Started> STARTED = new ConcurrentHashMap<>();

  @Parameter PatroniVersion version;

  private ObservedRequests world;
  private PatroniCluster patroni;

  @BeforeEach
  void attach() {
    Started started = STARTED.get(version);
    world = started.world();
    patroni = started.patroni();
  }

  @BeforeParameterizedClassInvocation
  static void startPatroni(PatroniVersion version) {
    ObjectNode spec = Json.object().put("instances", 2);
    spec.putObject("postgresql")
        .putObject("parameters")
        .put("work_mem", "16MB")
        .put("shared_buffers", "24MB")
        .put("application_name", "costs $(PGPASSWORD) $$5");
    ObservedRequests world = new ObservedRequests("orders", spec);
    world.sync();
    JsonNode restapi = spiloConfiguration(world).path("restapi").path("authentication");
    assertThat(restapi.path("username").asText()).isEqualTo(Spilo.RESTAPI_USER);
    assertThat(restapi.path("password").asText())
        .isEqualTo("$(" + StatefulSets.RESTAPI_PASSWORD_VARIABLE + ")");
    // The availability settings as the rendered bootstrap configuration gives them (failsafe on by
    // default).
    ObjectNode availability = Json.object();
    PatroniSettings.KEYS.forEach(
        key ->
            availability.set(
                key, spiloConfiguration(world).path("bootstrap").path("dcs").get(key)));
    assertThat(availability.path("failsafe_mode").asBoolean()).isTrue();
    STARTED.put(
        version,
        new Started(
            world,
            PatroniCluster.start(
                version,
                "orders",
                2,
                restapi.path("username").asText(),
                restApiPassword(world),
                Map.of("shared_buffers", "16MB", "max_connections", "30"),
                availability)));
  }

  @AfterParameterizedClassInvocation
  static void stopPatroni(PatroniVersion version) {
    Started started = STARTED.remove(version);
    if (started != null) {
      started.patroni().close();
    }
  }

  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  void theRenderedJobMovesTheLeaderToTheCandidateAndAWrongOneFailsTheJob() {
    String leader = patroni.leader().orElseThrow();
    String candidate = leader.equals("orders-0") ? "orders-1" : "orders-0";

    // A candidate Patroni does not know: 412, the Job fails, nothing moves.
    PostgresServer.Result refused = run(job(leader, "orders-7"), Map.of());
    assertThat(refused.exitCode()).as(refused.output()).isNotZero();
    assertThat(refused.output()).contains("HTTP 412", "candidate does not exists");
    assertThat(patroni.leader()).contains(leader);

    // A wrong password: 401, the Job fails.
    PostgresServer.Result unauthorized =
        run(job(leader, candidate), Map.of("PATRONI_PASSWORD", "not-the-password"));
    assertThat(unauthorized.exitCode()).as(unauthorized.output()).isNotZero();
    assertThat(unauthorized.output()).contains("HTTP 401");
    assertThat(patroni.leader()).contains(leader);

    // Without credentials at all: refused as well.
    PatroniCluster.Response anonymous =
        patroni.unauthenticated(
            patroni.index(leader),
            "POST",
            "/switchover",
            "{\"leader\":\"" + leader + "\",\"candidate\":\"" + candidate + "\"}");
    assertThat(anonymous.status()).isEqualTo(401);

    // As rendered: Patroni answers once the candidate holds the leader lock.
    PostgresServer.Result moved = run(job(leader, candidate), Map.of());
    assertSwitchedOver(moved, candidate);
    assertThat(patroni.leader()).contains(candidate);
    // The old leader rejoins as a streaming replica: the next step of a rollout can update it.
    patroni.await(
        Duration.ofSeconds(60), "the old leader streaming", c -> c.streamingReplicas() == 1);

    // The same Job again (a retry after the leader moved) fails without moving anything.
    PostgresServer.Result again = run(job(leader, candidate), Map.of());
    assertThat(again.exitCode()).isNotZero();
    assertThat(again.output()).contains("HTTP 412", "leader name does not match");
    assertThat(patroni.leader()).contains(candidate);
  }

  /**
   * 2 → 1 with the leader on orders-1: the hook holds the StatefulSet at two and renders a switchover Job to
   * orders-0; run as rendered, it moves the leader there, and only then does the hook shrink the StatefulSet.
   */
  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  void aScaleDownThatRemovesTheLeaderRendersASwitchoverJobThatMovesItToAPodThatStays() {
    if (patroni.leader().orElseThrow().equals("orders-0")) {
      assertThat(run(job("orders-0", "orders-1"), Map.of()).exitCode()).isZero();
    }
    patroni.await(Duration.ofSeconds(60), "orders-0 streaming", c -> c.streamingReplicas() == 1);
    assertThat(patroni.leader()).contains("orders-1");

    ObservedRequests scaling = availabilityWorld(spec -> {});
    scaling.runPods(java.util.Set.of(), 1, false);
    scaling.sync();
    scaling.edit(spec -> spec.put("instances", 1));
    JsonNode held = scaling.sync();
    assertThat(scaling.statefulSet().at("/spec/replicas").asInt())
        .as("held while the leader moves")
        .isEqualTo(2);
    assertThat(held.at("/status/rollout/step").asText()).isEqualTo("ScaleDownSwitchover");
    ObjectNode switchover =
        scaling.children.entrySet().stream()
            .filter(e -> e.getKey().startsWith("Job/orders-switchover-"))
            .map(Map.Entry::getValue)
            .findFirst()
            .orElseThrow();

    PostgresServer.Result moved = run(switchover, Map.of());
    assertSwitchedOver(moved, "orders-0");
    assertThat(patroni.leader()).contains("orders-0");
    patroni.await(Duration.ofSeconds(60), "orders-1 streaming", c -> c.streamingReplicas() == 1);

    scaling.runPods(java.util.Set.of(), 0, false);
    scaling.sync();
    assertThat(scaling.statefulSet().at("/spec/replicas").asInt())
        .as("the leader moved: now it shrinks")
        .isEqualTo(1);
    assertThat(scaling.children.keySet())
        .noneMatch(key -> key.startsWith("Job/orders-switchover-"));
  }

  /**
   * A switchover on request, as the hook renders it for the annotation: to a member that is not ready it renders
   * nothing and says why; to the other member, a Job that moves the leader there.
   */
  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  void aSwitchoverOnRequestRendersAJobThatMovesTheLeaderToTheNamedMember() {
    patroni.await(Duration.ofSeconds(60), "a streaming replica", c -> c.streamingReplicas() == 1);
    String leader = patroni.leader().orElseThrow();
    int leaderOrdinal = leader.equals("orders-0") ? 0 : 1;
    String target = leaderOrdinal == 0 ? "orders-1" : "orders-0";
    ObservedRequests asked = availabilityWorld(spec -> {});
    asked.runPods(java.util.Set.of(1 - leaderOrdinal), leaderOrdinal, false);
    asked.annotations.put(ManualSwitchover.ANNOTATION, target);
    JsonNode refused = asked.sync();
    assertThat(refused.at("/status/switchover/state").asText()).isEqualTo("Refused");
    assertThat(refused.at("/status/switchover/message").asText())
        .isEqualTo(target + " is not ready");
    assertThat(asked.children.keySet()).noneMatch(key -> key.startsWith("Job/orders-switchover-"));

    asked.status.remove("switchover"); // the annotation set anew: a new request
    asked.runPods(java.util.Set.of(), leaderOrdinal, false);
    JsonNode running = asked.sync();
    assertThat(running.at("/status/switchover/state").asText()).isEqualTo("Running");
    ObjectNode job =
        asked.children.entrySet().stream()
            .filter(e -> e.getKey().startsWith("Job/orders-switchover-"))
            .map(Map.Entry::getValue)
            .findFirst()
            .orElseThrow();
    PostgresServer.Result moved = run(job, Map.of());
    assertThat(moved.exitCode()).as(moved.output()).isZero();
    assertThat(patroni.leader()).contains(target);
    patroni.await(
        Duration.ofSeconds(60), "the old leader streaming", c -> c.streamingReplicas() == 1);

    asked.runPods(java.util.Set.of(), 1 - leaderOrdinal, false);
    JsonNode done = asked.sync();
    assertThat(done.at("/status/switchover/state").asText()).isEqualTo("Done");
    assertThat(done.at("/status/switchover/message").asText())
        .isEqualTo("switched over from " + leader + " to " + target);
  }

  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  void theRenderedParametersJobReloadsWithoutARestartAndMarksRestartRequiringSettingsPending() {
    ObjectNode job =
        world.children.entrySet().stream()
            .filter(e -> e.getKey().startsWith("Job/orders-parameters-"))
            .map(e -> e.getValue())
            .findFirst()
            .orElseThrow();
    // The cluster is shared: a switchover test before this one may still have its old leader
    // rejoining, which can restart once more after it first streams.
    patroni.awaitSettled(Duration.ofSeconds(120), Duration.ofSeconds(10));
    List<String> started = new ArrayList<>();
    for (int i = 0; i < patroni.size(); i++) {
      started.add(patroni.query(i, "SELECT pg_postmaster_start_time()"));
      assertThat(patroni.query(i, "SHOW work_mem")).isEqualTo("4MB");
    }
    PatroniCluster.Response anonymous =
        patroni.unauthenticated(
            0, "PATCH", "/config", "{\"postgresql\":{\"parameters\":{\"work_mem\":\"1MB\"}}}");
    assertThat(anonymous.status()).isEqualTo(401);

    PostgresServer.Result patched = run(job, Map.of());
    assertThat(patched.exitCode()).as(patched.output()).isZero();
    assertThat(patched.output()).contains("PATCH /config: HTTP 200");
    // The Job ends only once it has read the reloadable settings back on every member.
    assertThat(patched.output()).contains("every member runs with the settings sent");

    // Every member reloads: the new work_mem, the same server process, shared_buffers pending a
    // restart.
    patroni.await(
        Duration.ofSeconds(30),
        "work_mem reloaded on every member",
        c -> {
          for (int i = 0; i < c.size(); i++) {
            if (!c.query(i, "SHOW work_mem").equals("16MB")) {
              return false;
            }
          }
          return true;
        });
    // PostgreSQL's own answer: shared_buffers waits for a restart on every member.
    patroni.await(
        Duration.ofSeconds(30),
        "shared_buffers pending a restart on every member",
        c -> {
          for (int i = 0; i < c.size(); i++) {
            if (!c.query(i, "SELECT pending_restart FROM pg_settings WHERE name = 'shared_buffers'")
                .equals("t")) {
              return false;
            }
          }
          return true;
        });
    // Patroni reads pg_settings once, a second after it signals the reload
    // (patroni/postgresql/config.py,
    // reload_config: time.sleep(1), then the pending_restart query); a member whose PostgreSQL took
    // longer shows
    // nothing until its next reload. A reload asked for now, as `patronictl reload` does, finds it.
    for (int i = 0; i < patroni.size(); i++) {
      if (!patroni.get(i, "/patroni").json().path("pending_restart").asBoolean(false)) {
        PatroniCluster.Response reload =
            patroni.authenticated(
                i, "POST", "/reload", "", Spilo.RESTAPI_USER, restApiPassword(world));
        assertThat(reload.status()).as(reload.body()).isEqualTo(202);
      }
    }
    patroni.await(
        Duration.ofSeconds(60),
        "Patroni's pending_restart on every member",
        c -> {
          for (int i = 0; i < c.size(); i++) {
            if (!c.get(i, "/patroni").json().path("pending_restart").asBoolean(false)) {
              return false;
            }
          }
          return true;
        });
    for (int i = 0; i < patroni.size(); i++) {
      assertThat(patroni.query(i, "SELECT pg_postmaster_start_time()"))
          .as("member %s restarted", i)
          .isEqualTo(started.get(i));
      assertThat(patroni.query(i, "SHOW shared_buffers")).isEqualTo("16MB");
      assertThat(
              patroni.query(
                  i, "SELECT pending_restart FROM pg_settings WHERE name = 'shared_buffers'"))
          .isEqualTo("t");
      // A $(...) in a value reaches PostgreSQL as written: the kubelet expands nothing.
      assertThat(
              patroni.query(
                  i,
                  "SELECT setting FROM pg_file_settings WHERE name = 'application_name' ORDER BY seqno DESC LIMIT 1"))
          .isEqualTo("costs $(PGPASSWORD) $$5");
    }
    assertThat(
            patroni.get(0, "/config").json().at("/postgresql/parameters/application_name").asText())
        .isEqualTo("costs $(PGPASSWORD) $$5");
  }

  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  @Order(1) // on the cluster as it bootstrapped, before the switchover test moves the leader
  void failsafeModeFromTheBootstrapConfigurationAndSynchronousModeThroughTheRenderedParametersJob()
      throws Exception {
    // Bootstrapped from the rendered SPILO_CONFIGURATION: failsafe on, and the leader publishes the
    // members it
    // may keep leading with while the DCS is down (GET /failsafe answers 502 without failsafe
    // mode).
    assertThat(patroni.get(0, "/config").json().path("failsafe_mode").asBoolean()).isTrue();
    patroni.await(
        Duration.ofSeconds(30),
        "the failsafe topology with both members",
        c -> {
          PatroniCluster.Response failsafe = c.get(0, "/failsafe");
          return failsafe.status() == 200
              && failsafe.json().has("orders-0")
              && failsafe.json().has("orders-1");
        });

    // spec.patroni.synchronous sync on the running cluster: the rendered Job's PATCH, a synchronous
    // standby.
    ObservedRequests synchronous =
        availabilityWorld(
            spec -> spec.putObject("synchronous").put("mode", "sync").put("nodeCount", 1));
    PostgresServer.Result patched = run(parametersJob(synchronous), Map.of());
    assertThat(patched.exitCode()).as(patched.output()).isZero();
    // Patroni answers the PATCH with the configuration it wrote; a member's GET /config follows
    // within a cycle.
    String answer = patched.output().substring(patched.output().lastIndexOf("HTTP 200 ") + 9);
    JsonNode config = JsonTrees.MAPPER.readTree(answer.substring(0, answer.indexOf('\n')));
    assertThat(config.path("synchronous_mode").asBoolean()).isTrue();
    assertThat(config.path("synchronous_mode_strict").asBoolean()).isFalse();
    assertThat(config.path("synchronous_node_count").asInt()).isEqualTo(1);
    assertThat(config.path("failsafe_mode").asBoolean()).isTrue();
    awaitConfig("synchronous_mode", true);
    patroni.await(
        Duration.ofSeconds(60),
        "a synchronous standby in /cluster",
        c -> roles(c).contains("sync_standby"));
    String leader = patroni.leader().orElseThrow();
    String standby = leader.equals("orders-0") ? "orders-1" : "orders-0";
    assertThat(patroni.query(patroni.index(leader), "SHOW synchronous_standby_names"))
        .contains(standby);

    // strict, and failsafe off: each reported as sent.
    ObservedRequests strict =
        availabilityWorld(
            spec -> spec.put("failsafeMode", false).putObject("synchronous").put("mode", "strict"));
    assertThat(run(parametersJob(strict), Map.of()).exitCode()).isZero();
    awaitConfig("synchronous_mode_strict", true);
    awaitConfig("failsafe_mode", false);

    // Back to the defaults (the other tests switch over and reload): asynchronous again, no
    // synchronous standby.
    assertThat(run(parametersJob(availabilityWorld(spec -> {})), Map.of()).exitCode()).isZero();
    awaitConfig("synchronous_mode", false);
    awaitConfig("failsafe_mode", true);
    patroni.await(
        Duration.ofSeconds(60), "no synchronous standby", c -> !roles(c).contains("sync_standby"));
  }

  /**
   * The member data real Patroni publishes (here in etcd; on Kubernetes the same JSON text is the pod's
   * {@code status} annotation), read as the hook reads the annotation: the leader as primary, the replica as
   * caught up within the default bound, and behind once the leader has written more WAL than a bound of zero allows.
   */
  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  @Order(2)
  void theMemberDataRealPatroniPublishesIsReadAsCaughtUp() throws Exception {
    String leader = patroni.leader().orElseThrow();
    String replica = leader.equals("orders-0") ? "orders-1" : "orders-0";
    patroni.await(Duration.ofSeconds(60), "the replica streaming", c -> c.streamingReplicas() == 1);
    JsonNode leaderData = JsonTrees.MAPPER.readTree(patroni.memberData(leader));
    // The leader's role: master in 3.0, primary in 4 (ha.py touch_member v4.1.5:447,
    // postgresql/misc.py v4.1.5:55).
    assertThat(leaderData.path("role").asText())
        .as(leaderData.toString())
        .isEqualTo(version.major() < 4 ? "master" : "primary");
    assertThat(leaderData.path("version").asText()).isEqualTo(version.version());
    patroni.await(
        Duration.ofSeconds(30),
        "the replica's timeline and position published",
        c -> {
          ObjectNode leaderPod = pod(leader, c.memberData(leader));
          ObjectNode replicaPod = pod(replica, c.memberData(replica));
          return dev.metahooks.controllers.postgres.plan.Streaming.lag(
                  replicaPod, leaderPod, ClusterSpec.Updates.DEFAULT_MAX_LAG_BYTES)
              .isEmpty();
        });
    JsonNode replicaData = JsonTrees.MAPPER.readTree(patroni.memberData(replica));
    assertThat(replicaData.path("role").asText()).isEqualTo("replica");
    assertThat(replicaData.path("state").asText()).isEqualTo("running");
    // Published since 3.1 while the WAL receiver streams (ha.py v4.1.5:475-477), never by 3.0.
    if (version.major() < 4) {
      assertThat(replicaData.has("replication_state")).as("3.0 does not publish it").isFalse();
    } else {
      assertThat(replicaData.path("replication_state").asText()).isEqualTo("streaming");
    }
    assertThat(replicaData.path("xlog_location").isIntegralNumber()).isTrue();
    assertThat(replicaData.path("timeline").asLong())
        .isEqualTo(leaderData.path("timeline").asLong());

    // More WAL on the leader than the replica's published position (a cycle old) shows, with a
    // bound of zero.
    patroni.query(
        patroni.index(leader),
        "CREATE TABLE IF NOT EXISTS lag_probe AS SELECT g FROM generate_series(1, 200000) g");
    patroni.query(patroni.index(leader), "SELECT pg_switch_wal()");
    long before = replicaData.path("xlog_location").asLong();
    patroni.await(
        Duration.ofSeconds(30),
        "the leader's new position published",
        c -> {
          try {
            return JsonTrees.MAPPER.readTree(c.memberData(leader)).path("xlog_location").asLong()
                > before;
          } catch (Exception e) {
            return false;
          }
        });
    ObjectNode staleReplica = pod(replica, replicaData.toString());
    assertThat(
            dev.metahooks.controllers.postgres.plan.Streaming.lag(
                staleReplica, pod(leader, patroni.memberData(leader)), 0))
        .hasValueSatisfying(lag -> assertThat(lag.bytes()).isPresent());
  }

  private static ObjectNode pod(String name, String memberData) {
    ObjectNode pod = Json.object();
    pod.putObject("metadata").put("name", name).putObject("annotations").put("status", memberData);
    return pod;
  }

  /**
   * A setting no member runs with (a value PostgreSQL cannot take): Patroni answers the PATCH with 200, but the
   * read-back finds the members running another value, names them, and fails the Job, so ConfigurationApplied
   * never turns True for it.
   */
  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  @Order(3)
  void theParametersJobFailsWhenAMemberDoesNotRunTheSettingSent() {
    ParameterPatch patch =
        new ParameterPatch(
            "orders-parameters-0123456789",
            "{\"postgresql\":{\"parameters\":{\"work_mem\":\"banana\"}}}",
            "{\"work_mem\":\"banana\"}");
    ObjectNode job =
        ParameterJobs.build(
            "orders",
            ObservedRequests.NAMESPACE,
            ClusterSpec.DEFAULT_IMAGE,
            PodScheduling.NONE,
            patch,
            Optional.empty());
    try {
      PostgresServer.Result result = run(job, Map.of("READBACK_TRIES", "3"));
      assertThat(result.output())
          .contains(
              "PATCH /config: HTTP 200",
              "not applied yet: orders-0 runs work_mem=",
              "orders-1 runs work_mem=");
      assertThat(result.exitCode()).as(result.output()).isNotZero();
    } finally {
      PostgresServer.Result restored =
          run(
              ParameterJobs.build(
                  "orders",
                  ObservedRequests.NAMESPACE,
                  ClusterSpec.DEFAULT_IMAGE,
                  PodScheduling.NONE,
                  new ParameterPatch(
                      "orders-parameters-9876543210",
                      "{\"postgresql\":{\"parameters\":{\"work_mem\":null}}}",
                      "{}"),
                  Optional.empty()),
              Map.of());
      assertThat(restored.exitCode()).as(restored.output()).isZero();
    }
  }

  /** Every member's GET /config reports the setting. */
  private void awaitConfig(String setting, boolean value) {
    patroni.await(
        Duration.ofSeconds(30),
        setting + " " + value + " on every member",
        c -> {
          for (int i = 0; i < c.size(); i++) {
            JsonNode config = c.get(i, "/config").json();
            if (!config.has(setting) || config.path(setting).asBoolean() != value) {
              return false;
            }
          }
          return true;
        });
  }

  /**
   * What failsafe mode is for: the DCS (here etcd; on Kubernetes, the API server) goes away, and the primary, which
   * can still reach its replica's Patroni, keeps running as primary past the leader lock's ttl instead of demoting.
   */
  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  @Order(Integer.MAX_VALUE) // last: the outage must not overlap another test
  void withFailsafeModeAnOutageOfTheDcsDoesNotDemoteAPrimaryThatReachesEveryMember() {
    assertThat(run(parametersJob(availabilityWorld(spec -> {})), Map.of()).exitCode()).isZero();
    patroni.await(
        Duration.ofSeconds(30),
        "the failsafe topology with both members",
        c -> {
          PatroniCluster.Response failsafe = c.get(0, "/failsafe");
          return failsafe.status() == 200 && failsafe.json().size() == 2;
        });
    String leader = patroni.leader().orElseThrow();
    int index = patroni.index(leader);
    patroni.stopDcs();
    java.time.Instant pastTtl = java.time.Instant.now().plusSeconds(25);
    try {
      // Where Patroni would demote itself ("DCS is not accessible"), failsafe mode keeps it
      // leading.
      patroni.await(
          Duration.ofSeconds(90),
          "failsafe mode active on the leader",
          c -> c.get(index, "/patroni").json().path("failsafe_mode_is_active").asBoolean(false));
      // And still past the leader lock's ttl (20 s), with a primary that takes writes. GET /patroni
      // names the
      // primary's role master in 3.0, primary in 4 (api.py v4.1.5:1400 and 1440).
      String primaryRole = version.major() < 4 ? "master" : "primary";
      patroni.await(
          Duration.ofSeconds(90),
          leader + " still primary in failsafe mode past the ttl",
          c -> {
            JsonNode state = c.get(index, "/patroni").json();
            return java.time.Instant.now().isAfter(pastTtl)
                && primaryRole.equals(state.path("role").asText())
                && state.path("failsafe_mode_is_active").asBoolean(false);
          });
      assertThat(patroni.query(index, "SELECT pg_is_in_recovery()")).isEqualTo("f");
      assertThat(
              patroni.query(
                  index,
                  "CREATE TABLE IF NOT EXISTS written_during_the_outage (); SELECT 'written'"))
          .contains("written");
    } finally {
      patroni.startDcs();
    }
    patroni.await(
        Duration.ofSeconds(90), "the leader back on the DCS", c -> c.leader().isPresent());
  }

  /** A cluster like the test's, with these spec.patroni settings and no PostgreSQL parameters. */
  private ObservedRequests availabilityWorld(java.util.function.Consumer<ObjectNode> patroniSpec) {
    ObjectNode spec = Json.object().put("instances", 2);
    patroniSpec.accept(spec.putObject("patroni"));
    ObservedRequests other = new ObservedRequests("orders", spec);
    // The same Secrets as the cluster under test, so that the Job authenticates as it would.
    world.children.forEach(
        (key, child) -> {
          if (key.startsWith("Secret/")) {
            other.children.put(key, child);
          }
        });
    other.sync();
    return other;
  }

  private static ObjectNode parametersJob(ObservedRequests of) {
    return of.children.entrySet().stream()
        .filter(e -> e.getKey().startsWith("Job/orders-parameters-"))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElseThrow();
  }

  private static List<String> roles(PatroniCluster cluster) {
    List<String> roles = new ArrayList<>();
    cluster.cluster().path("members").forEach(member -> roles.add(member.path("role").asText()));
    return roles;
  }

  private static ObjectNode job(String leader, String candidate) {
    return Switchovers.job(
        "orders",
        ObservedRequests.NAMESPACE,
        ClusterSpec.DEFAULT_IMAGE,
        PodScheduling.NONE,
        new Rollout.Switchover(
            Names.switchoverJob("orders", "orders-5d8f9c7b6", leader),
            leader,
            candidate,
            Optional.empty()));
  }

  /**
   * The Job ended well and says why: Patroni's own 200, or, after a 503 from a demotion slower than Patroni waits,
   * GET /cluster showing the candidate holding the lock.
   */
  static void assertSwitchedOver(PostgresServer.Result moved, String candidate) {
    assertThat(moved.exitCode()).as(moved.output()).isZero();
    assertThat(moved.output())
        .satisfiesAnyOf(
            output ->
                assertThat(output)
                    .contains("HTTP 200", "Successfully switched over to \"" + candidate + "\""),
            output ->
                assertThat(output)
                    .contains("HTTP 503", "GET /cluster: " + candidate + " holds the leader lock"));
  }

  /**
   * Runs the Job's container as the kubelet starts it (references from the world's Secrets); PATRONI_URL goes to the
   * local leader's REST API, and {@code overrides} replace values.
   */
  private PostgresServer.Result run(ObjectNode job, Map<String, String> overrides) {
    Kubelet.Container container =
        RenderedContainers.of(
            world, job, job.at("/spec/template/spec/containers/0/name").asText(), List.of());
    Map<String, String> env = container.environment();
    String leader = env.get("LEADER");
    Map<String, String> local = new HashMap<>();
    if (leader != null) {
      assertThat(env.get("PATRONI_URL")).isEqualTo("http://" + leader + ".orders-hl.shop.svc:8008");
      local.put("PATRONI_URL", patroni.restUrl(patroni.index(leader)));
    } else {
      assertThat(env.get("PATRONI_URL")).isEqualTo("http://orders-hl.shop.svc:8008");
      local.put("PATRONI_URL", patroni.restUrl(0));
    }
    if (env.containsKey(ParameterJobs.EXPECTED_VARIABLE)) {
      // The read-back reaches each member at the address GET /cluster gives.
      local.putAll(patroni.superuserClientEnvironment());
    }
    local.putAll(overrides);
    return RenderedContainers.run(container, local, Duration.ofMinutes(6));
  }

  private static String restApiPassword(ObservedRequests world) {
    return SecretData.value(
            world.children.get("Secret/" + Names.restApiSecret("orders")), "password")
        .orElseThrow();
  }

  private static JsonNode spiloConfiguration(ObservedRequests world) {
    return BuilderTestSupport.spiloConfiguration(world.children.get("StatefulSet/orders"));
  }
}
