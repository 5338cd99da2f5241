package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.children.jobs.Restarts;
import dev.metahooks.controllers.postgres.children.jobs.Switchovers;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.plan.Rollout;
import dev.metahooks.emulator.ApiException;
import dev.metahooks.emulator.Cluster;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Patroni's part in a scenario, as the API server sees it: in every cluster (pods with the same namespace and
 * {@code cluster-name} scope label) the running pods get the role label {@code spilo-role}: the leader keeps
 * {@code master} while it lives; without a leader, a ready replica takes over (failover), or else the lowest
 * ordinal bootstraps the cluster; every other running pod is {@code replica}. Pods that are not running yet
 * get no label.
 *
 * <p>Patroni's DCS as well: bootstrapping writes the ConfigMaps {@code <scope>-config} (with the
 * {@code initialize} key, the new system's id) and {@code <scope>-leader}, and marks the data volume of every
 * member with that id. As real Patroni does, a pod never bootstraps while {@code initialize} is set, unless its
 * own volume holds that system: a cluster created again over leftover ConfigMaps waits for a leader forever.
 * The cleanup Job's effect is simulated too: while a Job labelled {@code component: cleanup} exists, the
 * ConfigMaps named in its arguments are deleted (what its script does through the API server).
 *
 * <p>A switchover Job (labelled {@code component: switchover}) moves the leader from its {@code LEADER} to its
 * {@code CANDIDATE} while that one is the leader and the candidate is ready, as Patroni's {@code POST /switchover}
 * does; {@link #refusingSwitchovers} is Patroni answering 412 instead: the Job fails and nothing moves.
 *
 * <p>A restart Job (labelled {@code component: restart}) deletes the pod its arguments name while that pod has the
 * uid they give, as its script does through the API server.
 *
 * <p>Every running member publishes its {@code status} annotation as Patroni 4.0.4 writes it
 * ({@link PatroniMemberData}): the leader at a fixed WAL position, each replica streaming at the same position, or
 * {@code lagBytes} behind for the members {@link #step(Cluster, Map)} names.
 */
final class PatroniSimulation {
  private PatroniSimulation() {}

  static final String SYSTEM = "patroni-simulation/system-id";

  static void step(Cluster cluster) {
    step(cluster, true, Map.of());
  }

  /** A step in which the replicas named in {@code lagBytes} are that many bytes of WAL behind the leader. */
  static void step(Cluster cluster, Map<String, Long> lagBytes) {
    step(cluster, true, lagBytes);
  }

  /** Patroni that refuses every switchover (say, no candidate is healthy enough): each such Job fails. */
  static void refusingSwitchovers(Cluster cluster) {
    step(cluster, false, Map.of());
  }

  private static void step(Cluster cluster, boolean switchoversWork, Map<String, Long> lagBytes) {
    runCleanupJobs(cluster);
    runSwitchoverJobs(cluster, switchoversWork);
    runRestartJobs(cluster);
    Map<String, List<ObjectNode>> scopes = new TreeMap<>();
    for (ObjectNode pod : cluster.list("v1", "Pod")) {
      JsonNode labels = pod.path("metadata").path("labels");
      if (Labels.APP.equals(labels.path(Labels.NAME).asText())
          && labels.has(Labels.CLUSTER_NAME)
          && !pod.path("metadata").has("deletionTimestamp")
          && running(pod)) {
        String scope =
            pod.path("metadata").path("namespace").asText()
                + "/"
                + labels.path(Labels.CLUSTER_NAME).asText();
        scopes.computeIfAbsent(scope, s -> new ArrayList<>()).add(pod);
      }
    }
    scopes.values().forEach(members -> label(cluster, members));
    scopes.values().forEach(members -> publishStatus(cluster, members, lagBytes));
  }

  private static void publishStatus(
      Cluster cluster, List<ObjectNode> members, Map<String, Long> lagBytes) {
    for (ObjectNode member : members) {
      ObjectNode pod =
          cluster.get(
              "v1", "Pod", member.path("metadata").path("namespace").asText(), name(member));
      String ip = pod.path("status").path("podIP").asText("10.0.0.1");
      String role = role(pod);
      String status =
          role.isEmpty()
              ? PatroniMemberData.starting(PatroniMemberData.Version.V4_0_4, ip)
              : Labels.LEADER.equals(role)
                  ? PatroniMemberData.leader(
                      PatroniMemberData.Version.V4_0_4, ip, PatroniMemberData.POSITION, 1)
                  : PatroniMemberData.replica(
                      PatroniMemberData.Version.V4_0_4,
                      ip,
                      PatroniMemberData.POSITION - lagBytes.getOrDefault(name(pod), 0L),
                      1,
                      "streaming");
      if (!status.equals(pod.path("metadata").path("annotations").path("status").asText())) {
        writeOwnPod(
            cluster,
            pod,
            own ->
                ((ObjectNode) own.get("metadata"))
                    .withObjectProperty("annotations")
                    .put("status", status));
      }
    }
  }

  private static void label(Cluster cluster, List<ObjectNode> members) {
    members.sort(
        Comparator.comparing(PatroniSimulation::ordinal).thenComparing(PatroniSimulation::name));
    String namespace = members.get(0).path("metadata").path("namespace").asText();
    String scope =
        members.get(0).path("metadata").path("labels").path(Labels.CLUSTER_NAME).asText();
    String initialized =
        cluster
            .find("v1", "ConfigMap", namespace, scope + "-config")
            .map(c -> c.path("metadata").path("annotations").path("initialize").asText(""))
            .orElse("");
    Optional<ObjectNode> leader =
        members.stream()
            .filter(pod -> Labels.LEADER.equals(role(pod)))
            .findFirst()
            .or(
                () ->
                    members.stream()
                        .filter(
                            pod -> Labels.REPLICA.equals(role(pod)) && ObservedCluster.ready(pod))
                        .findFirst())
            .or(
                () ->
                    members.stream()
                        .filter(
                            pod ->
                                initialized.isEmpty() || initialized.equals(system(cluster, pod)))
                        .findFirst());
    if (leader.isEmpty()) {
      return;
    }
    String system =
        initialized.isEmpty()
            ? "system-" + leader.get().path("metadata").path("uid").asText()
            : initialized;
    if (initialized.isEmpty()) {
      dcs(cluster, namespace, scope, "config");
    }
    ObjectNode lock = dcs(cluster, namespace, scope, "leader");
    if (!name(leader.get())
        .equals(lock.path("metadata").path("annotations").path("leader").asText())) {
      lock.withObjectProperty("metadata")
          .withObjectProperty("annotations")
          .put("leader", name(leader.get()));
      cluster.update(lock);
    }
    cluster
        .find("v1", "ConfigMap", namespace, scope + "-config")
        .ifPresent(
            config -> {
              if (!system.equals(
                  config.path("metadata").path("annotations").path("initialize").asText())) {
                config
                    .withObjectProperty("metadata")
                    .withObjectProperty("annotations")
                    .put("initialize", system);
                cluster.update(config);
              }
            });
    for (ObjectNode pod : members) {
      markVolume(cluster, pod, system);
    }
    for (ObjectNode pod : members) {
      String wanted =
          leader.map(l -> name(l).equals(name(pod))).orElse(false) ? Labels.LEADER : Labels.REPLICA;
      if (!wanted.equals(role(pod))) {
        setRole(cluster, pod, wanted);
      }
    }
  }

  /**
   * A member's Patroni writes a change to its own pod, read afresh and written again on a conflict (the node writes
   * the pod's status meanwhile), as Patroni's Kubernetes client does: on a real API server a pod deleted since the
   * simulation read it (a restart, the StatefulSet controller) has no Patroni left to write it, and the write is
   * dropped.
   */
  private static void writeOwnPod(Cluster cluster, JsonNode pod, Consumer<ObjectNode> change) {
    try {
      cluster.update(
          "v1", "Pod", pod.path("metadata").path("namespace").asText(), name(pod), change);
    } catch (ApiException gone) {
      if (!cluster.isOnServer() || !gone.is(ApiException.Reason.NOT_FOUND)) {
        throw gone;
      }
    }
  }

  /** A member's Patroni labels its own pod with its role. */
  private static void setRole(Cluster cluster, ObjectNode pod, String role) {
    writeOwnPod(
        cluster,
        pod,
        own ->
            ((ObjectNode) own.get("metadata")).withObjectProperty("labels").put(Labels.ROLE, role));
  }

  /** Patroni's ConfigMap {@code <scope>-<suffix>}, created with its labels when missing. */
  private static ObjectNode dcs(Cluster cluster, String namespace, String scope, String suffix) {
    return cluster
        .find("v1", "ConfigMap", namespace, scope + "-" + suffix)
        .orElseGet(
            () -> {
              ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
              configMap
                  .putObject("metadata")
                  .put("name", scope + "-" + suffix)
                  .put("namespace", namespace)
                  .putObject("labels")
                  .put(Labels.CLUSTER_NAME, scope)
                  .put(Labels.NAME, Labels.APP);
              return cluster.create(configMap);
            });
  }

  /** The system id the pod's data volume holds, or empty. */
  private static String system(Cluster cluster, JsonNode pod) {
    return claim(cluster, pod)
        .map(c -> c.path("metadata").path("annotations").path(SYSTEM).asText(""))
        .orElse("");
  }

  /**
   * Records the system id on the pod's data volume, read afresh and written again on a conflict: on a real API
   * server the volume controllers write the claim too (binding, protection, resize).
   */
  private static void markVolume(Cluster cluster, JsonNode pod, String system) {
    claim(cluster, pod)
        .filter(c -> !system.equals(c.path("metadata").path("annotations").path(SYSTEM).asText()))
        .ifPresent(
            c ->
                cluster.update(
                    "v1",
                    "PersistentVolumeClaim",
                    c.path("metadata").path("namespace").asText(),
                    c.path("metadata").path("name").asText(),
                    fresh ->
                        fresh
                            .withObjectProperty("metadata")
                            .withObjectProperty("annotations")
                            .put(SYSTEM, system)));
  }

  private static Optional<ObjectNode> claim(Cluster cluster, JsonNode pod) {
    return cluster.find(
        "v1",
        "PersistentVolumeClaim",
        pod.path("metadata").path("namespace").asText(),
        Spilo.DATA_VOLUME + "-" + name(pod));
  }

  private static void runCleanupJobs(Cluster cluster) {
    for (ObjectNode job : cluster.list("batch/v1", "Job")) {
      if (!"cleanup".equals(job.path("metadata").path("labels").path(Labels.COMPONENT).asText())) {
        continue;
      }
      String namespace = job.path("metadata").path("namespace").asText();
      JsonNode command = job.at("/spec/template/spec/containers/0/command");
      for (int i = 4; i < command.size(); i++) {
        String configMap = command.get(i).asText();
        if (cluster.exists("v1", "ConfigMap", namespace, configMap)) {
          cluster.delete("v1", "ConfigMap", namespace, configMap);
        }
      }
    }
  }

  /**
   * What a restart Job's script does through the API server: it deletes the pod it names ({@code POD}) when that
   * pod still has the uid given (a precondition), so the StatefulSet controller starts it again. On a real API server
   * the script's Pods, which KWOK keeps running until then (controlplane/stages.yaml, job-pod-runs-its-script), end
   * with 0 once that is done (deleted, or already gone or replaced: scripts/restart-member.sh).
   */
  private static void runRestartJobs(Cluster cluster) {
    for (ObjectNode job : cluster.list("batch/v1", "Job")) {
      if (!Restarts.COMPONENT.equals(
              job.path("metadata").path("labels").path(Labels.COMPONENT).asText())
          || JobConditions.failed(job)) {
        continue;
      }
      String pod = Rollout.jobEnv(job, Rollout.Restart.POD);
      String uid = Rollout.jobEnv(job, Rollout.Restart.UID);
      String namespace = job.path("metadata").path("namespace").asText();
      cluster
          .find("v1", "Pod", namespace, pod)
          .filter(
              live ->
                  uid.equals(live.path("metadata").path("uid").asText())
                      && !live.path("metadata").has("deletionTimestamp"))
          .ifPresent(live -> cluster.delete("v1", "Pod", namespace, pod, uid));
      if (cluster.isOnServer()) {
        ContainerExit.runningPods(cluster, job)
            .forEach(run -> ContainerExit.write(cluster, run, 0));
      }
    }
  }

  /**
   * Each switchover Job not failed yet: Patroni moves the leader (or, refusing, answers 412). In memory a Job runs no
   * Pod and reports its own outcome, so a refusal is the Job's {@code Failed} status; on a real API server the Job
   * controller runs the script's Pods, which KWOK keeps running until Patroni answers (controlplane/stages.yaml,
   * job-pod-runs-its-script): each exits 1 on a refusal, 0 once the candidate leads, and the Job controller counts
   * them against the Job's backoffLimit.
   */
  private static void runSwitchoverJobs(Cluster cluster, boolean work) {
    for (ObjectNode job : cluster.list("batch/v1", "Job")) {
      if (!Switchovers.COMPONENT.equals(
              job.path("metadata").path("labels").path(Labels.COMPONENT).asText())
          || JobConditions.failed(job)) {
        continue;
      }
      boolean candidateLeads = work && switchOver(cluster, job);
      if (cluster.isOnServer()) {
        for (ObjectNode pod : ContainerExit.runningPods(cluster, job)) {
          if (!work || candidateLeads) {
            ContainerExit.write(cluster, pod, candidateLeads ? 0 : 1);
          }
        }
      } else if (!work) {
        ObjectNode status = Json.object().put("failed", 2);
        status
            .putArray("conditions")
            .addObject()
            .put("type", "Failed")
            .put("status", "True")
            .put("reason", "BackoffLimitExceeded")
            .put("message", "Job has reached the specified backoff limit");
        ObjectNode live =
            cluster.get(
                "batch/v1", "Job", job.path("metadata").path("namespace").asText(), name(job));
        live.set("status", status);
        cluster.updateStatus(live);
      }
    }
  }

  /**
   * Patroni's {@code POST /switchover}: the leader hands over to the candidate while it leads and the candidate is a
   * ready replica. Whether the candidate leads afterwards.
   */
  private static boolean switchOver(Cluster cluster, JsonNode job) {
    String namespace = job.path("metadata").path("namespace").asText();
    Optional<ObjectNode> leader =
        cluster
            .find("v1", "Pod", namespace, env(job, "LEADER"))
            .filter(pod -> Labels.LEADER.equals(role(pod)));
    Optional<ObjectNode> candidate =
        cluster
            .find("v1", "Pod", namespace, env(job, "CANDIDATE"))
            .filter(pod -> Labels.REPLICA.equals(role(pod)) && ObservedCluster.ready(pod));
    if (leader.isPresent() && candidate.isPresent()) {
      setRole(cluster, leader.get(), Labels.REPLICA);
      setRole(cluster, candidate.get(), Labels.LEADER);
    }
    return cluster
        .find("v1", "Pod", namespace, env(job, "CANDIDATE"))
        .filter(pod -> Labels.LEADER.equals(role(pod)))
        .isPresent();
  }

  private static String env(JsonNode job, String name) {
    for (JsonNode env : job.at("/spec/template/spec/containers/0/env")) {
      if (name.equals(env.path("name").asText())) {
        return env.path("value").asText();
      }
    }
    return "";
  }

  private static boolean running(JsonNode pod) {
    return "Running".equals(pod.path("status").path("phase").asText());
  }

  private static String role(JsonNode pod) {
    return pod.path("metadata").path("labels").path(Labels.ROLE).asText("");
  }

  private static String name(JsonNode pod) {
    return pod.path("metadata").path("name").asText();
  }

  private static int ordinal(JsonNode pod) {
    String name = name(pod);
    String suffix = name.substring(name.lastIndexOf('-') + 1);
    return suffix.matches("[0-9]{1,9}") ? Integer.parseInt(suffix) : Integer.MAX_VALUE;
  }
}
