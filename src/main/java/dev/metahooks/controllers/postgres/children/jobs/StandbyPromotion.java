package dev.metahooks.controllers.postgres.children.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.children.standby.StandbyEnv;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.plan.StandbyPhase;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;

/**
 * Promotion of a standby cluster: Patroni leaves standby mode when {@code standby_cluster} is gone from its dynamic
 * configuration (patroni/ha.py:186-194 at v3.0.2 reads it from the DCS; patroni/utils.py:401-403 counts a
 * configuration without host, port or restore_command as no standby), so the parameters Job sends
 * {@code "standby_cluster": null}, which {@code PATCH /config} removes. The phase is read from what was applied: the
 * StatefulSet's {@code STANDBY_*} variables, and the parameters Jobs that sent the null.
 */
public final class StandbyPromotion {
  public static final String KEY = "standby_cluster";

  private StandbyPromotion() {}

  public static StandbyPhase phase(ClusterSpec spec, ObservedCluster observed) {
    if (spec.standby().isPresent()) {
      return StandbyPhase.FOLLOWING;
    }
    boolean sent = false;
    for (ObjectNode job : observed.children("batch/v1", "Job")) {
      if (sendsPromotion(job)) {
        if (JobConditions.succeeded(job)) {
          return StandbyPhase.PROMOTED;
        }
        sent = true;
      }
    }
    return sent || !StandbyEnv.observed(observed).isEmpty()
        ? StandbyPhase.PROMOTING
        : StandbyPhase.NONE;
  }

  /** Whether a parameters Job that ends standby mode is observed (completed or not). */
  public static boolean sent(ObservedCluster observed) {
    return observed.children("batch/v1", "Job").stream().anyMatch(StandbyPromotion::sendsPromotion);
  }

  /** A parameters Job whose patch removes {@code standby_cluster}. */
  private static boolean sendsPromotion(ObjectNode job) {
    if (!ParameterJobs.COMPONENT.equals(
        job.path("metadata").path("labels").path(Labels.COMPONENT).asText())) {
      return false;
    }
    for (JsonNode env : job.at("/spec/template/spec/containers/0/env")) {
      if (ParameterJobs.PATCH_VARIABLE.equals(env.path("name").asText())
          && env.path("value").isTextual()) {
        try {
          JsonNode patch = Json.reader().readTree(env.path("value").asText().replace("$$", "$"));
          return patch.has(KEY) && patch.get(KEY).isNull();
        } catch (Exception e) {
          return false; // not our JSON
        }
      }
    }
    return false;
  }
}
