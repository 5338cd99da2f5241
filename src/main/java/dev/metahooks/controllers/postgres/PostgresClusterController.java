package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.CustomizeRequest;
import dev.metahooks.api.CustomizeResponse.RelatedResourceRule;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.Json;
import dev.metahooks.api.Sources;
import dev.metahooks.kube.FieldProblem;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * PostgresCluster ({@code metahooks.dev/v1alpha1}): a PostgreSQL cluster run by Spilo (PostgreSQL and Patroni),
 * rendered into a StatefulSet, Services, Secrets, Patroni's RBAC, a PodDisruptionBudget and a users Job.
 * Patroni inside the pods does leader election and failover; these hooks only say what should exist.
 *
 * <p>Rules that protect data: an invalid spec or {@code paused: true} freezes the children as they are
 * (re-emitted, never rebuilt or dropped); Secrets are never regenerated; a fault answers 500, never a shorter
 * child list; deletion waits while {@code deletionProtection} is on.
 */
public final class PostgresClusterController {
  private PostgresClusterController() {}

  public static Controller controller(Sources sources) {
    return Controller.composite("postgrescluster")
        .sync(request -> request.finalizing() ? finalize(request, sources) : sync(request, sources))
        .finalize(request -> finalize(request, sources))
        .customize(PostgresClusterController::customize)
        .build();
  }

  public static CompositeResponse sync(CompositeRequest request, Sources sources) {
    ObservedCluster observed = ObservedCluster.of(request);
    SpecReader.Result read = SpecReader.read(request.parent());
    ClusterSpec spec = read.spec();
    List<FieldProblem> problems = new ArrayList<>(read.problems());
    if (read.valid()) {
      problems.addAll(ChangeChecks.check(spec, observed));
      WalArchive.bootstrapChange(spec.backups(), observed).ifPresent(problems::add);
      PrefixClaims.check(request, spec.backups()).ifPresent(problems::add);
    }
    ClusterStatus.Mode mode;
    List<ObjectNode> children;
    Optional<String> usersJob = Optional.empty();
    Optional<String> parametersJob = Optional.empty();
    boolean templateChanging = false;
    Rollout.Plan rollout = Rollout.Plan.settled(OptionalInt.empty());
    if (spec.paused()) {
      mode = ClusterStatus.Mode.PAUSED;
      children = Preserved.all(observed.children());
    } else if (!problems.isEmpty()) {
      mode = ClusterStatus.Mode.INVALID;
      children = Preserved.all(observed.children());
    } else {
      mode = ClusterStatus.Mode.RENDERED;
      children = desired(request.namespace(), spec, observed, sources);
      usersJob = jobOf(children, "users");
      parametersJob = jobOf(children, ParameterJobs.COMPONENT);
      ObjectNode sts = children.stream().filter(c -> "StatefulSet".equals(c.path("kind").asText())).findFirst()
          .orElseThrow();
      templateChanging = templateChanges(observed, sts);
      rollout = Rollout.plan(observed.name(), request.namespace(), spec, observed, templateChanging, sources.now());
      rollout.partition().ifPresent(partition -> StatefulSets.partition(sts, partition));
      rollout.switchoverJob().map(job -> Tls.forLeader(job, observed)).ifPresent(children::add);
      checkNothingLost(observed, children);
    }
    ObjectNode status = ClusterStatus.compute(new ClusterStatus.Input(request.parent(), observed, spec,
        List.copyOf(problems), mode, usersJob, templateChanging, "", rollout, parametersJob), sources.now());
    CompositeResponse response = CompositeResponse.of(status, children);
    // Called again when a maintenance window opens or the backup schedule next fires; an answer that carries
    // this is never replayed from the response cache.
    Optional<Instant> callAgain = mode == ClusterStatus.Mode.RENDERED
        ? Stream.of(rollout.waitingUntil(), BackupStatus.nextJudgement(spec, sources.now()))
            .flatMap(Optional::stream).min(Comparator.naturalOrder())
        : Optional.empty();
    return callAgain.map(at -> response.withResyncAfterSeconds(
        Math.max(1, Math.ceil(Duration.between(sources.now(), at).toMillis() / 1000.0)))).orElse(response);
  }

  /**
   * Deletion: while {@code deletionProtection} (or {@code paused}) is on, the children are kept as they are and
   * the finalizer stays. Otherwise no children are desired (Metacontroller deletes them); once the StatefulSet and
   * its pods are gone, a cleanup Job removes Patroni's ConfigMaps, and the finalizer goes only when none is left,
   * so that a cluster created again under the same name bootstraps. Volumes follow
   * {@code storage.retentionPolicy.whenDeleted}. With {@code backup.finalBackup}, everything is kept until the
   * final backup Job has completed ({@link FinalBackups}); a failed one keeps everything.
   */
  public static CompositeResponse finalize(CompositeRequest request, Sources sources) {
    ObservedCluster observed = ObservedCluster.of(request);
    SpecReader.Result read = SpecReader.read(request.parent());
    String blockedBy = read.spec().deletionProtection() ? "DeletionProtection" : read.spec().paused() ? "Paused" : "";
    FinalBackups.Step finalBackup = blockedBy.isEmpty() ? FinalBackups.step(request.namespace(), read, observed)
        : new FinalBackups.Step("", List.of());
    if (finalBackup.blocks()) {
      blockedBy = finalBackup.blockedBy();
    }
    boolean blocked = !blockedBy.isEmpty();
    boolean podsGone = observed.statefulSet().isEmpty() && observed.allPods().isEmpty();
    List<ObjectNode> children;
    if (finalBackup.blocks()) {
      children = finalBackup.children();
    } else if (blocked) {
      children = Preserved.all(observed.children());
    } else if (podsGone && !observed.patroniConfigMaps().isEmpty()) {
      children = ObservedCluster.inTypeOrder(concat(finalBackup.children(),
          Cleanup.build(observed.name(), request.namespace(), read.spec().image(), observed.patroniConfigMaps())));
    } else {
      children = finalBackup.children();
    }
    ObjectNode status = ClusterStatus.compute(new ClusterStatus.Input(request.parent(), observed, read.spec(),
        read.problems(), blocked ? ClusterStatus.Mode.DELETION_BLOCKED : ClusterStatus.Mode.DELETING,
        Optional.empty(), false, blockedBy, Rollout.Plan.settled(OptionalInt.empty()), Optional.empty()), sources.now());
    boolean finalized = !blocked && podsGone && observed.patroniConfigMaps().isEmpty();
    return CompositeResponse.of(status, children).withFinalized(finalized);
  }

  private static List<ObjectNode> concat(List<ObjectNode> first, List<ObjectNode> second) {
    List<ObjectNode> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  /** The name of the rendered Job of the component, if any. */
  private static Optional<String> jobOf(List<ObjectNode> children, String component) {
    return children.stream().filter(c -> "Job".equals(c.path("kind").asText()))
        .filter(c -> component.equals(c.path("metadata").path("labels").path(Labels.COMPONENT).asText()))
        .map(ObservedCluster::nameOf).findFirst();
  }

  /**
   * The database pods of the cluster (status.primary and readiness), and Patroni's ConfigMaps (removed on
   * deletion); Patroni labels both with the scope label and {@code KUBERNETES_LABELS}. With {@code spec.tls}, the
   * TLS Secret.
   */
  public static CustomizeResponse customize(CustomizeRequest request) {
    List<RelatedResourceRule> rules = new ArrayList<>(List.of(
        RelatedResourceRule.of("v1", "pods").inNamespace(request.namespace()).withLabelSelector(scopeSelector(request)),
        RelatedResourceRule.of("v1", "configmaps").inNamespace(request.namespace()).withLabelSelector(scopeSelector(request)),
        // The namespace's clusters, so that two do not claim one backup prefix (PrefixClaims).
        RelatedResourceRule.of(PrefixClaims.API_VERSION, "postgresclusters").inNamespace(request.namespace())
            .withLabelSelector(Json.object())));
    // The TLS Secret, by name, so that its absence, contents and renewal are seen (and trigger a sync).
    SpecReader.read(request.parent()).spec().tls().ifPresent(tls -> rules.add(RelatedResourceRule.of("v1", "secrets")
        .inNamespace(request.namespace()).withNames(List.of(tls.secretName()))));
    return new CustomizeResponse(rules);
  }

  private static ObjectNode scopeSelector(CustomizeRequest request) {
    ObjectNode selector = Json.object();
    selector.putObject("matchLabels")
        .put(Labels.CLUSTER_NAME, request.name())
        .put(Labels.NAME, Labels.APP);
    return selector;
  }

  /** Every child a valid, unpaused spec asks for, in the order of {@link ObservedCluster#CHILD_TYPES}. */
  static List<ObjectNode> desired(String namespace, ClusterSpec spec, ObservedCluster observed, Sources sources) {
    String cluster = observed.name();
    List<ObjectNode> children = new ArrayList<>(PatroniRbac.build(cluster, namespace));
    Tls.State tls = Tls.check(spec.tls(), observed, sources.now());
    Optional<Tls.Rendering> podTls = Tls.rendering(spec.tls(), tls, observed);
    List<ObjectNode> secrets = Secrets.build(cluster, namespace, spec, observed, sources);
    Tls.userSecrets(cluster, spec, tls, secrets);
    children.addAll(secrets);
    children.addAll(Services.build(cluster, spec));
    ObjectNode sts = PatroniSettings.withBootstrap(StatefulSets.build(cluster, spec), spec.patroni(), observed);
    podTls.ifPresent(rendering -> Tls.apply(sts, cluster, namespace, rendering));
    children.add(sts);
    DisruptionBudgets.build(cluster, spec).ifPresent(children::add);
    NetworkPolicies.build(cluster, spec).ifPresent(children::add);
    UsersJobs.build(cluster, namespace, spec, secrets).ifPresent(children::add);
    ParameterJobs.build(cluster, namespace, spec, observed).map(job -> Tls.forMembers(job, podTls))
        .ifPresent(children::add);
    Exporters.service(cluster, spec).ifPresent(children::add);
    Exporters.podMonitor(cluster, spec, observed).ifPresent(children::add);
    children.addAll(Poolers.build(cluster, namespace, spec));
    children.addAll(Backups.children(cluster, namespace, spec, observed));
    return ObservedCluster.inTypeOrder(children);
  }

  /**
   * Whether the rendered StatefulSet has another pod template than the one last applied (observed objects carry
   * server defaults, so the last-applied configuration is what compares); unknown counts as unchanged.
   */
  static boolean templateChanges(ObservedCluster observed, ObjectNode desired) {
    return observed.statefulSet().flatMap(Preserved::lastApplied)
        .map(applied -> !applied.path("spec").path("template").equals(desired.path("spec").path("template")))
        .orElse(false);
  }

  /**
   * The last guard before answering: a rendered child list must keep every observed Secret and the StatefulSet.
   * If it does not, something is wrong in this code, and a 500 (Metacontroller retries, touches nothing) is
   * the safe answer, never a 200 that deletes data.
   */
  static void checkNothingLost(ObservedCluster observed, List<ObjectNode> children) {
    Set<String> kept = children.stream()
        .map(c -> c.path("kind").asText() + "/" + ObservedCluster.nameOf(c))
        .collect(Collectors.toSet());
    List<ObjectNode> mustStay = new ArrayList<>(observed.children("v1", "Secret"));
    observed.statefulSet().ifPresent(mustStay::add);
    for (ObjectNode child : mustStay) {
      String key = child.path("kind").asText() + "/" + ObservedCluster.nameOf(child);
      if (!kept.contains(key)) {
        throw new IllegalStateException("rendered children would drop the observed " + key);
      }
    }
  }
}
