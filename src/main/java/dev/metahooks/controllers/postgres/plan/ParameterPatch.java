package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.ReloadableParameters;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.base.SpiloPinnedParameters;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import java.util.Optional;

/**
 * What the parameters Job sends: {@code body} to Patroni's {@code PATCH /config}, in Job {@code job}, named after it;
 * {@code expected}, the settings (a JSON object) it then reads back on every member.
 */
public record ParameterPatch(String job, String body, String expected) {
  /** The parameters Jobs' component label. */
  public static final String COMPONENT = "parameters";

  /** The Job's variable that holds {@code body}. */
  public static final String VARIABLE = "PATCH";

  /** The key of Patroni's dynamic configuration whose removal ends standby mode. */
  public static final String STANDBY_KEY = "standby_cluster";

  /**
   * The patch the spec asks for while instances run: the spec's parameters, those removed since the observed Jobs
   * sent them as {@code null}, and Patroni's availability settings.
   */
  public static Optional<ParameterPatch> of(
      String cluster, ClusterSpec spec, ObservedCluster observed) {
    return of(cluster, spec, observed, false);
  }

  /**
   * The same, and with {@code promote} also {@code "standby_cluster": null}, which ends standby mode
   * ({@link StandbyPhase}).
   */
  public static Optional<ParameterPatch> of(
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
                        ? Spilo.preloadLibraries(value)
                        : value));
    ObjectNode patch = PatroniSettings.dynamic(spec.patroni());
    if (!parameters.isEmpty()) {
      patch.putObject("postgresql").set("parameters", parameters);
    }
    if (promote) {
      patch.putNull(STANDBY_KEY);
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

  /** The parameter names the observed parameters Jobs sent. */
  private static java.util.Set<String> previousNames(ObservedCluster observed) {
    java.util.Set<String> names = new java.util.TreeSet<>();
    for (ObjectNode job : observed.jobsOf(COMPONENT)) {
      for (JsonNode env : job.at("/spec/template/spec/containers/0/env")) {
        if (VARIABLE.equals(env.path("name").asText()) && env.path("value").isTextual()) {
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
