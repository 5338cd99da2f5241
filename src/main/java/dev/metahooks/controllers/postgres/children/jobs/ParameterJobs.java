package dev.metahooks.controllers.postgres.children.jobs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.children.Jobs;
import dev.metahooks.controllers.postgres.plan.ParameterPatch;
import dev.metahooks.controllers.postgres.plan.PatroniSettings;
import dev.metahooks.controllers.postgres.plan.Tls;
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
  public static final String COMPONENT = ParameterPatch.COMPONENT;
  public static final String CONTAINER = "parameters";

  /** Waits for the REST API (the pods may still start), then one PATCH; anything but 200 fails the try. */
  public static final String SCRIPT = ResourceTexts.load("scripts/parameters.sh");

  public static final String PATCH_VARIABLE = ParameterPatch.VARIABLE;
  public static final String EXPECTED_VARIABLE = "EXPECTED";

  /** The read-back on one member: what differs from {@code EXPECTED}. */
  public static final String READBACK_SQL = ResourceTexts.load("sql/parameters-readback.sql");

  private ParameterJobs() {}

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
}
