package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.CustomizeRequest;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.CustomizeResponse.RelatedResourceRule;
import dev.metahooks.api.Json;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import dev.metahooks.controllers.postgres.observed.ArchiveInUse;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.observed.ObservedCluster.RelatedType;
import dev.metahooks.controllers.postgres.plan.ArchiveScope;
import dev.metahooks.controllers.postgres.plan.ClusterPlan;
import dev.metahooks.controllers.postgres.plan.Mode;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.controllers.postgres.status.ClusterStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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

  /** The controller as the server runs it: archives beyond a namespace as {@link ArchiveScope#fromEnvironment}. */
  public static Controller controller(Sources sources) {
    return controller(sources, ArchiveScope.fromEnvironment());
  }

  public static Controller controller(Sources sources, ArchiveScope archives) {
    return Controller.composite("postgrescluster")
        .sync(
            request ->
                request.finalizing()
                    ? finalize(request, sources)
                    : sync(request, sources, archives))
        .finalize(request -> finalize(request, sources))
        .customize(PostgresClusterController::customize)
        .build();
  }

  /** {@link #sync(CompositeRequest, Sources, ArchiveScope)} with archives kept in the namespace. */
  public static CompositeResponse sync(CompositeRequest request, Sources sources) {
    return sync(request, sources, ArchiveScope.NAMESPACE);
  }

  /** Read the spec, observe, plan, render, compute the status: each one call. */
  public static CompositeResponse sync(
      CompositeRequest request, Sources sources, ArchiveScope archives) {
    SpecReader.Result spec = SpecReader.read(request.parent(), ArchiveInUse.of(request));
    ObservedCluster observed = ObservedCluster.of(request, spec.spec());
    ClusterPlan plan = Planner.sync(request, spec, observed, sources, archives);
    List<ObjectNode> children = Children.ofSync(plan, observed);
    ObjectNode status = ClusterStatus.compute(plan, observed, request.parent(), sources.now());
    // An answer that asks to be called again is never replayed from the response cache.
    return plan.callAgainAt()
        .map(
            at ->
                CompositeResponse.of(status, children)
                    .withResyncAfterSeconds(
                        Math.max(
                            1, Math.ceil(Duration.between(sources.now(), at).toMillis() / 1000.0))))
        .orElseGet(() -> CompositeResponse.of(status, children));
  }

  /**
   * Deletion: while {@code deletionProtection} (or {@code paused}) is on, the children are kept as they are and
   * the finalizer stays. Otherwise no children are desired (Metacontroller deletes them); once the StatefulSet and
   * its pods are gone, a cleanup Job removes Patroni's ConfigMaps, and the finalizer goes only when none is left,
   * so that a cluster created again under the same name bootstraps. Volumes follow
   * {@code storage.retentionPolicy.whenDeleted}. With {@code backup.finalBackup}, everything is kept until the
   * final backup Job has completed ({@code FinalBackups}); a failed one keeps everything.
   */
  public static CompositeResponse finalize(CompositeRequest request, Sources sources) {
    SpecReader.Result spec = SpecReader.read(request.parent(), ArchiveInUse.of(request));
    ObservedCluster observed = ObservedCluster.of(request, spec.spec());
    ClusterPlan plan = Planner.finalize(request, spec, observed, sources);
    List<ObjectNode> children = Children.ofFinalize(plan, observed);
    ObjectNode status = ClusterStatus.compute(plan, observed, request.parent(), sources.now());
    boolean finalized =
        plan.mode() instanceof Mode.Deleting
            && Children.podsGone(observed)
            && observed.patroniConfigMaps().isEmpty();
    return CompositeResponse.of(status, children).withFinalized(finalized);
  }

  /**
   * The database pods of the cluster (status.primary and readiness), and Patroni's ConfigMaps (removed on
   * deletion); Patroni labels both with the scope label and {@code KUBERNETES_LABELS}. With {@code spec.tls}, the
   * TLS Secret. The
   * cluster's volume claims and the StorageClasses, read when the volumes grow ({@code VolumeGrowth}).
   */
  public static CustomizeResponse customize(CustomizeRequest request) {
    ClusterSpec spec = SpecReader.read(request.parent()).spec();
    List<RelatedResourceRule> rules = new ArrayList<>();
    for (RelatedType type : ObservedCluster.relatedTypes(spec)) {
      rules.add(rule(type, spec, request));
    }
    // The claims carry the claim templates' labels (not Patroni's scope label); StorageClasses are
    // cluster-scoped.
    rules.add(
        RelatedResourceRule.of(
                ObservedCluster.CLAIMS.apiVersion(), ObservedCluster.CLAIMS.resource())
            .inNamespace(request.namespace())
            .withLabelSelector(
                Json.object().set("matchLabels", Labels.podSelector(request.name()))));
    // Hook version v1 keys related objects by name in the parent's namespace only: no StorageClass
    // there.
    if ("v2".equals(request.controller().at("/spec/hooks/customize/version").asText())) {
      rules.add(
          RelatedResourceRule.of(
                  ObservedCluster.STORAGE_CLASSES.apiVersion(),
                  ObservedCluster.STORAGE_CLASSES.resource())
              .withLabelSelector(Json.object()));
    }
    return new CustomizeResponse(rules);
  }

  private static RelatedResourceRule rule(
      RelatedType type, ClusterSpec spec, CustomizeRequest request) {
    RelatedResourceRule rule =
        RelatedResourceRule.of(type.apiVersion(), type.resource()).inNamespace(request.namespace());
    if (type.equals(ObservedCluster.CLUSTERS)) {
      // The namespace's clusters, so that two do not claim one backup prefix (PrefixClaims).
      return rule.withLabelSelector(Json.object());
    }
    if (type.equals(ObservedCluster.GIVEN_SECRETS)) {
      // Only the Secrets given to this cluster by their label: an unmarked Secret never reaches the
      // hooks.
      return rule.withLabelSelector(SecretMarks.selector(request.name()));
    }
    return rule.withLabelSelector(scopeSelector(request));
  }

  private static ObjectNode scopeSelector(CustomizeRequest request) {
    ObjectNode selector = Json.object();
    selector
        .putObject("matchLabels")
        .put(Labels.CLUSTER_NAME, request.name())
        .put(Labels.NAME, Labels.APP);
    return selector;
  }
}
