package dev.metahooks.controllers.postgres.children.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.children.Jobs;
import dev.metahooks.controllers.postgres.children.pod.ReloadableParameters;
import dev.metahooks.controllers.postgres.children.pod.SpiloPinnedParameters;
import dev.metahooks.controllers.postgres.children.pod.StatefulSets;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.plan.ParameterPatch;
import dev.metahooks.controllers.postgres.plan.PatroniSettings;
import dev.metahooks.controllers.postgres.plan.Tls;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.kube.KubeletText;
import java.util.Optional;

/**
 * The parameters Job {@code <n>-parameters-<hash>}: writes the spec's PostgreSQL settings and Patroni's availability
 * settings ({@link PatroniSettings}: failsafe and synchronous mode) into Patroni's dynamic configuration ({@code PATCH /config}, authenticated with the {@code <n>-restapi} Secret). Every member reloads;
 * a setting that needs a restart shows as {@code pending_restart} until the rollout restarts the pods (such a
 * setting is in the pod template as well, so changing it rolls them). A setting removed from the spec is sent as
 * {@code null}, which Patroni removes; the removed names are read from the observed Job of the previous change.
 */
public final class ParameterJobs {
  public static final String COMPONENT = "parameters";
  public static final String CONTAINER = "parameters";

  /** Waits for the REST API (the pods may still start), then one PATCH; anything but 200 fails the try. */
  public static final String SCRIPT = ResourceTexts.load("scripts/parameters.sh");

  public static final String PATCH_VARIABLE = "PATCH";
  public static final String EXPECTED_VARIABLE = "EXPECTED";

  /** The read-back on one member: what differs from {@code EXPECTED}. */
  public static final String READBACK_SQL = ResourceTexts.load("sql/parameters-readback.sql");

  private ParameterJobs() {}

  /**
   * The patch the spec asks for while instances run: the spec's parameters, those removed since the observed Jobs
   * sent them as {@code null}, and Patroni's availability settings.
   */
  public static Optional<ParameterPatch> patch(
      String cluster, ClusterSpec spec, ObservedCluster observed) {
    return patch(cluster, spec, observed, false);
  }

  /**
   * The same, and with {@code promote} also {@code "standby_cluster": null}, which ends standby mode
   * ({@link StandbyPromotion}).
   */
  public static Optional<ParameterPatch> patch(
      String cluster, ClusterSpec spec, ObservedCluster observed, boolean promote) {
    if (spec.instances() == 0) {
      return Optional.empty();
    }
    ObjectNode parameters = Json.object();
    previousNames(observed)
        .forEach(
            name -> {
              if (!spec.parameters().containsKey(name)) {
                parameters.putNull(name);
              }
            });
    spec.parameters()
        .forEach(
            (name, value) ->
                parameters.put(
                    name,
                    name.equals("shared_preload_libraries")
                        ? StatefulSets.preloadLibraries(value)
                        : value));
    ObjectNode patch = PatroniSettings.dynamic(spec.patroni());
    if (!parameters.isEmpty()) {
      patch.putObject("postgresql").set("parameters", parameters);
    }
    if (promote) {
      patch.putNull(StandbyPromotion.KEY);
    }
    String body = patch.toString();
    // Read back on every member: what a reload applies, but not what Spilo pins locally (the
    // rollout brings those).
    ObjectNode expected = Json.object();
    spec.parameters()
        .forEach(
            (name, value) -> {
              if (ReloadableParameters.reloadable(name)
                  && !SpiloPinnedParameters.NAMES.contains(name)) {
                expected.put(name, value);
              }
            });
    return Optional.of(
        new ParameterPatch(
            cluster + "-parameters-" + Names.shortHash(body), body, expected.toString()));
  }

  /** The Job, over https when the rendered pods serve Patroni's REST API so ({@code podTls}, {@link PatroniCall}). */
  public static ObjectNode build(
      String cluster,
      String namespace,
      String image,
      PodScheduling placement,
      ParameterPatch patch,
      Optional<Tls.Rendering> podTls) {
    ObjectNode job = Jobs.job(patch.job(), cluster, COMPONENT, placement);
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("automountServiceAccountToken", false);
    ObjectNode container = Jobs.container(pod, CONTAINER, image);
    container
        .putArray("command")
        .add("/bin/sh")
        .add("-c")
        .add(KubeletText.literal(SCRIPT))
        .add(COMPONENT)
        .add(KubeletText.literal(READBACK_SQL));
    ArrayNode env = container.putArray("env");
    // Any member writes the dynamic configuration; the headless Service's name reaches one of them.
    PatroniCall patroni = PatroniCall.anyMember(cluster, namespace, podTls);
    patroni.addUrl(env);
    // The kubelet expands $(NAME) in env values and reduces $$ to $: doubled, no value can refer to
    // a variable.
    env.addObject().put("name", PATCH_VARIABLE).put("value", KubeletText.literal(patch.body()));
    patroni.addLogin(env, cluster);
    // The read-back: each member's PostgreSQL as the superuser (the script points PGHOST and PGPORT
    // at each).
    env.addObject()
        .put("name", EXPECTED_VARIABLE)
        .put("value", KubeletText.literal(patch.expected()));
    env.addAll(Jobs.primaryConnection(cluster, namespace, cluster + "-parameters"));
    patroni.addTrust(pod, container);
    return job;
  }

  /** The parameter names the observed parameters Jobs sent. */
  private static java.util.Set<String> previousNames(ObservedCluster observed) {
    java.util.Set<String> names = new java.util.TreeSet<>();
    for (ObjectNode job : observed.children("batch/v1", "Job")) {
      if (!COMPONENT.equals(job.path("metadata").path("labels").path(Labels.COMPONENT).asText())) {
        continue;
      }
      for (JsonNode env : job.at("/spec/template/spec/containers/0/env")) {
        if (PATCH_VARIABLE.equals(env.path("name").asText()) && env.path("value").isTextual()) {
          try {
            Json.reader()
                .readTree(env.path("value").asText())
                .path("postgresql")
                .path("parameters")
                .fieldNames()
                .forEachRemaining(names::add);
          } catch (Exception e) {
            // Not our JSON: nothing to remove.
          }
        }
      }
    }
    return names;
  }
}
