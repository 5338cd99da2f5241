package dev.metahooks.controllers.postgres;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.children.ApiToken;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.testing.kube.KubeSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every Role the hook renders, in every state that renders one ({@link RenderedStates}), and who holds a token:
 * each Role holds exactly the verbs and names its holder's calls need, and only the pods that call the API server
 * (Patroni, and the Jobs whose scripts call it) have a token, in the containers that call it.
 */
class RenderedRbacTest {
  static RenderedStates orders;

  @BeforeAll
  static void render() {
    orders = RenderedStates.of("orders", "shop");
  }

  @Test
  void eachRoleHoldsWhatItsHolderCallsAndNothingElse() {
    Map<String, List<String>> roles = new TreeMap<>();
    for (ObjectNode role : orders.ofKind("Role")) {
      KubeSchema.assertValid(role);
      List<String> rules = new ArrayList<>();
      role.path("rules").forEach(rule -> rules.add(describe(rule)));
      roles.put(Names.of(role), rules);
    }
    assertThat(roles)
        .containsOnlyKeys(
            "orders-patroni",
            "orders-backup",
            "orders-store-check",
            "orders-restart",
            "orders-resize",
            "orders-upgrade",
            "orders-cleanup");
    assertThat(roles.get("orders-patroni"))
        .containsExactly(
            "configmaps (any): create list watch",
            "configmaps orders-config orders-leader orders-failover orders-sync: get patch",
            "pods (any): list watch",
            "pods orders-0 orders-1 orders-2: patch");
    // kubectl exec svc/orders-rw: the Service, the pods it selects, exec into the one it found.
    assertThat(roles.get("orders-backup"))
        .containsExactly(
            "services orders-rw: get",
            "pods (any): list watch",
            "pods orders-0 orders-1 orders-2: get",
            "pods/exec orders-0 orders-1 orders-2: create get");
    assertThat(roles.get("orders-store-check"))
        .containsExactly("configmaps orders-backup-health: patch");
    // The rollout restarts the highest replica first (the primary runs on ordinal 2).
    assertThat(roles.get("orders-restart")).containsExactly("pods orders-1: delete");
    assertThat(roles.get("orders-resize"))
        .containsExactly(
            "persistentvolumeclaims pgdata-orders-0 pgdata-orders-1 pgdata-orders-2: patch",
            "apps/statefulsets orders: delete");
    assertThat(roles.get("orders-upgrade"))
        .containsExactly("pods orders-1: get", "pods/exec orders-1: create get");
    assertThat(roles.get("orders-cleanup"))
        .containsExactly(
            "configmaps orders-config orders-leader orders-failover orders-sync: delete");
  }

  @Test
  void everyAccountIsBoundToItsOwnRoleAlone() {
    List<String> accounts =
        orders.ofKind("ServiceAccount").stream().map(Names::of).sorted().toList();
    List<String> roles = orders.ofKind("Role").stream().map(Names::of).sorted().toList();
    assertThat(accounts).isEqualTo(roles);
    for (ObjectNode binding : orders.ofKind("RoleBinding")) {
      String name = Names.of(binding);
      assertThat(binding.path("roleRef"))
          .isEqualTo(
              json(
                  "{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"Role\",\"name\":\""
                      + name
                      + "\"}"));
      assertThat(binding.path("subjects"))
          .isEqualTo(
              json(
                  "[{\"kind\":\"ServiceAccount\",\"name\":\""
                      + name
                      + "\",\"namespace\":\"shop\"}]"));
    }
    assertThat(orders.ofKind("RoleBinding")).hasSameSizeAs(roles);
  }

  @Test
  void onlyThePodsThatCallTheApiServerHoldATokenAndOnlyWhereTheyCallIt() {
    Map<String, String> holders = new TreeMap<>();
    orders
        .podTemplates()
        .forEach(
            (key, template) ->
                holders.put(
                    key.replaceAll("-[0-9a-f]{10}$", "-<hash>"),
                    tokenHolders(template.path("spec"))));
    assertThat(holders)
        .containsExactlyInAnyOrderEntriesOf(
            Map.ofEntries(
                // Patroni (Kubernetes mode) in the database container; not the exporter sidecar
                // beside it.
                Map.entry("StatefulSet/orders", "orders-patroni: postgres"),
                Map.entry("Job/orders-restart-<hash>", "orders-restart: restart"),
                Map.entry("Job/orders-resize-<hash>", "orders-resize: resize"),
                Map.entry("Job/orders-upgrade-17", "orders-upgrade: upgrade"),
                Map.entry("Job/orders-cleanup", "orders-cleanup: cleanup"),
                Map.entry("CronJob/orders-store-check", "orders-store-check: store-check"),
                // Four steps, one of them kubectl: only that one gets the token.
                Map.entry("Job/orders.backup-before-upgrade", "orders-backup: backup"),
                Map.entry("Job/orders.backup-dump", "none"),
                Map.entry("CronJob/orders-logical", "none"),
                Map.entry("Job/orders-users-<hash>", "none"),
                Map.entry("Job/orders-switchover-<hash>", "none"),
                Map.entry("Job/orders-parameters-<hash>", "none"),
                Map.entry("Deployment/orders-pooler", "none")));
  }

  /**
   * The section "Accounts, tokens and Roles" of docs/postgrescluster/security.md lists every account the hook renders, each
   * with the container that holds its token, and every pod the hook renders without a token.
   */
  @Test
  void theDocsListEveryHolderOfATokenAndEveryPodWithout() throws Exception {
    String section =
        MarkdownBlocks.section(
            MarkdownBlocks.page("docs/postgrescluster/security.md"), "Accounts, tokens and Roles");
    Map<String, String> documentedAccounts = new TreeMap<>();
    Matcher account = Pattern.compile("(?m)^\\| `<n>-([a-z-]+)` \\| ([^|]+) \\|").matcher(section);
    while (account.find()) {
      documentedAccounts.put("orders-" + account.group(1), account.group(2));
    }
    assertThat(section)
        .as("a table of the pods without a token")
        .contains("| pod | why it needs no token |");
    List<String> withoutToken = new ArrayList<>();
    Matcher pod =
        Pattern.compile("(Job|CronJob|Deployment) `(<n>[-.][^`]+)`")
            .matcher(section.substring(section.indexOf("| pod | why it needs no token |")));
    while (pod.find()) {
      withoutToken.add(
          pod.group(1)
              + "/"
              + Pattern.quote(pod.group(2))
                  .replace("<n>", "\\E" + "orders" + "\\Q")
                  .replace("<hash>", "\\E[0-9a-f]{10}\\Q")
                  .replace("<name>", "\\E[a-z0-9-]+\\Q"));
    }

    assertThat(documentedAccounts.keySet())
        .containsExactlyInAnyOrderElementsOf(
            orders.ofKind("ServiceAccount").stream().map(Names::of).toList());
    List<String> failures = new ArrayList<>();
    orders
        .podTemplates()
        .forEach(
            (key, template) -> {
              String holders = tokenHolders(template.path("spec"));
              if (holders.equals("none")) {
                if (withoutToken.stream().noneMatch(key::matches)) {
                  failures.add(key + " holds no token and is not in the table of pods without one");
                }
                return;
              }
              String name = holders.substring(0, holders.indexOf(':'));
              for (String container : holders.substring(name.length() + 2).split(" ")) {
                if (!documentedAccounts.getOrDefault(name, "").contains("`" + container + "`")) {
                  failures.add(
                      key
                          + ": the row of "
                          + name
                          + " does not name its container `"
                          + container
                          + "`");
                }
              }
            });
    assertThat(failures).isEmpty();
  }

  /** {@code account: containers} of the containers that hold the pod's token, or {@code none}. */
  static String tokenHolders(JsonNode pod) {
    List<String> holders = new ArrayList<>();
    boolean automatic = pod.path("automountServiceAccountToken").asBoolean(true);
    for (String list : List.of("initContainers", "containers")) {
      for (JsonNode container : pod.path(list)) {
        boolean mounted = false;
        for (JsonNode mount : container.path("volumeMounts")) {
          mounted |= mount.path("mountPath").asText().equals(ApiToken.MOUNT_PATH);
        }
        if (automatic || mounted) {
          holders.add(container.path("name").asText());
        }
      }
    }
    if (holders.isEmpty()) {
      assertThat(pod.has("serviceAccountName"))
          .as("a pod without a token needs no account of its own: %s", pod)
          .isFalse();
      return "none";
    }
    return pod.path("serviceAccountName").asText("default") + ": " + String.join(" ", holders);
  }

  /** {@code [group/]resource names: verbs}, names {@code (any)} when the rule has none. */
  static String describe(JsonNode rule) {
    String group = rule.at("/apiGroups/0").asText();
    StringBuilder text =
        new StringBuilder(group.isEmpty() ? "" : group + "/")
            .append(rule.at("/resources/0").asText());
    assertThat(rule.path("apiGroups")).as("one group per rule: %s", rule).hasSize(1);
    assertThat(rule.path("resources")).as("one resource per rule: %s", rule).hasSize(1);
    if (rule.has("resourceNames")) {
      rule.path("resourceNames").forEach(name -> text.append(' ').append(name.asText()));
    } else {
      text.append(" (any)");
    }
    text.append(':');
    rule.path("verbs").forEach(verb -> text.append(' ').append(verb.asText()));
    return text.toString();
  }
}
