package dev.metahooks.controllers.postgres.children.backup;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;

/** A Job run on a schedule: a CronJob with the Job's name, labels and spec, in UTC, one run at a time. */
final class CronJobs {
  private CronJobs() {}

  static ObjectNode of(
      ObjectNode job,
      String schedule,
      int startingDeadlineSeconds,
      int keepSucceeded,
      int keepFailed) {
    ObjectNode cron = Json.object().put("apiVersion", "batch/v1").put("kind", "CronJob");
    cron.set("metadata", job.path("metadata").deepCopy());
    ObjectNode cronSpec =
        cron.putObject("spec")
            .put("schedule", schedule)
            .put("timeZone", "Etc/UTC")
            .put("concurrencyPolicy", "Forbid")
            .put("startingDeadlineSeconds", startingDeadlineSeconds)
            .put("successfulJobsHistoryLimit", keepSucceeded)
            .put("failedJobsHistoryLimit", keepFailed);
    ObjectNode template = cronSpec.putObject("jobTemplate");
    template.putObject("metadata").set("labels", job.path("metadata").path("labels").deepCopy());
    template.set("spec", job.path("spec"));
    return cron;
  }
}
