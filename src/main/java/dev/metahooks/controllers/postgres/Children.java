package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.ChildTypes;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.children.PatroniRbac;
import dev.metahooks.controllers.postgres.children.backup.Backups;
import dev.metahooks.controllers.postgres.children.jobs.Cleanup;
import dev.metahooks.controllers.postgres.children.jobs.ParameterJobs;
import dev.metahooks.controllers.postgres.children.jobs.Restarts;
import dev.metahooks.controllers.postgres.children.jobs.Switchovers;
import dev.metahooks.controllers.postgres.children.jobs.UpgradeJobs;
import dev.metahooks.controllers.postgres.children.jobs.UsersJobs;
import dev.metahooks.controllers.postgres.children.jobs.VolumeResize;
import dev.metahooks.controllers.postgres.children.network.NetworkPolicies;
import dev.metahooks.controllers.postgres.children.network.Services;
import dev.metahooks.controllers.postgres.children.pod.DisruptionBudgets;
import dev.metahooks.controllers.postgres.children.pod.Exporters;
import dev.metahooks.controllers.postgres.children.pod.StatefulSets;
import dev.metahooks.controllers.postgres.children.pooler.Poolers;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.Members;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.observed.Preserved;
import dev.metahooks.controllers.postgres.plan.ClusterPlan;
import dev.metahooks.controllers.postgres.plan.MajorUpgrade;
import dev.metahooks.controllers.postgres.plan.ManualSwitchover;
import dev.metahooks.controllers.postgres.plan.Mode;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.BackupSpecReader;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every child an answer carries, rendered from the plan: one builder per kind, each returning its objects whole,
 * in the order of {@link ChildTypes#ALL}. A plan that renders nothing from the spec (paused, invalid,
 * a held deletion) answers the observed children as they are.
 */
final class Children {
  private Children() {}

  /** The children of a sync call. */
  static List<ObjectNode> ofSync(ClusterPlan plan, ObservedCluster observed) {
    if (!plan.mode().rendered()) {
      return Preserved.all(observed.children());
    }
    List<ObjectNode> children = rendered(plan, observed);
    checkNothingLost(observed, children);
    return children;
  }

  /**
   * The children of a finalize call: none once nothing holds the deletion (Metacontroller deletes them), except the
   * final backup's and, once the pods are gone, the cleanup Job that removes Patroni's ConfigMaps.
   */
  static List<ObjectNode> ofFinalize(ClusterPlan plan, ObservedCluster observed) {
    List<ObjectNode> finalBackup =
        Backups.ofDeletion(plan.finalBackup(), plan.namespace(), plan.spec(), observed);
    if (plan.finalBackup().blocker().isPresent()) {
      return finalBackup;
    }
    if (plan.mode() instanceof Mode.DeletionBlocked) {
      return Preserved.all(observed.children());
    }
    if (podsGone(observed) && !observed.patroniConfigMaps().isEmpty()) {
      List<ObjectNode> children = new ArrayList<>(finalBackup);
      children.addAll(
          Cleanup.build(
              plan.cluster(),
              plan.namespace(),
              plan.spec().image(),
              plan.spec().scheduling().jobs(),
              observed.patroniConfigMaps()));
      return ChildTypes.inTypeOrder(children);
    }
    return finalBackup;
  }

  /** The StatefulSet and its pods are gone. */
  static boolean podsGone(ObservedCluster observed) {
    return observed.statefulSet().isEmpty() && observed.allPods().isEmpty();
  }

  private static List<ObjectNode> rendered(ClusterPlan plan, ObservedCluster observed) {
    String cluster = plan.cluster();
    String namespace = plan.namespace();
    ClusterSpec spec = plan.spec();
    List<ObjectNode> children =
        new ArrayList<>(
            PatroniRbac.build(
                cluster, namespace, Members.names(cluster, spec.instances(), observed)));
    children.addAll(plan.secrets());
    children.addAll(Services.build(cluster, spec));
    children.add(
        StatefulSets.build(
            cluster,
            namespace,
            spec,
            plan.bootstrap(),
            plan.podTls(),
            plan.rollout().replicas(spec),
            plan.volumes().templateSize()));
    if (plan.volumes().resizing()) {
      children.addAll(
          VolumeResize.build(
              cluster, namespace, spec.image(), spec.scheduling().jobs(), plan.volumes()));
    }
    DisruptionBudgets.build(cluster, spec).ifPresent(children::add);
    NetworkPolicies.build(cluster, spec, observed.liveClones()).ifPresent(children::add);
    NetworkPolicies.pooler(cluster, spec).ifPresent(children::add);
    // The plan asks for no users Job while the cluster is a standby.
    plan.usersJob()
        .flatMap(job -> UsersJobs.build(cluster, namespace, observed.uid(), spec, plan.secrets()))
        .ifPresent(children::add);
    plan.parameters()
        .map(
            patch ->
                ParameterJobs.build(
                    cluster,
                    namespace,
                    spec.image(),
                    spec.scheduling().jobs(),
                    patch,
                    plan.podTls()))
        .ifPresent(children::add);
    plan.rollout()
        .switchover()
        .map(
            switchover ->
                Switchovers.job(
                    cluster, namespace, spec.image(), spec.scheduling().jobs(), switchover))
        .ifPresent(children::add);
    plan.rollout()
        .restart()
        .map(
            restart ->
                Restarts.build(cluster, namespace, spec.image(), spec.scheduling().jobs(), restart))
        .ifPresent(children::addAll);
    plan.manualSwitchover()
        .flatMap(ManualSwitchover.Plan::job)
        .map(
            switchover ->
                Switchovers.job(
                    cluster, namespace, spec.image(), spec.scheduling().jobs(), switchover))
        .ifPresent(children::add);
    Exporters.service(cluster, spec).ifPresent(children::add);
    Exporters.podMonitor(cluster, spec, observed).ifPresent(children::add);
    children.addAll(Poolers.build(cluster, namespace, spec, Tls.pooler(plan.podTls(), observed)));
    children.addAll(Backups.children(cluster, namespace, spec, observed));
    plan.majorUpgrade()
        .ifPresent(upgrade -> children.addAll(upgradeChildren(plan, upgrade, observed)));
    return ChildTypes.inTypeOrder(children);
  }

  /**
   * A major upgrade's Jobs: each rendered once, then kept as observed (a Job runs once). The upgrade Job's
   * ServiceAccount, Role and RoleBinding stay while it has not finished.
   */
  private static List<ObjectNode> upgradeChildren(
      ClusterPlan plan, MajorUpgrade.Plan upgrade, ObservedCluster observed) {
    String cluster = plan.cluster();
    ClusterSpec spec = plan.spec();
    List<ObjectNode> children = new ArrayList<>();
    upgrade
        .backupJob()
        .ifPresent(
            name ->
                children.add(
                    observed
                        .job(name)
                        .map(Preserved::child)
                        .orElseGet(
                            () ->
                                Backups.baseBackupJob(
                                    name,
                                    cluster,
                                    plan.namespace(),
                                    spec.backups().backup().orElseThrow(),
                                    spec.scheduling().jobs(),
                                    Backups.COMPONENT))));
    upgrade
        .upgradeJob()
        .ifPresent(
            name -> {
              Optional<ObjectNode> job = observed.job(name);
              if (job.isEmpty()) {
                String kubectl =
                    spec.backups()
                        .backup()
                        .map(BackupSpec.Backup::jobImage)
                        .orElse(BackupSpecReader.DEFAULT_JOB_IMAGE);
                children.addAll(
                    UpgradeJobs.build(
                        cluster,
                        plan.namespace(),
                        kubectl,
                        spec.scheduling().jobs(),
                        upgrade,
                        upgrade.primary().orElseThrow(),
                        spec.instances()));
                return;
              }
              children.add(Preserved.child(job.get()));
              if (!JobConditions.succeeded(job.get()) && !JobConditions.failed(job.get())) {
                String rbac = Names.upgrade(cluster);
                for (String kind : List.of("ServiceAccount", "Role", "RoleBinding")) {
                  observed
                      .child(
                          kind.equals("ServiceAccount") ? "v1" : "rbac.authorization.k8s.io/v1",
                          kind,
                          rbac)
                      .map(Preserved::child)
                      .ifPresent(children::add);
                }
              }
            });
    return children;
  }

  /**
   * The last guard before answering: a rendered child list must keep every observed Secret and the StatefulSet.
   * If it does not, something is wrong in this code, and a 500 (Metacontroller retries, touches nothing) is
   * the safe answer, never a 200 that deletes data.
   */
  static void checkNothingLost(ObservedCluster observed, List<ObjectNode> children) {
    Set<String> kept =
        children.stream()
            .map(c -> c.path("kind").asText() + "/" + Names.of(c))
            .collect(Collectors.toSet());
    List<ObjectNode> mustStay = new ArrayList<>(observed.children("v1", "Secret"));
    observed.statefulSet().ifPresent(mustStay::add);
    for (ObjectNode child : mustStay) {
      String key = child.path("kind").asText() + "/" + Names.of(child);
      if (!kept.contains(key)) {
        throw new IllegalStateException("rendered children would drop the observed " + key);
      }
    }
  }
}
