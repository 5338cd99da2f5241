package dev.metahooks.controllers.postgres.children.network;

import static dev.metahooks.controllers.postgres.BuilderTestSupport.spec;
import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.TlsWorlds;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.children.jobs.UsersJobs;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.controllers.postgres.spec.SpecReaderTest;
import dev.metahooks.testing.kube.KubeSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class NetworkPoliciesTest {
  private static ObjectNode enabled(ObjectNode spec) {
    ObjectNode policy = spec.putObject("networkPolicy").put("enabled", true);
    ObjectNode client = policy.putArray("clients").addObject();
    client.putObject("podSelector").putObject("matchLabels").put("app", "shop");
    ObjectNode other = policy.withArray("clients").addObject();
    other
        .putObject("namespaceSelector")
        .putArray("matchExpressions")
        .addObject()
        .put("key", "team")
        .put("operator", "In")
        .putArray("values")
        .add("payments");
    other.putObject("podSelector").putObject("matchLabels").put("app", "billing");
    policy
        .putObject("monitoring")
        .putObject("namespaceSelector")
        .putObject("matchLabels")
        .put("kubernetes.io/metadata.name", "monitoring");
    return spec;
  }

  @Test
  void offByDefault() {
    assertThat(NetworkPolicies.build("pg", spec(s -> {}))).isEmpty();
    assertThat(
            NetworkPolicies.build(
                "pg",
                spec(
                    s ->
                        s.putObject("networkPolicy")
                            .put("enabled", false)
                            .putArray("clients")
                            .addObject()
                            .putObject("podSelector"))))
        .isEmpty();
  }

  @Test
  void admitsEachPortOnlyFromItsPeers() {
    ObjectNode policy =
        NetworkPolicies.build("pg", spec(NetworkPoliciesTest::enabled)).orElseThrow();
    KubeSchema.assertValid(policy);
    assertThat(policy.at("/metadata/name").asText()).isEqualTo("pg");
    assertThat(policy.at("/spec/podSelector"))
        .isEqualTo(
            json(
                "{\"matchLabels\":{\"app.kubernetes.io/instance\":\"pg\",\"app.kubernetes.io/name\":\"postgresql\"}}"));
    assertThat(policy.at("/spec/policyTypes")).isEqualTo(json("[\"Ingress\"]"));
    JsonNode ingress = policy.at("/spec/ingress");
    assertThat(ingress).hasSize(3);
    String own =
        "{\"podSelector\":{\"matchLabels\":{\"app.kubernetes.io/instance\":\"pg\","
            + "\"app.kubernetes.io/name\":\"postgresql\"}}},"
            + "{\"podSelector\":{\"matchLabels\":{\"app.kubernetes.io/instance\":\"pg\",\"app.kubernetes.io/managed-by\":"
            + "\"metahooks\"},\"matchExpressions\":[{\"key\":\"job-name\",\"operator\":\"Exists\"}]}}";
    assertThat(ingress.get(0))
        .isEqualTo(
            json(
                "{\"ports\":[{\"protocol\":\"TCP\",\"port\":5432}],\"from\":["
                    + own
                    + ",{\"podSelector\":{\"matchLabels\":{\"app.kubernetes.io/instance\":\"pg\","
                    + "\"app.kubernetes.io/component\":\"pooler\"}}},"
                    + "{\"podSelector\":{\"matchLabels\":{\"app\":\"shop\"}}},"
                    + "{\"namespaceSelector\":{\"matchExpressions\":[{\"key\":\"team\",\"operator\":\"In\",\"values\":[\"payments\"]}]},"
                    + "\"podSelector\":{\"matchLabels\":{\"app\":\"billing\"}}}]}"));
    assertThat(ingress.get(1))
        .isEqualTo(
            json("{\"ports\":[{\"protocol\":\"TCP\",\"port\":8008}],\"from\":[" + own + "]}"));
    assertThat(ingress.get(2))
        .isEqualTo(
            json(
                "{\"ports\":[{\"protocol\":\"TCP\",\"port\":9187}],\"from\":["
                    + "{\"namespaceSelector\":{\"matchLabels\":{\"kubernetes.io/metadata.name\":\"monitoring\"}}}]}"));
  }

  @Test
  void withoutClientsOrMonitoringOnlyTheClusterItselfGetsIn() {
    ObjectNode policy =
        NetworkPolicies.build("pg", spec(s -> s.putObject("networkPolicy").put("enabled", true)))
            .orElseThrow();
    KubeSchema.assertValid(policy);
    assertThat(policy.at("/spec/ingress")).hasSize(2);
    assertThat(policy.at("/spec/ingress/0/from")).hasSize(3);
  }

  @Test
  void theOperatorsJobsAndThePoolerMatchTheirPeersAndNothingElseDoes() {
    ObjectNode policy =
        NetworkPolicies.build("pg", spec(s -> s.putObject("networkPolicy").put("enabled", true)))
            .orElseThrow();
    JsonNode from = policy.at("/spec/ingress/0/from");
    ClusterSpec withUser = spec(s -> s.putArray("users").addObject().put("name", "app"));
    ObjectNode usersJobPod =
        (ObjectNode)
            UsersJobs.build("pg-users-1", "pg", "shop", "", withUser, Set.of())
                .at("/spec/template/metadata/labels")
                .deepCopy();
    // The Job controller adds job-name to every pod of a Job.
    usersJobPod.put("job-name", "pg-users-1");
    assertThat(matchesAny(from, usersJobPod)).isTrue();
    assertThat(matchesAny(from, Labels.pod("pg"))).isTrue();
    assertThat(
            matchesAny(
                from, Json.object().put(Labels.INSTANCE, "pg").put(Labels.COMPONENT, "pooler")))
        .isTrue();
    assertThat(
            matchesAny(
                from, Json.object().put(Labels.INSTANCE, "other").put(Labels.COMPONENT, "pooler")))
        .isFalse();
    assertThat(matchesAny(from, Labels.pod("other"))).isFalse();
    ObjectNode withoutJobName = usersJobPod.deepCopy();
    withoutJobName.remove("job-name");
    assertThat(matchesAny(from, withoutJobName))
        .as("a pod that merely copies the Job's labels")
        .isFalse();
  }

  /**
   * A cluster of the namespace that clones this one live: its database pods take a base backup from this primary,
   * so the policy admits them to PostgreSQL; a clone from backups (no live) connects to the store, not here.
   */
  @Test
  void aLiveCloneThatNamesThisClusterIsAdmitted() {
    ObservedRequests world = new ObservedRequests("orders", Json.object());
    world.spec.putObject("networkPolicy").put("enabled", true);
    world.otherClusters.put("orders-copy", cluster("orders-copy", "orders", true));
    world.otherClusters.put("orders-restore", cluster("orders-restore", "orders", false));
    world.otherClusters.put("billing-copy", cluster("billing-copy", "billing", true));
    world.sync();
    JsonNode from = world.children.get("NetworkPolicy/orders").at("/spec/ingress/0/from");
    assertThat(from.toString())
        .contains("{\"podSelector\":{\"matchLabels\":" + Labels.podSelector("orders-copy") + "}}")
        .doesNotContain("orders-restore")
        .doesNotContain("billing-copy");
    assertThat(world.children.get("NetworkPolicy/orders").at("/spec/ingress/1/from").toString())
        .as("not Patroni's REST API")
        .doesNotContain("orders-copy");
  }

  private static ObjectNode cluster(String name, String source, boolean live) {
    ObjectNode cluster =
        Json.object().put("apiVersion", "metahooks.dev/v1alpha1").put("kind", "PostgresCluster");
    cluster
        .putObject("metadata")
        .put("name", name)
        .put("namespace", ObservedRequests.NAMESPACE)
        .put("uid", name + "-uid");
    ObjectNode clone =
        cluster.putObject("spec").putObject("bootstrap").putObject("clone").put("cluster", source);
    if (live) {
      clone.putObject("live");
    }
    return cluster;
  }

  @Test
  void badPeersAreNamedInTheSpecProblems() {
    SpecReader.Result result =
        SpecReaderTest.read(
            s -> {
              ObjectNode policy = s.putObject("networkPolicy").put("enabled", "yes");
              policy.putArray("clients").addObject().put("ipBlock", "10.0.0.0/8");
              policy.withArray("clients").addObject();
              policy
                  .withArray("clients")
                  .addObject()
                  .putObject("podSelector")
                  .putObject("matchLabels")
                  .put("app", 5);
              policy
                  .withArray("clients")
                  .addObject()
                  .putObject("namespaceSelector")
                  .putArray("matchExpressions")
                  .addObject()
                  .put("key", "team")
                  .put("operator", "Equals");
              policy
                  .withArray("clients")
                  .addObject()
                  .putObject("namespaceSelector")
                  .putArray("matchExpressions")
                  .addObject()
                  .put("key", "team")
                  .put("operator", "In");
              policy.putObject("monitoring").put("podSelector", "all");
            });
    assertThat(SpecReaderTest.fields(result))
        .containsExactly(
            "spec.networkPolicy.enabled",
            "spec.networkPolicy.clients[0].ipBlock",
            "spec.networkPolicy.clients[1]",
            "spec.networkPolicy.clients[2].podSelector.matchLabels.app",
            "spec.networkPolicy.clients[3].namespaceSelector.matchExpressions[0].operator",
            "spec.networkPolicy.clients[4].namespaceSelector.matchExpressions[0].values",
            "spec.networkPolicy.monitoring.podSelector");
  }

  @Test
  void turningThePolicyOnAndOffTouchesNothingElse() {
    ObservedRequests world = TlsWorlds.running();
    Map<String, String> before = TlsWorlds.uids(world);
    Map<String, JsonNode> children = new TreeMap<>(world.children);
    world.edit(NetworkPoliciesTest::enabled);
    JsonNode on = world.sync();
    assertThat(world.children).containsKey("NetworkPolicy/orders");
    KubeSchema.assertValid(world.children.get("NetworkPolicy/orders"));
    assertThat(on.at("/status/phase").asText()).isEqualTo("Ready");
    assertThat(TlsWorlds.uids(world)).isEqualTo(before);
    children.forEach((key, child) -> assertThat(world.children.get(key)).as(key).isEqualTo(child));

    world.edit(spec -> spec.remove("networkPolicy"));
    world.sync();
    assertThat(world.children).doesNotContainKey("NetworkPolicy/orders");
    assertThat(world.children).isEqualTo(children);
  }

  /**
   * With the policy on, the pooler's pods are behind a policy of their own: PgBouncer's port from the clients alone
   * (the pooler has no exporter), so that the pooler is no way around {@code clients} to the primary.
   */
  @Test
  void thePoolersPodsAdmitOnlyTheClients() {
    ObservedRequests world = TlsWorlds.running();
    world.edit(spec -> enabled(spec).putObject("pooler"));
    world.sync();
    ObjectNode policy = world.children.get("NetworkPolicy/orders.pooler");
    assertThat(policy).as("a policy over the pooler's pods").isNotNull();
    KubeSchema.assertValid(policy);
    JsonNode poolerPods =
        world.children.get("Deployment/orders-pooler").at("/spec/template/metadata/labels");
    assertThat(selects(policy, poolerPods)).isTrue();
    assertThat(selects(policy, Labels.pod("orders"))).as("not the database pods").isFalse();
    assertThat(policy.at("/spec/policyTypes")).isEqualTo(json("[\"Ingress\"]"));
    JsonNode ingress = policy.at("/spec/ingress");
    assertThat(ingress).hasSize(1);
    assertThat(ingress.at("/0/ports")).isEqualTo(json("[{\"protocol\":\"TCP\",\"port\":5432}]"));
    assertThat(ingress.at("/0/from")).isEqualTo(world.spec.at("/networkPolicy/clients"));

    world.edit(spec -> spec.putObject("networkPolicy").put("enabled", true));
    world.sync();
    assertThat(world.children.get("NetworkPolicy/orders.pooler").at("/spec/ingress"))
        .as("without clients nobody reaches the pooler")
        .isEqualTo(json("[]"));
  }

  /** With the policy on, every pod the hook runs that listens for connections is selected by one of its policies. */
  @Test
  void everyListeningPodIsBehindAPolicy() {
    ObservedRequests world = TlsWorlds.running();
    world.edit(spec -> enabled(spec).putObject("pooler"));
    world.sync();
    List<ObjectNode> policies =
        world.children.values().stream()
            .filter(child -> child.path("kind").asText().equals("NetworkPolicy"))
            .toList();
    for (String listener : List.of("StatefulSet/orders", "Deployment/orders-pooler")) {
      JsonNode labels = world.children.get(listener).at("/spec/template/metadata/labels");
      assertThat(policies.stream().anyMatch(policy -> selects(policy, labels)))
          .as(listener)
          .isTrue();
    }
  }

  @Test
  void noPoolerPolicyWithoutThePoolerOrWithoutThePolicy() {
    ObservedRequests world = TlsWorlds.running();
    world.edit(NetworkPoliciesTest::enabled);
    world.sync();
    assertThat(world.children)
        .containsKey("NetworkPolicy/orders")
        .doesNotContainKey("NetworkPolicy/orders.pooler");
    world.edit(spec -> spec.remove("networkPolicy"));
    world.edit(spec -> spec.putObject("pooler"));
    world.sync();
    assertThat(world.children.keySet()).noneMatch(key -> key.startsWith("NetworkPolicy/"));
  }

  /** Whether the policy's pod selector (matchLabels only, as this class renders) selects pods labelled so. */
  private static boolean selects(JsonNode policy, JsonNode labels) {
    assertThat(policy.at("/spec/podSelector/matchExpressions").isMissingNode()).isTrue();
    boolean matches = true;
    for (var label : policy.at("/spec/podSelector/matchLabels").properties()) {
      matches &= label.getValue().asText().equals(labels.path(label.getKey()).asText(null));
    }
    return matches;
  }

  /** Label-selector matching as Kubernetes does it, for the peers this class renders (matchLabels, Exists). */
  private static boolean matchesAny(JsonNode peers, JsonNode labels) {
    for (JsonNode peer : peers) {
      JsonNode selector = peer.path("podSelector");
      if (peer.has("namespaceSelector")) {
        continue;
      }
      boolean matches = true;
      for (var label : selector.path("matchLabels").properties()) {
        matches &= label.getValue().asText().equals(labels.path(label.getKey()).asText(null));
      }
      for (JsonNode expression : selector.path("matchExpressions")) {
        assertThat(expression.path("operator").asText()).isEqualTo("Exists");
        matches &= labels.has(expression.path("key").asText());
      }
      if (matches) {
        return true;
      }
    }
    return false;
  }
}
