package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;

/**
 * Where a standby cluster stands. {@code FOLLOWING}: {@code spec.standby} is set, the cluster replays its source's
 * WAL. {@code PROMOTING}: {@code spec.standby} was removed and the parameters Job that ends standby mode has not
 * completed. {@code PROMOTED}: that Job completed. {@code NONE}: the cluster never was a standby.
 *
 * <p>Patroni leaves standby mode when {@code standby_cluster} is gone from its dynamic configuration
 * (patroni/ha.py:186-194 at v3.0.2 reads it from the DCS; patroni/utils.py:401-403 counts a configuration without
 * host, port or restore_command as no standby), so the parameters Job sends {@code "standby_cluster": null}, which
 * {@code PATCH /config} removes. The phase is read from what was applied: the StatefulSet's {@code STANDBY_*}
 * variables, and the parameters Jobs that sent the null.
 */
public enum StandbyPhase {
  FOLLOWING,
  PROMOTING,
  PROMOTED,
  NONE;

  /** The prefix of Spilo's standby variables. */
  public static final String ENV_PREFIX = "STANDBY_";

  /** The phase of the cluster the spec asks for, given what was applied. */
  public static StandbyPhase of(ClusterSpec spec, ObservedCluster observed) {
    if (spec.standby().isPresent()) {
      return FOLLOWING;
    }
    boolean sent = false;
    for (ObjectNode job : observed.jobsOf(ParameterPatch.COMPONENT)) {
      if (sendsPromotion(job)) {
        if (JobConditions.succeeded(job)) {
          return PROMOTED;
        }
        sent = true;
      }
    }
    return sent || !observed.appliedSpiloEnv(ENV_PREFIX).isEmpty() ? PROMOTING : NONE;
  }

  /** Whether a parameters Job that ends standby mode is observed (completed or not). */
  public static boolean promotionSent(ObservedCluster observed) {
    return observed.jobsOf(ParameterPatch.COMPONENT).stream()
        .anyMatch(StandbyPhase::sendsPromotion);
  }

  /** Nothing of this cluster's own is written yet: no users Job, no backups. */
  public boolean readOnly() {
    return this == FOLLOWING || this == PROMOTING;
  }

  /** The parameters Job sends {@code standby_cluster: null}. */
  public boolean promotes() {
    return this == PROMOTING || this == PROMOTED;
  }

  /** A parameters Job whose patch removes {@code standby_cluster}. */
  private static boolean sendsPromotion(ObjectNode job) {
    for (JsonNode env : job.at("/spec/template/spec/containers/0/env")) {
      if (ParameterPatch.VARIABLE.equals(env.path("name").asText())
          && env.path("value").isTextual()) {
        try {
          JsonNode patch = Json.reader().readTree(env.path("value").asText().replace("$$", "$"));
          return patch.has(ParameterPatch.STANDBY_KEY)
              && patch.get(ParameterPatch.STANDBY_KEY).isNull();
        } catch (Exception e) {
          return false; // not our JSON
        }
      }
    }
    return false;
  }
}
