package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controlplane.ProjectCluster;
import dev.metahooks.testing.ControlPlane;
import dev.metahooks.testing.StoredForm;
import dev.metahooks.testing.kube.KubeApi;
import dev.metahooks.testsupport.Resources;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The Roles the PostgresCluster hooks render, enforced by a real API server (RBAC on): four clusters in one namespace,
 * {@code orders} and {@code orders-b}, {@code pg} and {@code pg-1} (whose ordinal-1 pod {@code pg-1} is called as
 * the other cluster), rendered by the hook in every state that asks for a ServiceAccount ({@link RenderedStates}).
 *
 * <ol>
 *   <li>Metacontroller's own identity (controlplane/metacontroller-rbac.yaml, v4.17.2's ClusterRole) creates every
 *       rendered ServiceAccount, Role and RoleBinding; a subject that may create Roles but does not hold what they
 *       grant is refused each (the API server's escalation check, so the first result means something).
 *   <li>kubectl, as the upgrade Job and the base backup's push run it (the command the hook rendered), with each
 *       cluster's token: on its own cluster it gets past every call to the point where a KWOK node has no kubelet
 *       to stream from; on another cluster it is refused.
 *   <li>Each rendered ServiceAccount, with a token from the TokenRequest API, makes each call its program makes
 *       (Patroni's, read from patroni/dcs/kubernetes.py, see {@code PatroniRbac}; each Job's script, with the
 *       arguments the hook rendered into that Job): every one must be allowed. The same calls against each other
 *       cluster's objects (the arguments the other cluster's Job was rendered with) must be refused with 403, except
 *       {@code list}, {@code watch} and {@code create}, which RBAC cannot limit by name: those are made too and must
 *       pass, so that the limit stays visible. Calls a Role no longer grants on its own cluster are refused too.
 *   <li>Each account, with its token, tries what code in one cluster's pod could do to another cluster
 *       ({@link #attacks}): swap a member's image, take the leader label, overwrite or delete the leader and
 *       configuration ConfigMaps, write Endpoints under the other's scope, exec into its pods, read its Secrets,
 *       delete its Jobs and CronJobs: each refused with 403.
 * </ol>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RbacKubeIT {
  static final String NAMESPACE = "rbac-shop";
  static final List<String> CLUSTERS = List.of("orders", "orders-b", "pg", "pg-1");

  /** RBAC's own refusal (never an admission plugin's): {@code ... cannot patch resource "pods" in API group ""}. */
  private static final Pattern RBAC_REFUSAL =
      Pattern.compile("is forbidden: User \"system:serviceaccount:[^\"]+\" cannot ");

  static ControlPlane plane;
  static KubeApi admin;
  static final Map<String, RenderedStates> rendered = new LinkedHashMap<>();
  static final Map<Expect, Integer> counts = new EnumMap<>(Expect.class);
  static final List<KubernetesClient> clients = new ArrayList<>();

  /** What the API server must answer a call. */
  enum Expect {
    /** 2xx: the identity's own cluster, a call its program makes. */
    ALLOWED,
    /**
     * Past authorization, to the exec handler: 400 "Upgrade request required" for a POST without the streaming
     * upgrade (the handler answers only once RBAC let the request through).
     */
    AUTHORIZED,
    /**
     * kubectl itself, as the Job runs it: past every call it makes before the stream (the Service, the pod list, the
     * pod, the exec), to the point where a KWOK node has no kubelet to stream from.
     */
    KUBECTL_REACHED_THE_NODE,
    /** kubectl itself on another cluster's objects: refused ({@code Forbidden}) at its first call. */
    KUBECTL_REFUSED,
    /** 403 from RBAC: another cluster's object, or a verb the Role no longer holds. */
    REFUSED,
    /** 2xx on another cluster's objects: list, watch or create, which RBAC cannot limit by name. */
    UNLIMITED_BY_NAME,
    /** Creating a rendered account, Role or RoleBinding as Metacontroller: 201. */
    CREATED_AS_METACONTROLLER,
    /** A rendered Job or CronJob whose pod holds a token, created as Metacontroller (dry run): stored as sent. */
    STORED_AS_RENDERED,
    /** 403 from the escalation check: a subject that may create Roles but does not hold what they grant. */
    ESCALATION_REFUSED
  }

  /** One request of one identity; {@code phase} orders the calls that change what later calls find. */
  record Call(
      String account,
      String what,
      String method,
      String path,
      Supplier<JsonNode> body,
      String contentType,
      Expect expect,
      int phase) {}

  @BeforeAll
  static void cluster() {
    plane = ControlPlane.shared();
    admin = new KubeApi(plane.client());
    // A namespace of an earlier run on the same control plane goes first (its objects would be in
    // the way).
    admin.delete("v1", "Namespace", null, NAMESPACE, "Background");
    Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
    while (admin.get("v1", "Namespace", null, NAMESPACE).ok()) {
      assertThat(Instant.now()).as("namespace %s gone", NAMESPACE).isBefore(deadline);
      ProjectCluster.sleep(Duration.ofMillis(250));
    }
    ProjectCluster.namespace(admin, NAMESPACE);
    CLUSTERS.forEach(cluster -> rendered.put(cluster, RenderedStates.of(cluster, NAMESPACE)));
    rendered.values().forEach(RbacKubeIT::objectsActedOn);
    plane
        .kubectl(
            "",
            "apply",
            "-f",
            Resources.projectDir().resolve("controlplane/metacontroller-rbac.yaml").toString())
        .ok();
  }

  @AfterAll
  static void report() {
    clients.forEach(KubernetesClient::close);
    System.out.println("RbacKubeIT calls by outcome: " + counts);
    if (admin != null) {
      admin.delete("v1", "Namespace", null, NAMESPACE, "Background");
    }
  }

  @Test
  @Order(1)
  void metacontrollersOwnClusterRoleCreatesEveryRenderedAccountRoleAndBinding() {
    KubeApi metacontroller = as("metacontroller", "metacontroller");
    List<String> failures = new ArrayList<>();
    for (RenderedStates states : rendered.values()) {
      for (String kind : List.of("ServiceAccount", "Role", "RoleBinding")) {
        for (ObjectNode object : states.ofKind(kind)) {
          KubeApi.Answer answer = metacontroller.create(object, NAMESPACE, false);
          count(Expect.CREATED_AS_METACONTROLLER);
          if (answer.code() != 201) {
            failures.add(
                kind + " " + Names.of(object) + ": " + answer.code() + " " + answer.message());
          }
        }
      }
    }
    assertThat(failures).as("created as Metacontroller's ServiceAccount").isEmpty();
  }

  /** Without the rights a Role grants (nor escalate, nor bind), creating it or binding it is refused. */
  @Test
  @Order(2)
  void theEscalationCheckRefusesACreatorThatDoesNotHoldWhatTheRolesGrant() {
    ObjectNode role =
        Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "Role");
    role.putObject("metadata").put("name", "role-writer");
    ObjectNode rule = role.putArray("rules").addObject();
    rule.putArray("apiGroups").add("rbac.authorization.k8s.io");
    rule.putArray("resources").add("roles").add("rolebindings");
    rule.putArray("verbs").add("create");
    admin.create(role, NAMESPACE, false).orThrow();
    ProjectCluster.serviceAccount(admin, NAMESPACE, "role-writer");
    admin.create(binding("role-writer", "role-writer"), NAMESPACE, false).orThrow();
    KubeApi writer = as(NAMESPACE, "role-writer");
    List<String> failures = new ArrayList<>();
    for (RenderedStates states : rendered.values()) {
      for (String kind : List.of("Role", "RoleBinding")) {
        for (ObjectNode object : states.ofKind(kind)) {
          KubeApi.Answer answer = writer.create(object, NAMESPACE, true);
          count(Expect.ESCALATION_REFUSED);
          if (answer.code() != 403
              || !answer
                  .message()
                  .contains("attempting to grant RBAC permissions not currently held")) {
            failures.add(
                kind + " " + Names.of(object) + ": " + answer.code() + " " + answer.message());
          }
        }
      }
    }
    assertThat(failures).isEmpty();
  }

  @Test
  @Order(4)
  void eachAccountMayMakeItsProgramsCallsOnItsOwnClusterAndNoNamedCallOnAnother() {
    List<Call> calls = new ArrayList<>();
    for (String own : CLUSTERS) {
      for (String target : CLUSTERS) {
        calls.addAll(callsOf(own, rendered.get(target), own.equals(target)));
        if (!own.equals(target)) {
          calls.addAll(attacks(rendered.get(own), rendered.get(target)));
        }
      }
      calls.addAll(beyondTheRoles(rendered.get(own)));
    }
    Map<String, KubeApi> identities = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    for (int phase = 0; phase <= 2; phase++) {
      for (Call call : calls) {
        if (call.phase() != phase) {
          continue;
        }
        KubeApi api = identities.computeIfAbsent(call.account(), account -> as(NAMESPACE, account));
        count(call.expect());
        JsonNode body;
        try {
          body = call.body() == null ? null : call.body().get();
        } catch (RuntimeException e) {
          // Its object is gone: an earlier call that should have been refused was not.
          failures.add(call.account() + " " + call.what() + ": not made, " + e.getMessage());
          continue;
        }
        KubeApi.Answer answer = api.call(call.method(), call.path(), body, call.contentType());
        if (!met(call.expect(), answer)) {
          failures.add(
              call.account()
                  + " "
                  + call.what()
                  + " ("
                  + call.method()
                  + " "
                  + call.path()
                  + "): expected "
                  + call.expect()
                  + ", answered "
                  + answer.code()
                  + " "
                  + answer.message());
        }
      }
    }
    assertThat(failures).isEmpty();
  }

  /**
   * The two Jobs that run kubectl (the upgrade Job's {@code exec pod/<primary>}, the base backup's push
   * {@code exec svc/<n>-rw}), run with the command the hook rendered into them, as each cluster's account: its own
   * cluster's command gets as far as a KWOK node allows, another cluster's is refused.
   */
  @Test
  @Order(3)
  void kubectlInTheJobsGetsToTheNodeOnItsOwnClusterAndIsRefusedOnAnother() {
    List<String> failures = new ArrayList<>();
    for (String own : CLUSTERS) {
      for (String target : CLUSTERS) {
        RenderedStates states = rendered.get(target);
        JsonNode upgrade =
            job(states, "Job", target + "-upgrade-").at("/spec/template/spec/containers/0/command");
        JsonNode backup =
            job(states, "Job", target + ".backup-before-upgrade")
                .at("/spec/template/spec/initContainers/1/command");
        for (Map.Entry<String, JsonNode> run :
            Map.of(own + "-upgrade", upgrade, own + "-backup", backup).entrySet()) {
          assertThat(run.getValue().path(0).asText()).isEqualTo("kubectl");
          List<String> arguments =
              new ArrayList<>(List.of("--token", token(NAMESPACE, run.getKey())));
          for (int i = 1; i < run.getValue().size(); i++) {
            arguments.add(run.getValue().get(i).asText());
          }
          ControlPlane.Run result = plane.kubectl("", arguments.toArray(String[]::new));
          Expect expect =
              own.equals(target) ? Expect.KUBECTL_REACHED_THE_NODE : Expect.KUBECTL_REFUSED;
          count(expect);
          boolean met =
              own.equals(target)
                  ? result.output().contains("unable to upgrade connection")
                      && !result.output().contains("Forbidden")
                  : result.exitCode() != 0
                      && result.output().contains("Forbidden")
                      && result
                          .output()
                          .contains(
                              "User \"system:serviceaccount:"
                                  + NAMESPACE
                                  + ":"
                                  + run.getKey()
                                  + "\" cannot");
          if (!met) {
            failures.add(
                run.getKey()
                    + " on "
                    + target
                    + ": expected "
                    + expect
                    + ", kubectl exited "
                    + result.exitCode()
                    + ": "
                    + result.output().strip());
          }
        }
      }
    }
    assertThat(failures).isEmpty();
  }

  /**
   * The pods that hold a token, as rendered (the base backup Job's token volume for its kubectl step among them):
   * the API server takes each, as Metacontroller sends it, and stores what the hook set (a dry run).
   */
  @Test
  @Order(5)
  void everyPodTemplateThatHoldsATokenIsStoredAsRendered() {
    KubeApi metacontroller = as("metacontroller", "metacontroller");
    List<String> failures = new ArrayList<>();
    for (RenderedStates states : rendered.values()) {
      // The StatefulSet's template is as before; the test's StatefulSet of the same name is in the
      // way.
      for (String kind : List.of("Job", "CronJob")) {
        for (ObjectNode object : states.ofKind(kind)) {
          JsonNode pod =
              kind.equals("CronJob")
                  ? object.at("/spec/jobTemplate/spec/template/spec")
                  : object.at("/spec/template/spec");
          if (!pod.has("serviceAccountName")) {
            continue;
          }
          KubeApi.Answer answer =
              metacontroller.create(StoredForm.forCreate(object), NAMESPACE, true);
          count(Expect.STORED_AS_RENDERED);
          if (!answer.ok()) {
            failures.add(
                kind + " " + Names.of(object) + ": " + answer.code() + " " + answer.message());
          } else if (!StoredForm.differences(object, (ObjectNode) answer.body()).isEmpty()) {
            failures.add(
                kind
                    + " "
                    + Names.of(object)
                    + " stored otherwise: "
                    + StoredForm.differences(object, (ObjectNode) answer.body()));
          }
        }
      }
    }
    assertThat(failures).isEmpty();
  }

  private static boolean met(Expect expect, KubeApi.Answer answer) {
    return switch (expect) {
      case ALLOWED, UNLIMITED_BY_NAME -> answer.ok();
      case AUTHORIZED ->
          answer.code() == 400 && answer.message().equals("Upgrade request required");
      case REFUSED -> answer.code() == 403 && RBAC_REFUSAL.matcher(answer.message()).find();
      default -> throw new IllegalArgumentException(expect.name());
    };
  }

  /**
   * The calls of each account of cluster {@code own} on the objects of {@code target}: its own cluster
   * ({@code itself}) or another, with the arguments the hook rendered into {@code target}'s Jobs.
   */
  static List<Call> callsOf(String own, RenderedStates target, boolean itself) {
    List<Call> calls = new ArrayList<>();
    String t = target.cluster;
    Expect named = itself ? Expect.ALLOWED : Expect.REFUSED;
    Expect unnamed = itself ? Expect.ALLOWED : Expect.UNLIMITED_BY_NAME;
    String patroni = own + "-patroni";

    // Patroni (patroni/dcs/kubernetes.py of 4.1.4): its caches list and watch pods and ConfigMaps
    // by its labels.
    String selector =
        "labelSelector="
            + encode(Labels.CLUSTER_NAME + "=" + t + "," + Labels.NAME + "=" + Labels.APP);
    calls.add(
        new Call(
            patroni,
            "lists " + t + "'s members",
            "GET",
            core("pods") + "?" + selector,
            null,
            null,
            unnamed,
            0));
    calls.add(
        new Call(
            patroni,
            "watches " + t + "'s members",
            "GET",
            core("pods") + "?" + selector + "&watch=true&timeoutSeconds=1",
            null,
            null,
            unnamed,
            0));
    calls.add(
        new Call(
            patroni,
            "lists " + t + "'s ConfigMaps",
            "GET",
            core("configmaps") + "?" + selector,
            null,
            null,
            unnamed,
            0));
    calls.add(
        new Call(
            patroni,
            "watches " + t + "'s ConfigMaps",
            "GET",
            core("configmaps") + "?" + selector + "&watch=true&timeoutSeconds=1",
            null,
            null,
            unnamed,
            0));
    // touch_member: the role label and status annotation of a member's pod, a strategic merge
    // patch.
    for (String pod : members(target)) {
      calls.add(
          new Call(
              patroni,
              "labels pod " + pod,
              "PATCH",
              core("pods") + "/" + pod,
              () -> podPatch(pod),
              "application/strategic-merge-patch+json",
              named,
              phase(itself, 1)));
    }
    // The leader race: a patch guarded by the resourceVersion, and a read after a conflict.
    calls.add(
        new Call(
            patroni,
            "reads " + t + "-leader",
            "GET",
            core("configmaps") + "/" + t + "-leader",
            null,
            null,
            named,
            phase(itself, 1)));
    for (String suffix : List.of("leader", "config", "sync")) {
      String name = t + "-" + suffix;
      calls.add(
          new Call(
              patroni,
              "patches " + name,
              "PATCH",
              core("configmaps") + "/" + name,
              () -> configMapPatch(name, t, resourceVersion("configmaps", name)),
              "application/strategic-merge-patch+json",
              named,
              phase(itself, 1)));
    }
    // A manual failover creates <scope>-failover; another cluster's only as a dry run (the name
    // stays free for it).
    String failover = t + "-failover";
    calls.add(
        new Call(
            patroni,
            "creates " + failover,
            "POST",
            core("configmaps") + (itself ? "" : "?dryRun=All"),
            () -> patroniConfigMap(failover, t),
            "application/json",
            unnamed,
            itself ? 1 : 0));
    calls.add(
        new Call(
            patroni,
            "patches " + failover,
            "PATCH",
            core("configmaps") + "/" + failover,
            () -> configMapPatch(failover, t, null),
            "application/strategic-merge-patch+json",
            named,
            phase(itself, 1)));

    // restart-member.sh: DELETE the pod with the uid the Job was rendered with as a precondition.
    JsonNode restart = job(target, "Job", t + "-restart-");
    String restartPod = env(restart, "POD");
    calls.add(
        new Call(
            own + "-restart",
            "deletes pod " + restartPod + " by uid",
            "DELETE",
            core("pods") + "/" + restartPod,
            () ->
                Json.object()
                    .put("apiVersion", "v1")
                    .put("kind", "DeleteOptions")
                    .set(
                        "preconditions",
                        Json.object()
                            .put(
                                "uid",
                                admin
                                    .get("v1", "Pod", NAMESPACE, restartPod)
                                    .orThrow()
                                    .at("/metadata/uid")
                                    .asText())),
            "application/json",
            named,
            phase(itself, 2)));

    // resize-volumes.sh SIZE STATEFULSET CLAIMS...: a merge patch of each claim, then the
    // StatefulSet, orphaning.
    List<String> resize =
        arguments(
            job(target, "Job", t + "-resize-").at("/spec/template/spec/containers/0/command"),
            "resize-volumes");
    for (String claim : resize.subList(2, resize.size())) {
      calls.add(
          new Call(
              own + "-resize",
              "grows claim " + claim,
              "PATCH",
              core("persistentvolumeclaims") + "/" + claim,
              () ->
                  Json.object()
                      .set(
                          "spec",
                          Json.object()
                              .set(
                                  "resources",
                                  Json.object()
                                      .set(
                                          "requests",
                                          Json.object().put("storage", resize.get(0))))),
              "application/merge-patch+json",
              named,
              phase(itself, 1)));
    }
    calls.add(
        new Call(
            own + "-resize",
            "deletes StatefulSet " + resize.get(1) + ", orphaning",
            "DELETE",
            "/apis/apps/v1/namespaces/" + NAMESPACE + "/statefulsets/" + resize.get(1),
            () ->
                Json.object()
                    .put("apiVersion", "v1")
                    .put("kind", "DeleteOptions")
                    .put("propagationPolicy", "Orphan"),
            "application/json",
            named,
            phase(itself, 2)));

    // cleanup.sh NAMES...: DELETE each.
    for (String name :
        arguments(
            job(target, "Job", t + "-cleanup").at("/spec/template/spec/containers/0/command"),
            "cleanup")) {
      calls.add(
          new Call(
              own + "-cleanup",
              "deletes " + name,
              "DELETE",
              core("configmaps") + "/" + name,
              null,
              "application/json",
              named,
              phase(itself, 2)));
    }

    // store-check.sh: a merge patch of the report's data into $REPORT_CONFIGMAP.
    JsonNode check = target.get("CronJob", t + "-store-check").at("/spec/jobTemplate");
    String report = env(check, "REPORT_CONFIGMAP");
    calls.add(
        new Call(
            own + "-store-check",
            "writes the report into " + report,
            "PATCH",
            core("configmaps") + "/" + report,
            () -> Json.object().set("data", Json.object().put("format", "1").put("database", "ok")),
            "application/merge-patch+json",
            named,
            phase(itself, 1)));

    // kubectl exec pod/PRIMARY (the upgrade Job): read the pod, then exec into it.
    String primary =
        job(target, "Job", t + "-upgrade-")
            .at("/spec/template/spec/containers/0/command/4")
            .asText()
            .substring("pod/".length());
    calls.add(
        new Call(
            own + "-upgrade",
            "reads pod " + primary,
            "GET",
            core("pods") + "/" + primary,
            null,
            null,
            named,
            phase(itself, 1)));
    calls.add(
        new Call(
            own + "-upgrade",
            "execs into " + primary,
            "POST",
            exec(primary),
            null,
            null,
            itself ? Expect.AUTHORIZED : Expect.REFUSED,
            phase(itself, 1)));

    // kubectl exec svc/<n>-rw (the base backup Job's push): the Service, the pods it selects, the
    // one found.
    JsonNode backup = job(target, "Job", t + ".backup-before-upgrade");
    String service =
        backup
            .at("/spec/template/spec/initContainers/1/command/4")
            .asText()
            .substring("svc/".length());
    String backupAccount = own + "-backup";
    calls.add(
        new Call(
            backupAccount,
            "reads Service " + service,
            "GET",
            core("services") + "/" + service,
            null,
            null,
            named,
            phase(itself, 1)));
    String selected =
        "labelSelector="
            + encode(
                Labels.INSTANCE
                    + "="
                    + t
                    + ","
                    + Labels.NAME
                    + "="
                    + Labels.APP
                    + ","
                    + Labels.ROLE
                    + "="
                    + Labels.LEADER);
    calls.add(
        new Call(
            backupAccount,
            "lists the pods " + service + " selects",
            "GET",
            core("pods") + "?" + selected,
            null,
            null,
            unnamed,
            0));
    calls.add(
        new Call(
            backupAccount,
            "watches the pods " + service + " selects",
            "GET",
            core("pods") + "?" + selected + "&watch=true&timeoutSeconds=1",
            null,
            null,
            unnamed,
            0));
    String leader = t + "-0";
    calls.add(
        new Call(
            backupAccount,
            "reads pod " + leader,
            "GET",
            core("pods") + "/" + leader,
            null,
            null,
            named,
            phase(itself, 1)));
    calls.add(
        new Call(
            backupAccount,
            "execs into " + leader,
            "POST",
            exec(leader),
            null,
            null,
            itself ? Expect.AUTHORIZED : Expect.REFUSED,
            phase(itself, 1)));
    return calls;
  }

  /**
   * What code in a pod of cluster {@code own} could try on cluster {@code target} with any of its cluster's tokens,
   * beyond the calls its programs make: swap a member's image, take the leader label (and with it the read-write
   * Service), overwrite or delete the leader and configuration ConfigMaps, write Endpoints under the other cluster's
   * scope, exec into its pods, read its Secrets, delete its Jobs. Each must be refused with 403.
   */
  static List<Call> attacks(RenderedStates own, RenderedStates target) {
    String t = target.cluster;
    Expect no = Expect.REFUSED;
    List<Call> calls = new ArrayList<>();
    for (ObjectNode serviceAccount : own.ofKind("ServiceAccount")) {
      String account = Names.of(serviceAccount);
      for (String pod : members(target)) {
        calls.add(
            new Call(
                account,
                "swaps the image of pod " + pod,
                "PATCH",
                core("pods") + "/" + pod,
                () ->
                    Json.object()
                        .set(
                            "spec",
                            Json.object()
                                .set(
                                    "containers",
                                    Json.array()
                                        .add(
                                            Json.object()
                                                .put("name", "postgres")
                                                .put("image", "registry.invalid/not-spilo:evil")))),
                "application/strategic-merge-patch+json",
                no,
                0));
        calls.add(
            new Call(
                account,
                "labels pod " + pod + " leader",
                "PATCH",
                core("pods") + "/" + pod,
                () ->
                    Json.object()
                        .set(
                            "metadata",
                            Json.object()
                                .set("labels", Json.object().put(Labels.ROLE, Labels.LEADER))),
                "application/merge-patch+json",
                no,
                0));
      }
      calls.add(
          new Call(account, "execs into " + t + "-0", "POST", exec(t + "-0"), null, null, no, 0));
      for (String suffix : List.of("leader", "config")) {
        String name = t + "-" + suffix;
        calls.add(
            new Call(
                account,
                "replaces " + name,
                "PUT",
                core("configmaps") + "/" + name,
                () -> patroniConfigMap(name, t),
                "application/json",
                no,
                0));
        calls.add(
            new Call(
                account,
                "takes the leader key in " + name,
                "PATCH",
                core("configmaps") + "/" + name,
                () -> configMapPatch(name, t, null),
                "application/merge-patch+json",
                no,
                0));
        calls.add(
            new Call(
                account,
                "deletes " + name,
                "DELETE",
                core("configmaps") + "/" + name,
                null,
                "application/json",
                no,
                0));
      }
      // Patroni's leader object under use_endpoints is the Endpoints named as the scope.
      calls.add(
          new Call(
              account,
              "creates Endpoints " + t,
              "POST",
              core("endpoints"),
              () -> endpoints(t),
              "application/json",
              no,
              0));
      calls.add(
          new Call(
              account,
              "patches Endpoints " + t,
              "PATCH",
              core("endpoints") + "/" + t,
              () ->
                  Json.object()
                      .set(
                          "metadata",
                          Json.object()
                              .set("annotations", Json.object().put("leader", own.cluster + "-0"))),
              "application/merge-patch+json",
              no,
              0));
      calls.add(
          new Call(
              account,
              "reads Endpoints " + t + "-rw",
              "GET",
              core("endpoints") + "/" + t + "-rw",
              null,
              null,
              no,
              0));
      for (String secret : List.of(t + "-superuser", t + "-replication", t + "-restapi")) {
        calls.add(
            new Call(
                account,
                "reads Secret " + secret,
                "GET",
                core("secrets") + "/" + secret,
                null,
                null,
                no,
                0));
      }
      calls.add(new Call(account, "lists the Secrets", "GET", core("secrets"), null, null, no, 0));
      for (ObjectNode job : target.ofKind("Job")) {
        String name = Names.of(job);
        calls.add(
            new Call(
                account,
                "deletes Job " + name,
                "DELETE",
                "/apis/batch/v1/namespaces/" + NAMESPACE + "/jobs/" + name,
                null,
                "application/json",
                no,
                0));
      }
      for (ObjectNode cronJob : target.ofKind("CronJob")) {
        String name = Names.of(cronJob);
        calls.add(
            new Call(
                account,
                "deletes CronJob " + name,
                "DELETE",
                "/apis/batch/v1/namespaces/" + NAMESPACE + "/cronjobs/" + name,
                null,
                "application/json",
                no,
                0));
      }
    }
    return calls;
  }

  /** Endpoints as Patroni writes its leader object with use_endpoints (patroni/dcs/kubernetes.py, 1120-1124). */
  private static ObjectNode endpoints(String scope) {
    ObjectNode endpoints = Json.object().put("apiVersion", "v1").put("kind", "Endpoints");
    ObjectNode metadata =
        endpoints.putObject("metadata").put("name", scope).put("namespace", NAMESPACE);
    metadata.set("labels", patroniLabels(scope));
    metadata.putObject("annotations").put("leader", scope + "-0");
    return endpoints;
  }

  /** What each account's Role no longer allows on its own cluster: each refused. */
  static List<Call> beyondTheRoles(RenderedStates own) {
    String c = own.cluster;
    List<Call> calls = new ArrayList<>();
    Expect no = Expect.REFUSED;
    calls.add(
        new Call(
            c + "-patroni",
            "deletes " + c + "-config",
            "DELETE",
            core("configmaps") + "/" + c + "-config",
            null,
            "application/json",
            no,
            0));
    calls.add(
        new Call(
            c + "-patroni",
            "deletes every ConfigMap of its scope",
            "DELETE",
            core("configmaps") + "?labelSelector=" + encode(Labels.CLUSTER_NAME + "=" + c),
            null,
            "application/json",
            no,
            0));
    calls.add(
        new Call(
            c + "-patroni",
            "replaces " + c + "-leader",
            "PUT",
            core("configmaps") + "/" + c + "-leader",
            () -> patroniConfigMap(c + "-leader", c),
            "application/json",
            no,
            0));
    calls.add(
        new Call(
            c + "-patroni",
            "reads Endpoints " + c + "-rw",
            "GET",
            core("endpoints") + "/" + c + "-rw",
            null,
            null,
            no,
            0));
    calls.add(
        new Call(
            c + "-patroni",
            "patches a pod past its members",
            "PATCH",
            core("pods") + "/" + c + "-" + RenderedStates.INSTANCES,
            () -> podPatch(c + "-" + RenderedStates.INSTANCES),
            "application/strategic-merge-patch+json",
            no,
            0));
    calls.add(
        new Call(
            c + "-patroni",
            "reads Secret " + c + "-superuser",
            "GET",
            core("secrets") + "/" + c + "-superuser",
            null,
            null,
            no,
            0));
    calls.add(
        new Call(
            c + "-restart",
            "reads pod " + c + "-1",
            "GET",
            core("pods") + "/" + c + "-1",
            null,
            null,
            no,
            0));
    calls.add(
        new Call(
            c + "-restart",
            "deletes pod " + c + "-0, not its own",
            "DELETE",
            core("pods") + "/" + c + "-0",
            null,
            "application/json",
            no,
            0));
    calls.add(
        new Call(
            c + "-cleanup",
            "reads " + c + "-config",
            "GET",
            core("configmaps") + "/" + c + "-config",
            null,
            null,
            no,
            0));
    calls.add(
        new Call(
            c + "-cleanup",
            "deletes " + c + "-backup-health",
            "DELETE",
            core("configmaps") + "/" + c + "-backup-health",
            null,
            "application/json",
            no,
            0));
    calls.add(
        new Call(
            c + "-resize",
            "reads claim pgdata-" + c + "-0",
            "GET",
            core("persistentvolumeclaims") + "/pgdata-" + c + "-0",
            null,
            null,
            no,
            0));
    calls.add(
        new Call(
            c + "-resize",
            "patches StatefulSet " + c,
            "PATCH",
            "/apis/apps/v1/namespaces/" + NAMESPACE + "/statefulsets/" + c,
            () -> Json.object().set("spec", Json.object().put("replicas", 0)),
            "application/merge-patch+json",
            no,
            0));
    calls.add(
        new Call(
            c + "-store-check",
            "reads " + c + "-backup-health",
            "GET",
            core("configmaps") + "/" + c + "-backup-health",
            null,
            null,
            no,
            0));
    calls.add(
        new Call(
            c + "-store-check",
            "patches " + c + "-config",
            "PATCH",
            core("configmaps") + "/" + c + "-config",
            () -> Json.object().set("data", Json.object().put("x", "y")),
            "application/merge-patch+json",
            no,
            0));
    calls.add(
        new Call(
            c + "-upgrade",
            "execs into " + c + "-0, not the primary",
            "POST",
            exec(c + "-0"),
            null,
            null,
            no,
            0));
    calls.add(
        new Call(
            c + "-upgrade",
            "deletes pod " + c + "-1",
            "DELETE",
            core("pods") + "/" + c + "-1",
            null,
            "application/json",
            no,
            0));
    calls.add(
        new Call(
            c + "-backup",
            "deletes pod " + c + "-0",
            "DELETE",
            core("pods") + "/" + c + "-0",
            null,
            "application/json",
            no,
            0));
    calls.add(
        new Call(
            c + "-backup",
            "reads Secret " + c + "-superuser",
            "GET",
            core("secrets") + "/" + c + "-superuser",
            null,
            null,
            no,
            0));
    return calls;
  }

  /**
   * What the calls act on, made as the administrator: the members' pods (the first labelled primary), Patroni's
   * ConfigMaps but {@code -failover} (Patroni creates that one in the test), the store check's report ConfigMap and the
   * Service {@code <n>-rw} as the hook renders them, the data claims (bound by KWOK's provisioner), and a StatefulSet
   * {@code <n>} with no replicas whose selector matches no pod (it is only deleted).
   */
  static void objectsActedOn(RenderedStates states) {
    String c = states.cluster;
    for (String pod : members(states)) {
      ObjectNode object = Json.object().put("apiVersion", "v1").put("kind", "Pod");
      ObjectNode labels = Labels.pod(c);
      labels.put(Labels.ROLE, pod.endsWith("-0") ? Labels.LEADER : Labels.REPLICA);
      object.putObject("metadata").put("name", pod).set("labels", labels);
      object
          .putObject("spec")
          .put("automountServiceAccountToken", false)
          .putArray("containers")
          .addObject()
          .put("name", "postgres")
          .put("image", "registry.invalid/spilo:test");
      admin.create(object, NAMESPACE, false).orThrow();
      ObjectNode claim = Json.object().put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
      claim.putObject("metadata").put("name", "pgdata-" + pod);
      ObjectNode claimSpec = claim.putObject("spec");
      claimSpec.putArray("accessModes").add("ReadWriteOnce");
      claimSpec.putObject("resources").putObject("requests").put("storage", "1Gi");
      admin.create(claim, NAMESPACE, false).orThrow();
    }
    for (String suffix : List.of("config", "leader", "sync")) {
      admin.create(patroniConfigMap(c + "-" + suffix, c), NAMESPACE, false).orThrow();
    }
    admin.create(states.get("ConfigMap", c + "-backup-health"), NAMESPACE, false).orThrow();
    admin.create(states.get("Service", c + "-rw"), NAMESPACE, false).orThrow();
    ObjectNode statefulSet = Json.object().put("apiVersion", "apps/v1").put("kind", "StatefulSet");
    statefulSet.putObject("metadata").put("name", c);
    ObjectNode spec =
        statefulSet.putObject("spec").put("replicas", 0).put("serviceName", c + "-hl");
    spec.putObject("selector").putObject("matchLabels").put("rbac-test", c + "-nothing");
    ObjectNode template = spec.putObject("template");
    template.putObject("metadata").putObject("labels").put("rbac-test", c + "-nothing");
    template
        .putObject("spec")
        .putArray("containers")
        .addObject()
        .put("name", "postgres")
        .put("image", "registry.invalid/spilo:test");
    admin.create(statefulSet, NAMESPACE, false).orThrow();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    for (String pod : members(states)) {
      while (!admin
          .get("v1", "PersistentVolumeClaim", NAMESPACE, "pgdata-" + pod)
          .orThrow()
          .at("/status/phase")
          .asText()
          .equals("Bound")) {
        assertThat(Instant.now()).as("claim pgdata-%s bound", pod).isBefore(deadline);
        ProjectCluster.sleep(Duration.ofMillis(200));
      }
    }
  }

  /** A client acting as ServiceAccount {@code namespace/name}. */
  static KubeApi as(String namespace, String name) {
    String token = token(namespace, name);
    KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(new ConfigBuilder(plane.config()).withOauthToken(token).build())
            .build();
    clients.add(client);
    return new KubeApi(client);
  }

  /** A token of ServiceAccount {@code namespace/name} from the TokenRequest API, as the kubelet asks for one. */
  static String token(String namespace, String name) {
    ObjectNode request =
        Json.object().put("apiVersion", "authentication.k8s.io/v1").put("kind", "TokenRequest");
    request.putObject("spec").put("expirationSeconds", 3600);
    return admin
        .call(
            "POST",
            "/api/v1/namespaces/" + namespace + "/serviceaccounts/" + name + "/token",
            request)
        .orThrow()
        .at("/status/token")
        .asText();
  }

  private static ObjectNode binding(String name, String account) {
    ObjectNode binding =
        Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "RoleBinding");
    binding.putObject("metadata").put("name", name);
    binding
        .putObject("roleRef")
        .put("apiGroup", "rbac.authorization.k8s.io")
        .put("kind", "Role")
        .put("name", name);
    binding
        .putArray("subjects")
        .addObject()
        .put("kind", "ServiceAccount")
        .put("name", account)
        .put("namespace", NAMESPACE);
    return binding;
  }

  /** The member pods: every ordinal of the rendered StatefulSet. */
  static List<String> members(RenderedStates states) {
    int replicas = states.get("StatefulSet", states.cluster).at("/spec/replicas").asInt();
    List<String> pods = new ArrayList<>();
    for (int i = 0; i < replicas; i++) {
      pods.add(states.cluster + "-" + i);
    }
    return pods;
  }

  /** What touch_member sends (patroni/dcs/kubernetes.py:1396-1399 of 4.1.4): the role label, the status annotation. */
  static JsonNode podPatch(String pod) {
    ObjectNode metadata = Json.object().put("namespace", NAMESPACE).put("name", pod);
    metadata.putObject("labels").put(Labels.ROLE, Labels.REPLICA);
    metadata.putObject("annotations").put("status", "{\"state\":\"running\",\"role\":\"replica\"}");
    return Json.object().set("metadata", metadata);
  }

  /** What _patch_or_create sends as a patch (kubernetes.py:1105-1131): metadata with labels and annotations. */
  static JsonNode configMapPatch(String name, String cluster, String resourceVersion) {
    ObjectNode metadata = Json.object().put("namespace", NAMESPACE).put("name", name);
    metadata.set("labels", patroniLabels(cluster));
    metadata
        .putObject("annotations")
        .put("leader", cluster + "-0")
        .put("renewTime", "2026-01-01T00:00:00+00:00");
    if (resourceVersion != null) {
      metadata.put("resourceVersion", resourceVersion);
    }
    return Json.object().set("metadata", metadata);
  }

  /** A ConfigMap of Patroni's scope as it creates one: its labels (KUBERNETES_LABELS and the scope), annotations. */
  static ObjectNode patroniConfigMap(String name, String cluster) {
    ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    ObjectNode metadata =
        configMap.putObject("metadata").put("name", name).put("namespace", NAMESPACE);
    metadata.set("labels", patroniLabels(cluster));
    metadata.putObject("annotations").put("initialize", "7450000000000000000");
    return configMap;
  }

  private static ObjectNode patroniLabels(String cluster) {
    return Json.object().put(Labels.NAME, Labels.APP).put(Labels.CLUSTER_NAME, cluster);
  }

  private static String resourceVersion(String resource, String name) {
    return admin
        .call("GET", core(resource) + "/" + name, null)
        .orThrow()
        .at("/metadata/resourceVersion")
        .asText();
  }

  private static String core(String resource) {
    return "/api/v1/namespaces/" + NAMESPACE + "/" + resource;
  }

  private static String exec(String pod) {
    return core("pods") + "/" + pod + "/exec?container=postgres&command=true&stdout=true";
  }

  /** The first rendered object of {@code kind} whose name starts with {@code prefix}. */
  private static JsonNode job(RenderedStates states, String kind, String prefix) {
    return states.ofKind(kind).stream()
        .filter(job -> Names.of(job).startsWith(prefix))
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "no " + kind + " " + prefix + "* rendered for " + states.cluster));
  }

  /** A variable of the first container of a Job (or of a CronJob's job template). */
  private static String env(JsonNode job, String name) {
    for (JsonNode env : job.at("/spec/template/spec/containers/0/env")) {
      if (env.path("name").asText().equals(name)) {
        return env.path("value").asText();
      }
    }
    throw new AssertionError("no " + name + " in " + job.at("/metadata/name"));
  }

  /** The arguments after {@code $0} of {@code sh -c SCRIPT $0 ARGS...}. */
  private static List<String> arguments(JsonNode command, String zero) {
    List<String> arguments = new ArrayList<>();
    boolean after = false;
    for (JsonNode argument : command) {
      if (after) {
        arguments.add(argument.asText());
      }
      after |= argument.asText().equals(zero);
    }
    return arguments;
  }

  /** Calls on another cluster change nothing: they come first; the own cluster's deletions last. */
  private static int phase(boolean itself, int ownPhase) {
    return itself ? ownPhase : 0;
  }

  private static void count(Expect expect) {
    counts.merge(expect, 1, Integer::sum);
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
