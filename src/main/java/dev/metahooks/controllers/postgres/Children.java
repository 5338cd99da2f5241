package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.ChildTypes;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.children.PatroniRbac;
import dev.metahooks.controllers.postgres.children.access.Secrets;
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
import dev.metahooks.controllers.postgres.observed.Members;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.observed.Preserved;
import dev.metahooks.controllers.postgres.plan.ClusterPlan;
import dev.metahooks.controllers.postgres.plan.FinalBackups;
import dev.metahooks.controllers.postgres.plan.JobChoice;
import dev.metahooks.controllers.postgres.plan.MajorUpgrade;
import dev.metahooks.controllers.postgres.plan.ManualSwitchover;
import dev.metahooks.controllers.postgres.plan.Mode;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.spec.BackupSpec;
import dev.metahooks.controllers.postgres.spec.BackupSpecReader;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.ArrayList;
import java.util.List;
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
    if (plan.rendering().isEmpty()) {
      return Preserved.all(observed.children());
    }
    List<ObjectNode> children = rendered(plan, plan.rendering().get(), observed);
    checkNothingLost(observed, children);
    return children;
  }

  /**
   * The children of a finalize call: none once nothing holds the deletion (Metacontroller deletes them), except the
   * final backup's and, once the pods are gone, the cleanup Job that removes Patroni's ConfigMaps.
   */
  static List<ObjectNode> ofFinalize(ClusterPlan plan, ObservedCluster observed) {
    List<ObjectNode> finalBackup = finalBackupChildren(plan, observed);
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

  /**
   * The final backup's children at its stage of a deletion ({@link FinalBackups}): while it holds the deletion,
   * every observed child as it is, with its Job and the Job's RBAC added when it is to start; once done, its Job.
   */
  private static List<ObjectNode> finalBackupChildren(ClusterPlan plan, ObservedCluster observed) {
    switch (plan.finalBackup()) {
      case NOT_ASKED, SKIPPED -> {
        return List.of();
      }
      case DONE -> {
        return List.of(Preserved.child(FinalBackups.observedJob(observed).orElseThrow()));
      }
      case START -> {
        List<ObjectNode> children = new ArrayList<>(Preserved.all(observed.children()));
        Set<String> present =
            observed.children().stream().map(Children::key).collect(Collectors.toSet());
        String cluster = plan.cluster();
        List<ObjectNode> needed =
            new ArrayList<>(
                Backups.rbac(
                    cluster,
                    plan.namespace(),
                    Members.names(cluster, plan.spec().instances(), observed)));
        needed.add(Backups.finalBackupJob(cluster, plan.namespace(), plan.spec()));
        needed.stream().filter(child -> !present.contains(key(child))).forEach(children::add);
        return ChildTypes.inTypeOrder(children);
      }
      default -> {
        return Preserved.all(observed.children());
      }
    }
  }

  private static String key(ObjectNode child) {
    return child.path("kind").asText() + "/" + Names.of(child);
  }

  /** The StatefulSet and its pods are gone. */
  static boolean podsGone(ObservedCluster observed) {
    return observed.statefulSet().isEmpty() && observed.allPods().isEmpty();
  }

  private static List<ObjectNode> rendered(
      ClusterPlan plan, ClusterPlan.Rendering rendering, ObservedCluster observed) {
    String cluster = plan.cluster();
    String namespace = plan.namespace();
    ClusterSpec spec = plan.spec();
    ClusterPlan.Pods pods = rendering.pods();
    ClusterPlan.Jobs jobs = rendering.jobs();
    List<ObjectNode> secrets =
        Secrets.build(cluster, namespace, spec, rendering.access().credentials(), plan.tls());
    List<ObjectNode> children =
        new ArrayList<>(PatroniRbac.build(cluster, namespace, pods.members()));
    children.addAll(secrets);
    children.addAll(Services.build(cluster, spec));
    children.add(
        StatefulSets.build(
            cluster,
            namespace,
            spec,
            pods.bootstrap(),
            pods.tls(),
            pods.rollout().replicas(spec),
            pods.volumes().templateSize()));
    if (pods.volumes().resizing()) {
      children.addAll(
          VolumeResize.build(
              cluster, namespace, spec.image(), spec.scheduling().jobs(), pods.volumes()));
    }
    DisruptionBudgets.build(cluster, spec).ifPresent(children::add);
    NetworkPolicies.build(cluster, spec, rendering.access().liveClones()).ifPresent(children::add);
    NetworkPolicies.pooler(cluster, spec).ifPresent(children::add);
    // The plan asks for no users Job while the cluster is a standby.
    jobs.users()
        .map(
            name ->
                UsersJobs.build(
                    name,
                    cluster,
                    namespace,
                    observed.uid(),
                    spec,
                    UsersJobs.secretNames(cluster, spec, rendering.access().credentials())))
        .ifPresent(children::add);
    jobs.parameters()
        .map(
            patch ->
                ParameterJobs.build(
                    cluster, namespace, spec.image(), spec.scheduling().jobs(), patch, pods.tls()))
        .ifPresent(children::add);
    pods.rollout()
        .switchover()
        .map(
            switchover ->
                Switchovers.job(
                    cluster, namespace, spec.image(), spec.scheduling().jobs(), switchover))
        .ifPresent(children::add);
    pods.rollout()
        .restart()
        .map(
            restart ->
                Restarts.build(cluster, namespace, spec.image(), spec.scheduling().jobs(), restart))
        .ifPresent(children::addAll);
    jobs.manualSwitchover()
        .flatMap(ManualSwitchover.Plan::job)
        .map(
            switchover ->
                Switchovers.job(
                    cluster, namespace, spec.image(), spec.scheduling().jobs(), switchover))
        .ifPresent(children::add);
    Exporters.service(cluster, spec).ifPresent(children::add);
    Exporters.podMonitor(cluster, spec, rendering.access().podMonitorsDeclared())
        .ifPresent(children::add);
    children.addAll(Poolers.build(cluster, namespace, spec, Tls.pooler(pods.tls(), observed)));
    children.addAll(Backups.children(cluster, namespace, spec, pods.members(), jobs.backups()));
    children.addAll(upgradeChildren(plan, jobs.upgrade(), observed));
    return ChildTypes.inTypeOrder(children);
  }

  /** A major upgrade's Jobs as the plan chose them, and the upgrade Job's RBAC while it runs. */
  private static List<ObjectNode> upgradeChildren(
      ClusterPlan plan, ClusterPlan.Upgrade upgrade, ObservedCluster observed) {
    String cluster = plan.cluster();
    ClusterSpec spec = plan.spec();
    List<ObjectNode> children = new ArrayList<>();
    upgrade
        .backupJob()
        .ifPresent(
            choice ->
                children.add(
                    choice instanceof JobChoice.KeepObserved
                        ? kept(observed, choice)
                        : Backups.baseBackupJob(
                            choice.name(),
                            cluster,
                            plan.namespace(),
                            spec.backups().backup().orElseThrow(),
                            spec.scheduling().jobs(),
                            Backups.COMPONENT)));
    upgrade
        .job()
        .ifPresent(
            choice -> {
              if (choice instanceof JobChoice.KeepObserved) {
                children.add(kept(observed, choice));
                return;
              }
              MajorUpgrade.Plan upgradePlan = upgrade.plan().orElseThrow();
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
                      upgradePlan,
                      upgradePlan.primary().orElseThrow(),
                      spec.instances()));
            });
    if (upgrade.rbacKept()) {
      String rbac = Names.upgrade(cluster);
      for (String kind : List.of("ServiceAccount", "Role", "RoleBinding")) {
        observed
            .child(
                kind.equals("ServiceAccount") ? "v1" : "rbac.authorization.k8s.io/v1", kind, rbac)
            .map(Preserved::child)
            .ifPresent(children::add);
      }
    }
    return children;
  }

  private static ObjectNode kept(ObservedCluster observed, JobChoice job) {
    return Preserved.child(observed.job(job.name()).orElseThrow());
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
