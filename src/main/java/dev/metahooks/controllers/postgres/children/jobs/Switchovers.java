package dev.metahooks.controllers.postgres.children.jobs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.ResourceTexts;
import dev.metahooks.controllers.postgres.children.Jobs;
import dev.metahooks.controllers.postgres.plan.Rollout;
import dev.metahooks.controllers.postgres.spec.PodScheduling;
import dev.metahooks.kube.KubeletText;

/**
 * The switchover Job {@code <n>-switchover-<hash>}: asks the leader's Patroni REST API ({@code POST /switchover},
 * authenticated with the {@code <n>-restapi} Secret) to hand the leader to the candidate. Patroni answers once the
 * new leader holds the lock (200), or refuses (412: no such leader or candidate, candidate not healthy). A 503
 * (Patroni stopped waiting after about 20 s, or the request was dropped) or an answer lost on the way is settled by
 * {@code GET /cluster}: the Job succeeds once the candidate holds the lock, and fails after a minute without it. A
 * failed Job stops the rollout until a person acts. The hash names the revision and the leader, so each leader of a
 * rollout gets its own Job, and a resync finds the same one.
 */
public final class Switchovers {
  public static final String COMPONENT = "switchover";
  public static final String CONTAINER = "switchover";

  /**
   * One POST, then GET /cluster while the outcome is open; Patroni's answers go to the log. The password reaches
   * curl on its standard input (a config line), not on its command line, where other processes could read it.
   */
  public static final String SCRIPT = ResourceTexts.load("scripts/switchover.sh");

  private Switchovers() {}

  public static ObjectNode job(
      String cluster,
      String namespace,
      String image,
      PodScheduling placement,
      Rollout.Switchover switchover) {
    String leader = switchover.leader();
    ObjectNode job = Jobs.job(switchover.name(), cluster, COMPONENT, placement);
    // A try ends within about two and a half minutes; a second one finds the leader moved (412)
    // rather than moving
    // it twice.
    job.withObjectProperty("spec").put("backoffLimit", 1);
    ObjectNode pod = (ObjectNode) job.at("/spec/template/spec");
    pod.put("automountServiceAccountToken", false);
    ObjectNode container = Jobs.container(pod, CONTAINER, image);
    container.putArray("command").add("/bin/sh").add("-c").add(KubeletText.literal(SCRIPT));
    ArrayNode env = container.putArray("env");
    PatroniCall patroni = PatroniCall.member(leader, cluster, namespace, switchover.leaderHttps());
    patroni.addUrl(env);
    env.addObject().put("name", "LEADER").put("value", leader);
    env.addObject().put("name", "CANDIDATE").put("value", switchover.candidate());
    patroni.addLogin(env, cluster);
    patroni.addTrust(pod, container);
    return job;
  }
}
