package dev.metahooks.controllers.postgres.status;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.plan.MajorUpgrade;
import java.util.List;
import java.util.Optional;

/**
 * {@code status.majorUpgrade} and the {@code MajorUpgrade} condition, present while an upgrade to the spec's major
 * version waits or runs, and while its Job is kept: from, to, the phase, why, and the Jobs' names. The condition is
 * True once the cluster runs the new version, False (reason: the phase) before or when the upgrade failed.
 */
public final class MajorUpgradeStatus {
  public static final String CONDITION = "MajorUpgrade";

  private MajorUpgradeStatus() {}

  public static ObjectNode render(MajorUpgrade.Plan plan) {
    ObjectNode status =
        Json.object()
            .put("from", plan.from())
            .put("to", plan.to())
            .put("phase", plan.phase().name())
            .put("message", plan.message());
    plan.backupJob().ifPresent(job -> status.put("backupJob", job));
    plan.upgradeJob().ifPresent(job -> status.put("job", job));
    plan.waitingUntil().ifPresent(opens -> status.put("waitingUntil", opens.toString()));
    return status;
  }

  public static Conditions.Condition condition(MajorUpgrade.Plan plan) {
    return new Conditions.Condition(
        CONDITION,
        plan.phase().upgraded(),
        plan.phase().name(),
        "PostgreSQL " + plan.from() + " to " + plan.to() + ": " + plan.message());
  }

  /** Both, on the status and its conditions, when the plan has an upgrade. */
  static void add(
      Optional<MajorUpgrade.Plan> plan, ObjectNode status, List<Conditions.Condition> conditions) {
    plan.ifPresent(
        upgrade -> {
          status.set("majorUpgrade", render(upgrade));
          conditions.add(condition(upgrade));
        });
  }
}
