package dev.metahooks.controllers.postgres;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.children.access.Secrets;
import dev.metahooks.controllers.postgres.children.jobs.Restarts;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.plan.ManualSwitchover;
import dev.metahooks.controllers.postgres.plan.Rollout;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.Round;
import dev.metahooks.emulator.World;
import dev.metahooks.emulator.Write;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.Project;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PostgresCluster end to end: the real manifest and server under the emulated Metacontroller, with
 * StatefulSets that run Pods and claims, Jobs that complete, and Patroni labelling the leader. The hooks get a
 * clock that follows the cluster's (ten seconds per round), so condition transition times show whether they
 * are carried over, and secrets that differ on every call, so a regenerated password would show.
 */
class PostgresClusterScenarioTest {
  private static final String API = "metahooks.dev/v1alpha1";
  private static final String KIND = "PostgresCluster";
  private static final String NS = "default";
  private static final String NAME = "orders";
  private static final Duration ROUND = Duration.ofSeconds(10);
  private static final List<String[]> CHILD_KINDS =
      List.of(
          new String[] {"v1", "ServiceAccount"},
          new String[] {"rbac.authorization.k8s.io/v1", "Role"},
          new String[] {"rbac.authorization.k8s.io/v1", "RoleBinding"},
          new String[] {"v1", "Secret"},
          new String[] {"v1", "Service"},
          new String[] {"apps/v1", "StatefulSet"},
          new String[] {"policy/v1", "PodDisruptionBudget"},
          new String[] {"batch/v1", "Job"});

  Cluster cluster;
  PostgresParent orders;
  private LocalHooks hooks;
  private Metacontroller mc;
  private Sources sources;

  /** Every Secret's data after the cluster first became ready. */
  private Map<String, JsonNode> initialSecrets;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    orders = new PostgresParent(cluster, NS, NAME);
    sources = PostgresEmulation.sources(cluster);
    hooks = LocalHooks.start(PostgresClusterController.controller(sources));
    mc = PostgresEmulation.metacontroller(cluster, hooks, ROUND);
    cluster.createFile("manifests/examples/postgrescluster-ha.yaml");
    settle();
    initialSecrets = secretData();
  }

  @AfterEach
  void tearDown() {
    hooks.close();
  }

  // ---- scenarios

  /**
   * The API server stores each child as rendered: an InPlace update that changes nothing (a default the answer
   * leaves out of a list that Metacontroller replaces whole, such as a claim template's volumeMode) would be sent on
   * every sync.
   */
  @Test
  void aSettledClusterCausesNoIdleUpdates() {
    mc.resyncAll();
    settle();
    assertThat(mc.idleUpdates()).isEmpty();
  }

  /**
   * Quantities written in another form than the API server stores them ({@code cpu: "0.5"}, a memory request in
   * bytes, a limit in Mi, a size in Mi) reach the StatefulSet in the stored form: a child that echoed them would
   * differ from the stored one on every sync, and Metacontroller would send it again each time.
   */
  @Test
  void quantitiesInAnotherFormSettleWithoutIdleUpdates() {
    orders.edit(
        spec -> {
          spec.withObject("/resources/requests").put("cpu", "0.5").put("memory", 1073741824L);
          spec.withObject("/resources/limits").put("memory", "1024Mi");
          spec.withObject("/storage").put("size", "10240Mi");
        });
    settle();
    mc.resyncAll();
    settle();

    ObjectNode set = cluster.get("apps/v1", "StatefulSet", NS, NAME);
    JsonNode container = set.at("/spec/template/spec/containers/0/resources");
    assertThat(container.at("/requests/cpu").asText()).isEqualTo("500m");
    assertThat(container.at("/requests/memory").asText()).isEqualTo("1073741824");
    assertThat(container.at("/limits/memory").asText()).isEqualTo("1Gi");
    assertThat(set.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText())
        .isEqualTo("10Gi");
    assertThat(mc.idleUpdates()).isEmpty();
    assertCondition("SpecValid", "True", "Valid");
  }

  @Test
  void theHaSampleBecomesReadyWithAPrimaryAndThenWritesNothing() {
    ObjectNode status = orders.get().withObjectProperty("status");
    assertThat(status.path("phase").asText()).isEqualTo("Ready");
    assertThat(status.path("instances").asInt()).isEqualTo(3);
    assertThat(status.path("readyInstances").asInt()).isEqualTo(3);
    assertThat(status.path("primary").asText()).isEqualTo("orders-0");
    assertThat(status.path("postgresVersion").asInt()).isEqualTo(17);
    assertThat(status.path("image").asText()).isEqualTo(ClusterSpec.DEFAULT_IMAGE);
    assertThat(status.path("selector").asText())
        .isEqualTo("app.kubernetes.io/instance=orders,app.kubernetes.io/name=postgresql");
    assertThat(status.path("endpoints"))
        .isEqualTo(
            json(
                "{\"primary\":\"orders-rw.default.svc:5432\",\"replicas\":\"orders-ro.default.svc:5432\"}"));
    assertThat(status.path("observedGeneration").asLong()).isEqualTo(1);
    assertCondition("Ready", "True", "AllInstancesReady");
    assertCondition("Progressing", "False", "Settled");
    assertCondition("Degraded", "False", "AsExpected");
    assertCondition("SpecValid", "True", "Valid");
    assertCondition("DeletionBlocked", "False", "NotDeleting");
    for (JsonNode condition : status.path("conditions")) {
      assertThat(condition.path("observedGeneration").asLong()).isEqualTo(1);
    }
    assertThat(phasesSeen()).containsSubsequence("Provisioning", "Ready");

    // Transition times: SpecValid has held since the first sync; Ready turned True later, at its
    // own time. The first sync's time is the cluster's clock one round on (in memory, fixed; on a
    // real API server, the real one), as the first status write carries it.
    String firstSync = firstStatusWriteTime();
    if (!cluster.isOnServer()) {
      assertThat(firstSync).isEqualTo(FixedSources.NOW.plus(ROUND).toString());
    }
    assertThat(orders.condition("SpecValid").path("lastTransitionTime").asText())
        .isEqualTo(firstSync);
    assertThat(orders.condition("DeletionBlocked").path("lastTransitionTime").asText())
        .isEqualTo(firstSync);
    assertThat(orders.condition("Ready").path("lastTransitionTime").asText())
        .isGreaterThan(firstSync);
    assertThat(orders.condition("Ready").path("lastTransitionTime").asText())
        .isEqualTo(readyBecameTrueAt());

    // The world as the hooks saw it: pods from the StatefulSet, Patroni's labels, the StatefulSet's
    // counts.
    assertThat(podNames()).containsExactly("orders-0", "orders-1", "orders-2");
    assertThat(roles())
        .containsExactly(
            Map.entry("orders-0", "master"),
            Map.entry("orders-1", "replica"),
            Map.entry("orders-2", "replica"));
    ObjectNode sts = child("apps/v1", "StatefulSet", NAME);
    assertThat(sts.at("/status/replicas").asInt()).isEqualTo(3);
    assertThat(sts.at("/status/readyReplicas").asInt()).isEqualTo(3);
    assertThat(sts.at("/status/updatedReplicas").asInt()).isEqualTo(3);
    ObjectNode job = onlyUsersJob();
    assertThat(job.at("/status/succeeded").asInt()).isEqualTo(1);
    assertThat(JobConditions.find(job.path("status"), "Complete")).isPresent();
    assertThat(names("v1", "Secret"))
        .containsExactly(
            "orders-replication",
            "orders-restapi",
            "orders-superuser",
            "orders.orders-app",
            "orders.reporting");
    assertThat(names("v1", "Service")).containsExactly("orders-hl", "orders-ro", "orders-rw");
    assertThat(names("policy/v1", "PodDisruptionBudget")).containsExactly("orders");

    assertQuiet();
    assertValidObjects();
  }

  @Test
  void scalingDownAndUpMovesTheStatefulSetAndKeepsEveryVolume() {
    Map<String, String> claims = claimUids();
    assertThat(claims).containsOnlyKeys("pgdata-orders-0", "pgdata-orders-1", "pgdata-orders-2");
    String readySince = orders.condition("Ready").path("lastTransitionTime").asText();
    long mark = cluster.lastSequence();

    orders.edit(spec -> spec.put("instances", 1));
    settle();
    assertThat(child("apps/v1", "StatefulSet", NAME).at("/spec/replicas").asInt()).isEqualTo(1);
    assertThat(podNames()).containsExactly("orders-0");
    assertThat(names("policy/v1", "PodDisruptionBudget")).isEmpty();
    assertThat(names("v1", "Service")).containsExactly("orders-hl", "orders-rw");
    assertThat(claimUids()).as("volumes of removed pods are kept").isEqualTo(claims);
    ObjectNode status = orders.get().withObjectProperty("status");
    assertThat(status.path("phase").asText()).isEqualTo("Ready");
    assertThat(status.path("instances").asInt()).isEqualTo(1);
    assertThat(status.path("readyInstances").asInt()).isEqualTo(1);
    assertThat(status.path("primary").asText()).isEqualTo("orders-0");
    assertThat(status.path("endpoints").has("replicas")).isFalse();
    assertThat(phasesSince(mark)).containsSubsequence("Scaling", "Ready");
    List<String> deleted = deletedSince(mark);
    assertThat(deleted)
        .as("both pods, the PDB and -ro go; no volume")
        .contains(
            "Pod default/orders-2",
            "Pod default/orders-1",
            "PodDisruptionBudget default/orders",
            "Service default/orders-ro")
        .noneMatch(object -> object.startsWith("PersistentVolumeClaim"));
    if (!cluster.isOnServer()) {
      // The StatefulSet (OrderedReady) removes the highest first. On a real API server the emulator
      // sees deletions
      // by polling, and two that finish between polls come in name order, so only the emulated
      // order is checked.
      assertThat(deleted)
          .as("pods go highest first")
          .containsSubsequence("Pod default/orders-2", "Pod default/orders-1");
    }
    assertQuiet();

    mark = cluster.lastSequence();
    orders.edit(spec -> spec.put("instances", 3));
    settle();
    assertThat(child("apps/v1", "StatefulSet", NAME).at("/spec/replicas").asInt()).isEqualTo(3);
    assertThat(podNames()).containsExactly("orders-0", "orders-1", "orders-2");
    assertThat(names("policy/v1", "PodDisruptionBudget")).containsExactly("orders");
    assertThat(names("v1", "Service")).containsExactly("orders-hl", "orders-ro", "orders-rw");
    assertThat(claimUids()).as("the new pods reuse the kept volumes").isEqualTo(claims);
    status = orders.get().withObjectProperty("status");
    assertThat(status.path("phase").asText()).isEqualTo("Ready");
    assertThat(status.path("readyInstances").asInt()).isEqualTo(3);
    assertThat(status.path("primary").asText()).isEqualTo("orders-0");
    assertThat(status.path("endpoints").path("replicas").asText())
        .isEqualTo("orders-ro.default.svc:5432");
    assertThat(phasesSince(mark)).containsSubsequence("Scaling", "Ready");
    assertThat(orders.condition("Ready").path("lastTransitionTime").asText())
        .as("Ready went False and back")
        .isGreaterThan(readySince);
    assertThat(deletedSince(mark)).isEmpty();

    assertQuiet();
    assertPasswordsKept();
    assertValidObjects();
  }

  /** 3 → 1 with the leader on orders-2: the primary moves to a pod that stays, and only then do pods go. */
  @Test
  void aScaleDownMovesThePrimaryOffARemovedOrdinalBeforeTheReplicasShrink() {
    makeLeader("orders-2");
    settle();
    assertThat(leader()).isEqualTo("orders-2");
    long mark = cluster.lastSequence();

    orders.edit(spec -> spec.put("instances", 1));
    settle();
    List<String> events = podEvents(mark);
    assertThat(events)
        .as("one planned leader change, before any pod goes")
        .startsWith("switchover Job", "leader orders-0")
        .containsExactlyInAnyOrder(
            "switchover Job", "leader orders-0", "replaced orders-2", "replaced orders-1");
    if (!cluster.isOnServer()) {
      // The highest ordinal goes first; on a real API server the emulator sees deletions by
      // polling, and two that finish between polls come in name order.
      assertThat(events).endsWith("replaced orders-2", "replaced orders-1");
    }
    assertThat(rolloutStepsSince(mark)).contains("ScaleDownSwitchover");
    assertThat(conditionSince(mark, "Progressing", "reason"))
        .contains("MovingPrimaryBeforeScaleDown");
    assertThat(statefulSetReplicasSince(mark))
        .as("replicas shrink only after the leader moved")
        .containsExactly(1);
    assertThat(podNames()).containsExactly("orders-0");
    assertThat(leader()).isEqualTo("orders-0");
    assertThat(names("batch/v1", "Job")).noneMatch(job -> job.contains("-switchover-"));
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    assertQuiet();
    assertValidObjects();
  }

  /** A scale-down whose primary stays is not held: the replicas shrink at once, no Job. */
  @Test
  void aScaleDownThatKeepsThePrimaryNeedsNoSwitchover() {
    long mark = cluster.lastSequence();
    orders.edit(spec -> spec.put("instances", 2));
    settle();
    assertThat(podEvents(mark)).containsExactly("replaced orders-2");
    assertThat(rolloutStepsSince(mark)).doesNotContain("ScaleDownSwitchover");
  }

  /**
   * A switchover on request: to a named member, carried out once by the switchover Job and reported; a target that
   * is not a ready replica is refused with the reason; "any" moves the leader once, not again on every sync.
   */
  @Test
  void aSwitchoverOnRequestMovesTheLeaderOnceAndRefusesATargetThatIsNotAReadyReplica() {
    long mark = cluster.lastSequence();
    orders.annotate(ManualSwitchover.ANNOTATION, "orders-2");
    settle();
    assertThat(podEvents(mark)).containsExactly("switchover Job", "leader orders-2");
    assertThat(leader()).isEqualTo("orders-2");
    JsonNode switchover = orders.get().at("/status/switchover");
    assertThat(switchover.path("request").asText()).isEqualTo("orders-2");
    assertThat(switchover.path("state").asText()).isEqualTo("Done");
    assertThat(switchover.path("message").asText())
        .isEqualTo("switched over from orders-0 to orders-2");
    assertThat(names("batch/v1", "Job")).noneMatch(job -> job.contains("-switchover-"));
    mc.resyncAll();
    settle();
    assertThat(podEvents(mark))
        .as("answered: never again")
        .containsExactly("switchover Job", "leader orders-2");

    mark = cluster.lastSequence();
    orders.annotate(ManualSwitchover.ANNOTATION, "orders-7");
    settle();
    assertThat(podEvents(mark)).isEmpty();
    assertThat(orders.get().at("/status/switchover/state").asText()).isEqualTo("Refused");
    assertThat(orders.get().at("/status/switchover/message").asText())
        .isEqualTo("orders-7 is not a member of the cluster");

    orders.annotate(ManualSwitchover.ANNOTATION, "orders-2");
    settle();
    assertThat(orders.get().at("/status/switchover/message").asText())
        .isEqualTo("orders-2 is the primary");

    mark = cluster.lastSequence();
    orders.annotate(ManualSwitchover.ANNOTATION, ManualSwitchover.ANY);
    settle();
    mc.resyncAll();
    settle();
    assertThat(podEvents(mark))
        .as("any: one move")
        .containsExactly("switchover Job", "leader orders-0");
    assertThat(orders.get().at("/status/switchover/state").asText()).isEqualTo("Done");

    orders.annotate(ManualSwitchover.ANNOTATION, null);
    settle();
    assertThat(orders.get().at("/status").has("switchover")).isFalse();
    assertQuiet();
    assertValidObjects();
  }

  /** Patroni's leader moved to {@code pod} (as a switchover by hand would): the role labels say so. */
  private void makeLeader(String pod) {
    for (ObjectNode member : cluster.list("v1", "Pod")) {
      String role = name(member).equals(pod) ? Labels.LEADER : Labels.REPLICA;
      ((ObjectNode) member.get("metadata")).withObjectProperty("labels").put(Labels.ROLE, role);
      cluster.update(member);
    }
  }

  /** Each new spec.replicas the StatefulSet got after {@code sequence}. */
  private List<Integer> statefulSetReplicasSince(long sequence) {
    List<Integer> replicas = new ArrayList<>();
    for (Write write : cluster.writesAfter(sequence)) {
      if (write.object().equals("StatefulSet " + NS + "/" + NAME)
          && write.verb() == Write.Verb.UPDATE
          && write.after().at("/spec/replicas").asInt()
              != write.before().at("/spec/replicas").asInt()) {
        replicas.add(write.after().at("/spec/replicas").asInt());
      }
    }
    return replicas;
  }

  /**
   * A change a running cluster cannot take: its field, where the CRD's rule that refuses it on a real API server sits
   * (the path the server names) and its message, the change, and what reverts it.
   */
  record FrozenChange(
      String field,
      String ruleAt,
      String rule,
      Consumer<ObjectNode> change,
      Consumer<ObjectNode> revert) {}

  static final List<FrozenChange> FROZEN_CHANGES =
      List.of(
          new FrozenChange(
              "spec.storage.size",
              "spec.storage.size",
              "storage.size cannot shrink",
              spec -> spec.withObjectProperty("storage").put("size", "5Gi"),
              spec -> spec.withObjectProperty("storage").put("size", "10Gi")),
          new FrozenChange(
              "spec.postgresVersion",
              "spec.postgresVersion",
              "postgresVersion cannot decrease",
              spec -> spec.put("postgresVersion", 16),
              spec -> spec.put("postgresVersion", 17)),
          new FrozenChange(
              "spec.storage.storageClassName",
              "spec.storage",
              "storage.storageClassName cannot change",
              spec -> spec.withObjectProperty("storage").put("storageClassName", "fast"),
              spec -> spec.withObjectProperty("storage").remove("storageClassName")));

  /** A pod label the operator selects by, and the CRD rule's message that refuses it. */
  static final Consumer<ObjectNode> SELECTED_POD_LABEL =
      spec ->
          spec.withObjectProperty("scheduling")
              .withObjectProperty("database")
              .withObjectProperty("podLabels")
              .put(Labels.ROLE, Labels.LEADER);

  static final String SELECTED_POD_LABEL_RULE =
      "a label the operator or Kubernetes sets and selects pods by cannot be set or overridden";

  /** A WAL volume added to a cluster that exists, and the CRD rule's message that refuses it. */
  static final Consumer<ObjectNode> WAL_ADDED =
      spec -> spec.withObjectProperty("storage").putObject("wal").put("size", "5Gi");

  static final String WAL_ADDED_RULE = "storage.wal cannot be added or removed after creation";

  @Test
  void aChangeTheClusterCannotTakeFreezesEveryChildUntilReverted() {
    for (FrozenChange frozen : FROZEN_CHANGES) {
      invalidChangeIsRefused(frozen.field(), frozen.change(), frozen.revert());
    }
    assertPasswordsKept();
    assertValidObjects();
  }

  /**
   * Strict synchronous mode where no standby could stay synchronous (instances below 1 + nodeCount) would stop
   * every write: refused, and the cluster keeps running as it was until the spec can hold.
   */
  @Test
  void strictSynchronousModeIsRefusedWhereNoSynchronousStandbyCouldStream() {
    orders.edit(
        spec ->
            spec.withObjectProperty("patroni")
                .putObject("synchronous")
                .put("mode", "strict")
                .put("nodeCount", 2));
    settle();
    assertCondition("SpecValid", "True", "Valid");
    Map<String, String> children = childVersions();

    orders.edit(spec -> spec.put("instances", 2));
    settle();
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Invalid");
    assertCondition("SpecValid", "False", "InvalidSpec");
    assertThat(orders.condition("SpecValid").path("message").asText())
        .startsWith(
            "spec.patroni.synchronous.mode: strict needs at least 3 instances (1 + nodeCount), not 2");
    assertThat(childVersions()).as("the scale-down is held: no child moves").isEqualTo(children);
    assertThat(podNames()).containsExactly("orders-0", "orders-1", "orders-2");

    orders.edit(
        spec ->
            spec.withObjectProperty("patroni")
                .withObjectProperty("synchronous")
                .put("mode", "sync"));
    settle();
    assertCondition("SpecValid", "True", "Valid");
    assertThat(child("apps/v1", "StatefulSet", NAME).at("/spec/replicas").asInt()).isEqualTo(2);
    assertThat(podNames()).containsExactly("orders-0", "orders-1");
    assertQuiet();
  }

  private void invalidChangeIsRefused(
      String field, Consumer<ObjectNode> change, Consumer<ObjectNode> revert) {
    Map<String, String> children = childVersions();
    String validSince = orders.condition("SpecValid").path("lastTransitionTime").asText();

    orders.edit(change);
    settle();
    assertThat(childVersions()).as("no child moves while %s is invalid", field).isEqualTo(children);
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Invalid");
    assertCondition("SpecValid", "False", "InvalidSpec");
    assertThat(orders.condition("SpecValid").path("message").asText())
        .startsWith(field + ": cannot ");
    assertCondition("Progressing", "False", "InvalidSpec");
    assertCondition("Ready", "True", "AllInstancesReady");
    assertQuiet();

    orders.edit(revert);
    settle();
    assertThat(childVersions())
        .as("reverting %s renders the same children", field)
        .isEqualTo(children);
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    assertCondition("SpecValid", "True", "Valid");
    assertThat(orders.condition("SpecValid").path("lastTransitionTime").asText())
        .isGreaterThan(validSince);
    assertQuiet();
  }

  @Test
  void addingAUserMakesItsSecretAndReplacesTheUsersJob() {
    String oldJob = name(onlyUsersJob());
    assertThat(oldJob).matches("orders-users-[0-9a-f]{10}");

    orders.edit(
        spec ->
            spec.withArrayProperty("users")
                .addObject()
                .put("name", "analytics")
                .putArray("databases")
                .add("analytics"));
    settle();
    Map<String, String> secret = decoded(child("v1", "Secret", "orders.analytics"));
    // No pooler in the sample: no pooler URIs either.
    assertThat(secret)
        .containsOnlyKeys(
            "username", "password", "verifier", "host", "port", "dbname", "uri", "jdbc-uri");
    assertThat(secret)
        .containsEntry("username", "analytics")
        .containsEntry("host", "orders-rw.default.svc")
        .containsEntry("port", "5432")
        .containsEntry("dbname", "analytics");
    String password = secret.get("password");
    assertThat(password).hasSize(Secrets.PASSWORD_LENGTH);
    assertThat(secret.get("uri"))
        .isEqualTo(
            "postgresql://analytics:"
                + password
                + "@orders-rw.default.svc:5432/analytics?sslmode=require");
    assertThat(secret.get("jdbc-uri"))
        .isEqualTo(
            "jdbc:postgresql://orders-rw.default.svc:5432/analytics?user=analytics"
                + "&password="
                + password
                + "&sslmode=require");
    ObjectNode job = onlyUsersJob();
    assertThat(name(job)).matches("orders-users-[0-9a-f]{10}").isNotEqualTo(oldJob);
    assertThat(job.at("/spec/template/spec/containers/0/env").toString())
        .contains("orders.analytics");
    assertThat(job.at("/status/succeeded").asInt()).isEqualTo(1);
    assertCondition("Progressing", "False", "Settled");
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    assertQuiet();
    assertPasswordsKept();
    String analyticsPassword = password;

    // A removed user keeps its role, so its Secret stays; the Job changes again.
    String secondJob = name(job);
    orders.edit(spec -> spec.withArrayProperty("users").remove(1));
    settle();
    assertThat(names("v1", "Secret")).contains("orders.reporting", "orders.analytics");
    assertThat(name(onlyUsersJob())).isNotIn(oldJob, secondJob);
    assertThat(decoded(child("v1", "Secret", "orders.analytics")).get("password"))
        .isEqualTo(analyticsPassword);
    assertQuiet();
    assertPasswordsKept();
    assertValidObjects();
  }

  @Test
  void deletionProtectionHoldsTheClusterUntilTurnedOff() {
    Map<String, String> children = childVersions();
    String finalizer = "metacontroller.io/compositecontroller-postgrescluster";
    assertThat(orders.get().at("/metadata/finalizers").toString()).contains(finalizer);

    cluster.delete(API, KIND, NS, NAME);
    settle();
    ObjectNode parent = orders.get();
    assertThat(parent.at("/metadata/deletionTimestamp").isTextual()).isTrue();
    assertThat(parent.at("/metadata/finalizers").toString()).contains(finalizer);
    assertThat(parent.at("/status/phase").asText()).isEqualTo("Deleting");
    assertCondition("DeletionBlocked", "True", "DeletionProtection");
    assertThat(orders.condition("DeletionBlocked").path("message").asText())
        .contains("spec.deletionProtection");
    assertThat(childVersions()).as("nothing is removed while protected").isEqualTo(children);
    assertThat(podNames()).hasSize(3);
    assertQuiet();
    assertPasswordsKept();
    assertValidObjects();

    orders.edit(spec -> spec.put("deletionProtection", false));
    Round removal = mc.round();
    assertThat(removal.errors()).isEmpty();
    assertThat(cluster.find(API, KIND, NS, NAME))
        .as("the finalizer waits for the StatefulSet to be gone")
        .isPresent();
    // Every child deleted: gone, or going (a child with finalizers of its own waits for them).
    assertThat(childVersions(false)).as("every child deleted").isEmpty();
    assertCondition("DeletionBlocked", "False", "Deleting");
    assertThat(orders.get().at("/metadata/finalizers").toString()).contains(finalizer);

    assertThat(configMaps())
        .as("Patroni's ConfigMaps outlive the pods")
        .containsExactly("orders-config", "orders-leader");

    long mark = cluster.lastSequence();
    settle();
    // Metacontroller's update that removes its finalizer makes the object go: in memory an update
    // and then the deletion; a real API server deletes it in that update and answers with the
    // object
    // as sent (apiserver's pkg/registry/generic/registry/store.go, deleteWithoutFinalizers).
    assertThat(cluster.writesAfter(mark))
        .filteredOn(w -> w.object().equals(KIND + " " + NS + "/" + NAME))
        .as("the finalizer is removed, and with it the object")
        .last()
        .satisfies(
            w -> {
              assertThat(w.verb()).isEqualTo(Write.Verb.DELETE);
              assertThat(w.actor()).isEqualTo("metacontroller/postgrescluster");
            });
    assertThat(cluster.find(API, KIND, NS, NAME)).as("finalizer removed, object gone").isEmpty();
    assertThat(childVersions()).as("every child gone").isEmpty();
    assertThat(databasePods())
        .as("pods collected with their StatefulSet (gone, or Terminating for their grace period)")
        .allSatisfy(pod -> assertThat(pod.at("/metadata/deletionTimestamp").asText()).isNotEmpty());
    assertThat(configMaps()).isEmpty();
    assertThat(claimUids())
        .as("whenDeleted: Retain keeps the volumes")
        .containsOnlyKeys("pgdata-orders-0", "pgdata-orders-1", "pgdata-orders-2");
    assertThat(mc.round().writes())
        .as("only the kubelet, removing the Terminating Pods")
        .allSatisfy(w -> assertThat(w.actor()).isEqualTo("world/kubelet"));
    assertThat(mc.round().changed()).isFalse();
    // On a real cluster the Jobs ran Pods: Metacontroller deletes each Job with background
    // propagation, so the collector takes its Pods too; none is left behind.
    assertThat(cluster.list("v1", "Pod", NS))
        .as("no Pod left, of the StatefulSet or of a Job")
        .allSatisfy(pod -> assertThat(pod.at("/metadata/deletionTimestamp").asText()).isNotEmpty());
  }

  @Test
  void aClusterDeletedAndCreatedAgainUnderTheSameNameBootstraps() {
    assertThat(configMaps()).containsExactly("orders-config", "orders-leader");
    String firstSystem = initializeKey();
    orders.edit(
        spec -> {
          spec.put("deletionProtection", false);
          spec.withObjectProperty("storage")
              .withObjectProperty("retentionPolicy")
              .put("whenDeleted", "Delete");
        });
    settle();

    cluster.delete(API, KIND, NS, NAME);
    settle();
    assertThat(cluster.find(API, KIND, NS, NAME))
        .as("the finalizer went once Patroni's ConfigMaps were gone")
        .isEmpty();
    assertThat(configMaps()).as("Patroni's ConfigMaps removed by the cleanup Job").isEmpty();
    assertThat(podNames()).isEmpty();
    // The volumes go too (deleted by hand here; whenDeleted: Delete does it for claims it owns).
    cluster
        .list("v1", "PersistentVolumeClaim", NS)
        .forEach(claim -> cluster.delete("v1", "PersistentVolumeClaim", NS, name(claim)));
    assertThat(claimUids()).isEmpty();
    assertThat(cluster.writes())
        .filteredOn(w -> w.object().equals("Job " + NS + "/orders-cleanup"))
        .extracting(Write::verb)
        .contains(Write.Verb.CREATE);
    ObjectNode role =
        cluster.writes().stream()
            .filter(w -> w.object().equals("Role " + NS + "/orders-cleanup"))
            .findFirst()
            .orElseThrow()
            .after();
    assertThat(role.at("/rules/0/resourceNames"))
        .isEqualTo(
            json("[\"orders-config\",\"orders-leader\",\"orders-failover\",\"orders-sync\"]"));

    cluster.createFile("manifests/examples/postgrescluster-ha.yaml");
    settle();
    ObjectNode status = orders.get().withObjectProperty("status");
    assertThat(status.path("phase").asText()).isEqualTo("Ready");
    assertThat(status.path("primary").asText()).isEqualTo("orders-0");
    assertThat(initializeKey())
        .as("a new system was bootstrapped")
        .isNotEqualTo(firstSystem)
        .isNotEmpty();
    assertQuiet();
    assertValidObjects();
  }

  @Test
  void pausedFreezesSpecChangesAndUnpausingAppliesThem() {
    orders.edit(spec -> spec.put("paused", true));
    settle();
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Paused");
    assertCondition("Progressing", "False", "Paused");
    Map<String, String> children = childVersions();
    Map<String, String> pods = podVersions();
    Map<String, String> podUidsBefore = podUids();

    orders.edit(
        spec -> {
          spec.put("instances", 4);
          spec.withObjectProperty("postgresql")
              .withObjectProperty("parameters")
              .put("shared_buffers", "512MB");
        });
    settle();
    assertThat(childVersions()).as("no child moves while paused").isEqualTo(children);
    assertThat(podVersions()).isEqualTo(pods);
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Paused");
    assertThat(orders.get().at("/status/observedGeneration").asLong())
        .isEqualTo(orders.get().at("/metadata/generation").asLong());
    assertQuiet();

    long mark = cluster.lastSequence();
    orders.edit(spec -> spec.put("paused", false));
    settle();
    ObjectNode sts = child("apps/v1", "StatefulSet", NAME);
    assertThat(sts.at("/spec/replicas").asInt()).isEqualTo(4);
    assertThat(sts.at("/spec/template/spec/containers/0/env").toString())
        .contains("shared_buffers");
    assertThat(sts.at("/status/updatedReplicas").asInt())
        .as("every pod runs the new template")
        .isEqualTo(4);
    assertThat(podNames()).containsExactly("orders-0", "orders-1", "orders-2", "orders-3");
    Map<String, String> rolled = podUids();
    assertThat(rolled.keySet())
        .allSatisfy(
            pod ->
                assertThat(rolled.get(pod))
                    .as("every pod was replaced")
                    .isNotEqualTo(podUidsBefore.get(pod)));
    ObjectNode status = orders.get().withObjectProperty("status");
    assertThat(status.path("phase").asText()).isEqualTo("Ready");
    assertThat(status.path("readyInstances").asInt()).isEqualTo(4);
    assertThat(status.path("primary").asText()).isEqualTo(leader());
    assertThat(phasesSince(mark)).doesNotContain("Paused").endsWith("Ready");
    assertQuiet();
    assertPasswordsKept();
    assertValidObjects();
  }

  @Test
  void anImageChangeUpdatesTheReplicasHighestFirstThenSwitchesOverThenUpdatesTheOldPrimary() {
    Map<String, String> podsBefore = podUids();
    long mark = cluster.lastSequence();

    orders.edit(spec -> spec.put("image", "ghcr.io/zalando/spilo-17:4.0-p4"));
    settle();

    assertThat(podEvents(mark))
        .as("the rollout, in order")
        .containsExactly(
            "replaced orders-2",
            "replaced orders-1",
            "switchover Job",
            "leader orders-1",
            "replaced orders-0");
    podUids()
        .forEach(
            (pod, uid) -> assertThat(uid).as("%s replaced", pod).isNotEqualTo(podsBefore.get(pod)));
    ObjectNode status = orders.get().withObjectProperty("status");
    assertThat(status.path("phase").asText()).isEqualTo("Ready");
    assertThat(status.path("primary").asText()).isEqualTo("orders-1").isEqualTo(leader());
    assertThat(status.path("image").asText()).isEqualTo("ghcr.io/zalando/spilo-17:4.0-p4");
    assertThat(status.has("rollout")).as("no rollout once done").isFalse();
    // Each restart is one Updating step: its Job stays until the pod is back, ready, from the new
    // template.
    assertThat(rolloutStepsSince(mark))
        .containsExactly("Starting", "Updating", "Switchover", "Updating", "");
    assertThat(phasesSince(mark)).containsExactly("Updating", "Ready");
    assertThat(conditionSince(mark, "Degraded", "status")).containsExactly("False");
    assertThat(conditionSince(mark, "Progressing", "reason"))
        .containsExactly("RollingUpdate", "Settled");
    assertThat(child("apps/v1", "StatefulSet", NAME).at("/spec/updateStrategy"))
        .isEqualTo(json("{\"type\":\"OnDelete\"}"));
    assertThat(names("batch/v1", "Job"))
        .as("the switchover and restart Jobs go once done")
        .noneMatch(job -> job.contains("-switchover-") || job.contains("-restart-"));
    assertThat(names("v1", "ServiceAccount")).doesNotContain(NAME + "-restart");
    assertQuiet();
    assertPasswordsKept();
    assertValidObjects();
  }

  /**
   * The leader on the highest ordinal: the replicas below it restart first, then one switchover to an updated
   * replica, then the old primary. One planned leader change (a partition, which restarts the highest ordinal first,
   * made two: a first switchover to a replica that still ran the old template, and a second when its turn came).
   */
  @Test
  void aPrimaryOnTheHighestOrdinalMovesOnceToAnUpdatedReplica() {
    makeLeader("orders-2");
    settle();
    long mark = cluster.lastSequence();

    orders.edit(spec -> spec.put("image", "ghcr.io/zalando/spilo-17:4.0-p4"));
    settle();

    assertThat(podEvents(mark))
        .as("the rollout, in order")
        .containsExactly(
            "replaced orders-1",
            "replaced orders-0",
            "switchover Job",
            "leader orders-0",
            "replaced orders-2");
    assertThat(leader()).isEqualTo("orders-0");
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    assertThat(orders.get().at("/status/image").asText())
        .isEqualTo("ghcr.io/zalando/spilo-17:4.0-p4");
    assertQuiet();
    assertPasswordsKept();
    assertValidObjects();
  }

  /**
   * The docs' Scheduling example on the running HA sample: a new pod template, rolled as an image change is; every
   * pod then carries the placement and the extra label beside the operator's, and the Services still find them.
   */
  @Test
  void schedulingRollsThePodsThroughTheRollout() throws java.io.IOException {
    // The class the example names: the API server admits no pod that names a missing one, and the
    // StatefulSet could not start the first pod the rollout restarts.
    cluster.create(
        "{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: database-critical},"
            + " value: 1000000}");
    long mark = cluster.lastSequence();
    ObjectNode scheduling = (ObjectNode) SchedulingTest.docsExample().get("scheduling");
    orders.edit(spec -> spec.set("scheduling", scheduling.deepCopy()));
    settle();

    assertThat(podEvents(mark))
        .as("the rollout, in order")
        .containsExactly(
            "replaced orders-2",
            "replaced orders-1",
            "switchover Job",
            "leader orders-1",
            "replaced orders-0");
    // The database pods (on a real cluster the pods of Jobs made before the change are there too).
    assertThat(podNames()).containsExactly("orders-0", "orders-1", "orders-2");
    for (JsonNode pod : databasePods()) {
      assertThat(pod.at("/metadata/labels/team").asText()).isEqualTo("payments");
      Labels.pod(NAME)
          .properties()
          .forEach(
              label ->
                  assertThat(pod.at("/metadata/labels").path(label.getKey()))
                      .isEqualTo(label.getValue()));
      assertThat(pod.at("/spec/tolerations/0/key").asText()).isEqualTo("dedicated");
      assertThat(pod.at("/spec/priorityClassName").asText()).isEqualTo("database-critical");
      assertThat(pod.at("/spec/affinity/nodeAffinity").isObject()).isTrue();
      assertThat(pod.at("/spec/topologySpreadConstraints/0/labelSelector/matchLabels"))
          .isEqualTo(Labels.podSelector(NAME));
    }
    ObjectNode status = orders.get().withObjectProperty("status");
    assertThat(status.path("phase").asText()).isEqualTo("Ready");
    assertThat(status.path("readyInstances").asInt()).isEqualTo(3);
    assertThat(status.path("primary").asText()).isEqualTo(leader());
    assertThat(status.has("rollout")).isFalse();
    assertQuiet();
    assertValidObjects();
  }

  /** A pod label the operator selects by is refused (the hook's check, behind the CRD's) and moves nothing. */
  @Test
  void aPodLabelTheOperatorSelectsByIsRefusedAndMovesNothing() {
    Map<String, String> children = childVersions();
    orders.edit(SELECTED_POD_LABEL);
    settle();
    assertThat(childVersions()).as("nothing moves while the label is refused").isEqualTo(children);
    assertCondition("SpecValid", "False", "InvalidSpec");
    assertThat(orders.condition("SpecValid").path("message").asText())
        .startsWith("spec.scheduling.database.podLabels['spilo-role']: is a label the operator");
    assertCondition("Ready", "True", "AllInstancesReady");
    assertQuiet();
  }

  /** The docs' WAL volume example as a new cluster beside the running one: every pod gets a data and a WAL claim. */
  @Test
  void aWalVolumeIsMadeWithANewCluster() throws java.io.IOException {
    ObjectNode ledger = Json.object().put("apiVersion", API).put("kind", KIND);
    ledger.putObject("metadata").put("name", "ledger").put("namespace", NS);
    ledger.set("spec", WalVolumeTest.docsExample());
    cluster.create(ledger);
    settle();
    assertThat(new PostgresParent(cluster, NS, "ledger").get().at("/status/phase").asText())
        .isEqualTo("Ready");
    assertThat(claimUids().keySet())
        .contains(
            "pgdata-ledger-0",
            "pgdata-ledger-1",
            "pgdata-ledger-2",
            "pgwal-ledger-0",
            "pgwal-ledger-1",
            "pgwal-ledger-2");
    ObjectNode walClaim = cluster.get("v1", "PersistentVolumeClaim", NS, "pgwal-ledger-1");
    assertThat(walClaim.at("/spec/resources/requests/storage").asText()).isEqualTo("10Gi");
    assertThat(walClaim.at("/spec/storageClassName").asText()).isEqualTo("fast-ssd");
    assertThat(claimUids().keySet()).noneMatch(claim -> claim.startsWith("pgwal-orders"));
    assertValidObjects();
  }

  /**
   * On the running cluster, adding a WAL volume is refused (the hook's check, behind the CRD's) and moves nothing;
   * taken out again, the cluster is valid.
   */
  @Test
  void aWalVolumeAddedToAClusterThatExistsIsRefusedAndMovesNothing() {
    Map<String, String> children = childVersions();
    orders.edit(WAL_ADDED);
    settle();
    assertThat(childVersions()).as("nothing of orders moves").isEqualTo(children);
    assertCondition("SpecValid", "False", "InvalidSpec");
    assertThat(orders.condition("SpecValid").path("message").asText())
        .startsWith("spec.storage.wal: cannot be added once the cluster exists");
    assertQuiet();
    orders.edit(spec -> spec.withObjectProperty("storage").remove("wal"));
    settle();
    assertCondition("SpecValid", "True", "Valid");
    assertThat(childVersions()).isEqualTo(children);
    assertValidObjects();
  }

  @Test
  void aReloadableParameterChangeRestartsNothingAndReachesPatroniThroughTheParametersJob()
      throws Exception {
    Map<String, String> children = childVersions();
    Map<String, String> pods = podUids();
    long mark = cluster.lastSequence();

    orders.edit(
        spec ->
            spec.withObjectProperty("postgresql")
                .withObjectProperty("parameters")
                .put("work_mem", "16MB"));
    settle();

    assertThat(podUids()).as("no pod restarted").isEqualTo(pods);
    Map<String, String> now = childVersions();
    assertThat(now.get("StatefulSet/" + NAME))
        .as("the StatefulSet is untouched")
        .isEqualTo(children.get("StatefulSet/" + NAME));
    List<String> parameterJobs =
        names("batch/v1", "Job").stream().filter(n -> n.startsWith(NAME + "-parameters-")).toList();
    assertThat(parameterJobs).hasSize(1);
    assertThat(children).doesNotContainKey("Job/" + parameterJobs.get(0));
    JsonNode patch =
        JsonTrees.MAPPER.readTree(env(child("batch/v1", "Job", parameterJobs.get(0)), "PATCH"));
    assertThat(patch.at("/postgresql/parameters/work_mem").asText()).isEqualTo("16MB");
    assertThat(phasesSince(mark)).doesNotContain("Updating");
    assertQuiet();
  }

  @Test
  void aSwitchoverJobThatFailsStopsTheRolloutBeforeThePrimaryUntilItIsDeleted() {
    mc.world(
        World.standard()
            .statefulSetPods(true)
            .add("patroni", PatroniSimulation::refusingSwitchovers)
            .add("clock", c -> c.advance(ROUND)));
    String primaryUid = podUids().get("orders-0");
    long mark = cluster.lastSequence();

    orders.edit(spec -> spec.put("image", "ghcr.io/zalando/spilo-17:4.0-p4"));
    settle();

    assertThat(podEvents(mark))
        .containsExactly("replaced orders-2", "replaced orders-1", "switchover Job");
    assertThat(podUids().get("orders-0")).as("the primary is not touched").isEqualTo(primaryUid);
    assertThat(leader()).isEqualTo("orders-0");
    ObjectNode status = orders.get().withObjectProperty("status");
    assertThat(status.path("phase").asText()).isEqualTo("Updating");
    assertThat(status.at("/rollout/step").asText()).isEqualTo("SwitchoverFailed");
    assertCondition("Progressing", "False", "SwitchoverFailed");
    assertThat(orders.condition("Progressing").path("message").asText())
        .contains(
            "from orders-0 to orders-1", "BackoffLimitExceeded", "delete the Job to try again");
    assertCondition("Degraded", "False", "AsExpected");
    assertThat(names("batch/v1", "Job"))
        .as("no restart Job for the primary")
        .noneMatch(job -> job.contains("-restart-"));
    assertQuiet();

    // Patroni can switch over again; a person deletes the failed Job, and the rollout finishes.
    mc.world(
        World.standard()
            .statefulSetPods(true)
            .add("patroni", PatroniSimulation::step)
            .add("clock", c -> c.advance(ROUND)));
    String failedJob =
        names("batch/v1", "Job").stream()
            .filter(n -> n.contains("-switchover-"))
            .findFirst()
            .orElseThrow();
    cluster.delete("batch/v1", "Job", NS, failedJob);
    settle();
    assertThat(podUids().get("orders-0")).isNotEqualTo(primaryUid);
    assertThat(leader()).isEqualTo("orders-1");
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    assertCondition("Progressing", "False", "Settled");
    assertQuiet();
  }

  @Test
  void aRolloutInterruptedByAHookRestartResumesWhereItWas() {
    long mark = cluster.lastSequence();
    orders.edit(spec -> spec.put("image", "ghcr.io/zalando/spilo-17:4.0-p4"));
    for (int round = 0; round < 60 && !podEvents(mark).contains("replaced orders-2"); round++) {
      mc.round();
    }
    assertThat(podEvents(mark)).containsExactly("replaced orders-2");

    // The hook server goes away mid-rollout: syncs fail, no restart Job is asked for, and no pod
    // restarts but one whose restart Job was asked for before (on a real API server the round that
    // sees orders-2 deleted can see it back and ready too, and its sync asks for orders-1).
    List<String> askedFor = restartJobPods();
    List<String> expected = new ArrayList<>(podEvents(mark));
    askedFor.stream()
        .map(pod -> "replaced " + pod)
        .filter(event -> !expected.contains(event))
        .forEach(expected::add);
    int port = hooks.port();
    hooks.close();
    mc.tolerateSyncErrors();
    for (int round = 0; round < 5; round++) {
      mc.round();
    }
    assertThat(mc.syncErrors()).isNotEmpty();
    assertThat(restartJobPods()).as("no restart Job asked for").isSubsetOf(askedFor);
    assertThat(podEvents(mark)).isEqualTo(expected);

    // A new hook server (no memory of the old one), and Metacontroller relists: the rollout goes on
    // from there.
    hooks = LocalHooks.startOnPort(port, List.of(PostgresClusterController.controller(sources)));
    mc.resyncAll();
    settle();
    assertThat(podEvents(mark))
        .containsExactly(
            "replaced orders-2",
            "replaced orders-1",
            "switchover Job",
            "leader orders-1",
            "replaced orders-0");
    assertThat(orders.get().at("/status/phase").asText()).isEqualTo("Ready");
    assertQuiet();
    assertPasswordsKept();
  }

  @Test
  void underTheRestartMethodAParameterChangeRollsThePodsAndTheStatusFollowsTheFailover() {
    orders.edit(spec -> spec.putObject("updates").put("method", "restart"));
    settle();
    // Kubernetes' own rolling update of every ordinal (a partition, where the API server defaulted
    // one, of 0).
    JsonNode strategy = child("apps/v1", "StatefulSet", NAME).at("/spec/updateStrategy");
    assertThat(strategy.path("type").asText()).isEqualTo("RollingUpdate");
    assertThat(strategy.path("rollingUpdate").path("partition").asInt(0)).isZero();
    // Children by content, status left out: on a real API server the disruption controller writes
    // the PodDisruptionBudget's status as pods come and go.
    Map<String, String> children = childContents();
    Map<String, String> podsBefore = podUids();
    long mark = cluster.lastSequence();

    orders.edit(
        spec ->
            spec.withObjectProperty("postgresql")
                .withObjectProperty("parameters")
                .put("shared_buffers", "512MB"));
    settle();
    assertThat(
            child("apps/v1", "StatefulSet", NAME)
                .at("/spec/template/spec/containers/0/env")
                .toString())
        .contains("shared_buffers");
    Map<String, String> podsAfter = podUids();
    assertThat(podsAfter.keySet()).isEqualTo(podsBefore.keySet());
    podsAfter.forEach(
        (pod, uid) -> assertThat(uid).as("%s replaced", pod).isNotEqualTo(podsBefore.get(pod)));
    children.remove("StatefulSet/" + NAME);
    Map<String, String> others = childContents();
    others.remove("StatefulSet/" + NAME);
    // and the parameters Job, which writes the new setting into Patroni's dynamic configuration.
    children.keySet().removeIf(key -> key.startsWith("Job/" + NAME + "-parameters-"));
    others.keySet().removeIf(key -> key.startsWith("Job/" + NAME + "-parameters-"));
    assertThat(others).as("only the StatefulSet and the parameters Job change").isEqualTo(children);

    // orders-0 was replaced last: Patroni handed the leader to a replica, and the status says
    // which.
    ObjectNode status = orders.get().withObjectProperty("status");
    assertThat(status.path("phase").asText()).isEqualTo("Ready");
    assertThat(status.path("primary").asText()).isNotEqualTo("orders-0").isEqualTo(leader());
    // The first status of the new generation is written while every pod still runs (Ready), but it
    // already
    // says the roll is coming: a client waiting for observedGeneration and Progressing=False is not
    // misled.
    assertThat(phasesSince(mark))
        .as("a planned restart is neither a scale nor Degraded")
        .containsExactly("Ready", "Updating", "Ready");
    assertThat(conditionSince(mark, "Degraded", "status")).containsExactly("False");
    assertThat(conditionSince(mark, "Progressing", "reason"))
        .containsExactly("RollingUpdate", "Settled");
    assertQuiet();
    assertPasswordsKept();
    assertValidObjects();
  }

  // ---- helpers

  int settle() {
    return mc.runUntilStable(60);
  }

  /** One more round (the clock moves on) writes nothing: the status is byte-stable, nothing loops. */
  void assertQuiet() {
    PostgresEmulation.assertQuiet(mc, orders::get);
  }

  void assertCondition(String type, String status, String reason) {
    JsonNode condition = orders.condition(type);
    assertThat(condition.path("status").asText() + " " + condition.path("reason").asText())
        .as("condition %s: %s", type, condition.path("message").asText())
        .isEqualTo(status + " " + reason);
  }

  /** The phases the parent's status went through, in order, without repeats. */
  private List<String> phasesSeen() {
    return phasesSince(0);
  }

  private List<String> phasesSince(long sequence) {
    List<String> phases = new ArrayList<>();
    for (Write write : cluster.writesAfter(sequence)) {
      if (write.object().equals(KIND + " " + NS + "/" + NAME)
          && write.verb() == Write.Verb.UPDATE_STATUS) {
        String phase = write.after().path("status").path("phase").asText("");
        if (!phase.isEmpty()
            && (phases.isEmpty() || !phases.get(phases.size() - 1).equals(phase))) {
          phases.add(phase);
        }
      }
    }
    return phases;
  }

  private List<String> podEvents(long sequence) {
    return PostgresScenarios.podEvents(cluster, NAME, sequence);
  }

  private static String env(JsonNode job, String name) {
    for (JsonNode env : job.at("/spec/template/spec/containers/0/env")) {
      if (env.path("name").asText().equals(name)) {
        return env.path("value").asText();
      }
    }
    throw new AssertionError("no " + name + " in " + job);
  }

  /** The parent's status.rollout.step in its status writes, in order, without repeats ("" for none). */
  private List<String> rolloutStepsSince(long sequence) {
    List<String> steps = new ArrayList<>();
    for (Write write : cluster.writesAfter(sequence)) {
      if (write.object().equals(KIND + " " + NS + "/" + NAME)
          && write.verb() == Write.Verb.UPDATE_STATUS) {
        String step = write.after().at("/status/rollout/step").asText("");
        if (steps.isEmpty() || !steps.get(steps.size() - 1).equals(step)) {
          steps.add(step);
        }
      }
    }
    return steps;
  }

  /** One field ("reason", "status") of one condition in the parent's status writes, in order, without repeats. */
  private List<String> conditionSince(long sequence, String type, String field) {
    List<String> values = new ArrayList<>();
    for (Write write : cluster.writesAfter(sequence)) {
      if (write.object().equals(KIND + " " + NS + "/" + NAME)
          && write.verb() == Write.Verb.UPDATE_STATUS) {
        for (JsonNode condition : write.after().path("status").path("conditions")) {
          String value = condition.path(field).asText();
          if (condition.path("type").asText().equals(type)
              && (values.isEmpty() || !values.get(values.size() - 1).equals(value))) {
            values.add(value);
          }
        }
      }
    }
    return values;
  }

  /** The lastTransitionTime of every condition in the parent's first status write: the time of its first sync. */
  private String firstStatusWriteTime() {
    for (Write write : cluster.writes()) {
      if (write.object().equals(KIND + " " + NS + "/" + NAME)
          && write.verb() == Write.Verb.UPDATE_STATUS) {
        List<String> times = new ArrayList<>();
        write
            .after()
            .path("status")
            .path("conditions")
            .forEach(condition -> times.add(condition.path("lastTransitionTime").asText()));
        assertThat(times).as("the conditions of the first status write").isNotEmpty();
        assertThat(Set.copyOf(times)).as("one sync, one time").hasSize(1);
        return times.get(0);
      }
    }
    throw new AssertionError("no status write");
  }

  /** The lastTransitionTime the Ready condition got in the status write that first made it True. */
  private String readyBecameTrueAt() {
    for (Write write : cluster.writes()) {
      if (write.object().equals(KIND + " " + NS + "/" + NAME)
          && write.verb() == Write.Verb.UPDATE_STATUS) {
        for (JsonNode condition : write.after().path("status").path("conditions")) {
          if (condition.path("type").asText().equals("Ready")
              && condition.path("status").asText().equals("True")) {
            return condition.path("lastTransitionTime").asText();
          }
        }
      }
    }
    throw new AssertionError("Ready never became True");
  }

  private List<String> deletedSince(long sequence) {
    return cluster.writesAfter(sequence).stream()
        .filter(w -> w.verb() == Write.Verb.DELETE)
        .map(Write::object)
        .toList();
  }

  private ObjectNode child(String apiVersion, String kind, String name) {
    return cluster.get(apiVersion, kind, NS, name);
  }

  private List<String> names(String apiVersion, String kind) {
    return cluster.list(apiVersion, kind, NS).stream()
        .map(PostgresClusterScenarioTest::name)
        .sorted()
        .toList();
  }

  private static String name(JsonNode object) {
    return object.path("metadata").path("name").asText();
  }

  private ObjectNode onlyUsersJob() {
    List<ObjectNode> jobs =
        cluster.list("batch/v1", "Job", NS).stream()
            .filter(
                job ->
                    "users"
                        .equals(
                            job.at("/metadata/labels/" + Labels.COMPONENT.replace("/", "~1"))
                                .asText()))
            .toList();
    assertThat(jobs).hasSize(1);
    return jobs.get(0);
  }

  private List<String> configMaps() {
    return names("v1", "ConfigMap");
  }

  private String initializeKey() {
    return child("v1", "ConfigMap", NAME + "-config")
        .path("metadata")
        .path("annotations")
        .path("initialize")
        .asText("");
  }

  /** The pods the restart Jobs that are there (not being deleted) delete, sorted. */
  private List<String> restartJobPods() {
    return cluster.list("batch/v1", "Job", NS).stream()
        .filter(job -> !job.path("metadata").has("deletionTimestamp"))
        .filter(
            job ->
                Restarts.COMPONENT.equals(
                    job.path("metadata").path("labels").path(Labels.COMPONENT).asText()))
        .map(job -> Rollout.jobEnv(job, Rollout.Restart.POD))
        .sorted()
        .toList();
  }

  /** The database pods, the StatefulSet's (on a real cluster the Jobs' pods are there too). */
  private List<ObjectNode> databasePods() {
    return cluster.list("v1", "Pod", NS).stream()
        .filter(pod -> "StatefulSet".equals(pod.at("/metadata/ownerReferences/0/kind").asText()))
        .toList();
  }

  private List<String> podNames() {
    return databasePods().stream().map(PostgresClusterScenarioTest::name).sorted().toList();
  }

  private Map<String, String> roles() {
    Map<String, String> roles = new TreeMap<>();
    databasePods()
        .forEach(
            pod ->
                roles.put(
                    name(pod), pod.path("metadata").path("labels").path(Labels.ROLE).asText("")));
    return roles;
  }

  /** The one pod Patroni labels leader. */
  private String leader() {
    List<String> leaders =
        roles().entrySet().stream()
            .filter(e -> e.getValue().equals(Labels.LEADER))
            .map(Map.Entry::getKey)
            .toList();
    assertThat(leaders).hasSize(1);
    return leaders.get(0);
  }

  /** Every child as {@code Kind/name → uid@resourceVersion}. */
  Map<String, String> childVersions() {
    return childVersions(true);
  }

  /** Every child as {@code Kind/name → uid@resourceVersion}; those being deleted too if {@code deleting}. */
  private Map<String, String> childVersions(boolean deleting) {
    Map<String, String> versions = new TreeMap<>();
    for (String[] type : CHILD_KINDS) {
      cluster.list(type[0], type[1], NS).stream()
          .filter(child -> deleting || !child.path("metadata").has("deletionTimestamp"))
          .forEach(child -> versions.put(type[1] + "/" + name(child), version(child)));
    }
    return versions;
  }

  /** Every child as {@code Kind/name → } itself without its status and resourceVersion. */
  private Map<String, String> childContents() {
    Map<String, String> contents = new TreeMap<>();
    for (String[] type : CHILD_KINDS) {
      for (ObjectNode child : cluster.list(type[0], type[1], NS)) {
        ObjectNode content = child.deepCopy();
        content.remove("status");
        content.withObjectProperty("metadata").remove(List.of("resourceVersion", "managedFields"));
        contents.put(type[1] + "/" + name(child), content.toString());
      }
    }
    return contents;
  }

  private Map<String, String> podVersions() {
    Map<String, String> versions = new TreeMap<>();
    cluster.list("v1", "Pod", NS).forEach(pod -> versions.put(name(pod), version(pod)));
    return versions;
  }

  private Map<String, String> podUids() {
    Map<String, String> uids = new TreeMap<>();
    databasePods().forEach(pod -> uids.put(name(pod), pod.path("metadata").path("uid").asText()));
    return uids;
  }

  private static String version(JsonNode object) {
    return object.path("metadata").path("uid").asText()
        + "@"
        + object.path("metadata").path("resourceVersion").asText();
  }

  private Map<String, String> claimUids() {
    Map<String, String> uids = new TreeMap<>();
    cluster
        .list("v1", "PersistentVolumeClaim", NS)
        .forEach(claim -> uids.put(name(claim), claim.path("metadata").path("uid").asText()));
    return uids;
  }

  private Map<String, JsonNode> secretData() {
    Map<String, JsonNode> data = new TreeMap<>();
    cluster
        .list("v1", "Secret", NS)
        .forEach(secret -> data.put(name(secret), secret.path("data").deepCopy()));
    return data;
  }

  /** Every Secret that existed once the cluster was first ready still exists with the same data. */
  private void assertPasswordsKept() {
    Map<String, JsonNode> now = secretData();
    initialSecrets.forEach(
        (name, data) -> assertThat(now.get(name)).as("Secret %s", name).isEqualTo(data));
  }

  private static Map<String, String> decoded(JsonNode secret) {
    Map<String, String> values = new TreeMap<>();
    secret
        .path("data")
        .properties()
        .forEach(
            e ->
                values.put(
                    e.getKey(),
                    new String(
                        Base64.getDecoder().decode(e.getValue().asText()),
                        StandardCharsets.UTF_8)));
    return values;
  }

  /** Every child written, and every pod and claim of the simulation, fits the Kubernetes schema. */
  private void assertValidObjects() {
    for (String[] type : CHILD_KINDS) {
      cluster.list(type[0], type[1]).forEach(KubeSchema::assertValid);
    }
    cluster.list("v1", "Pod").forEach(KubeSchema::assertValid);
    cluster.list("v1", "PersistentVolumeClaim").forEach(KubeSchema::assertValid);
  }
}
