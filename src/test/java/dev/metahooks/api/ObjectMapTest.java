package dev.metahooks.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import org.junit.jupiter.api.Test;

/** Object maps read the same whatever the hook version and the scopes (docs/metacontroller.md, section 4). */
class ObjectMapTest {

  private static ObjectNode json(String text) {
    try {
      return (ObjectNode) JsonTrees.MAPPER.readTree(text.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static CompositeRequest request(
      String version, String parentNamespace, String children, String related) {
    String namespace = parentNamespace.isEmpty() ? "" : ", 'namespace': '" + parentNamespace + "'";
    return CompositeRequest.read(
        json(
            "{'controller': {'spec': {'hooks': {'sync': {'version': '"
                + version
                + "'}}}},"
                + " 'parent': {'metadata': {'name': 'p'"
                + namespace
                + "}},"
                + " 'children': "
                + children
                + ", 'related': "
                + related
                + "}"),
        Hook.SYNC);
  }

  @Test
  void v1KeysOfANamespacedParentAreNames() {
    CompositeRequest r =
        request(
            "v1",
            "shop",
            "{'Pod.v1': {'web-0': {'metadata': {'name': 'web-0', 'namespace': 'shop'}}}}",
            "{}");
    assertThat(r.version()).isEqualTo(HookVersion.V1);
    assertThat(r.child("v1", "Pod", "web-0")).isPresent();
    assertThat(r.children().keys("v1", "Pod")).containsExactly("web-0");
    assertThat(r.children().entries("v1", "Pod").get(0).namespace()).isEqualTo("shop");
  }

  @Test
  void childrenOfANamespacedParentMustSayTheyAreInItsNamespace() {
    // Metacontroller lists them in the parent's namespace; an object without one is not what it
    // observed, and
    // a hook that looked it up in the parent's namespace would regenerate it (a Secret) or drop it.
    for (String version : new String[] {"v1", "v2"}) {
      String key = version.equals("v1") ? "web-0" : "shop/web-0";
      assertThatThrownBy(
              () ->
                  request(
                      version,
                      "shop",
                      "{'Pod.v1': {'" + key + "': {'metadata': {'name': 'web-0'}}}}",
                      "{}"))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining("children['Pod.v1']['" + key + "'].metadata.namespace: is missing")
          .hasMessageContaining("only children in its own namespace 'shop'");
    }
    assertThatThrownBy(
            () ->
                request(
                    "v1",
                    "shop",
                    "{'Pod.v1': {'web-0': {'metadata': {'name': 'web-0', 'namespace': ''}}}}",
                    "{}"))
        .hasMessageContaining("children['Pod.v1']['web-0'].metadata.namespace: is missing");
    assertThatThrownBy(
            () ->
                request(
                    "v2",
                    "shop",
                    "{'Pod.v1': {'other/web-0': {'metadata': {'name': 'web-0', 'namespace': 'other'}}}}",
                    "{}"))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("children['Pod.v1']['other/web-0'].metadata.namespace");
  }

  @Test
  void relatedObjectsOfANamespacedParentStayInItsNamespaceInV1Only() {
    assertThatThrownBy(
            () ->
                request(
                    "v1",
                    "shop",
                    "{}",
                    "{'Secret.v1': {'creds': {'metadata': {'name': 'creds'}}}}"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining(
            "related['Secret.v1']['creds'].metadata.namespace: is missing; hook version v1");
    assertThatThrownBy(
            () ->
                request(
                    "v1",
                    "shop",
                    "{}",
                    "{'Secret.v1': {'other/creds': {'metadata': {'name': 'creds', 'namespace': 'other'}}}}"))
        .hasMessageContaining("metadata.namespace: is 'other'");
    // v2 sends other namespaces and cluster-scoped objects; a cluster-scoped parent sees every
    // namespace.
    assertThat(
            request(
                    "v2",
                    "shop",
                    "{}",
                    "{'Secret.v1': {'other/creds': {'metadata': {'name': 'creds'}}},"
                        + " 'Namespace.v1': {'other': {'metadata': {'name': 'other'}}}}")
                .related()
                .get("v1", "Secret", "other", "creds"))
        .isPresent();
    assertThat(
            request(
                    "v1",
                    "",
                    "{'ConfigMap.v1': {'one/cm': {'metadata': {'name': 'cm', 'namespace': 'one'}},"
                        + " 'cr': {'metadata': {'name': 'cr'}}}}",
                    "{}")
                .children()
                .count("v1", "ConfigMap"))
        .isEqualTo(2);
  }

  @Test
  void aNullGroupIsRefusedNotReadAsEmpty() {
    assertThatThrownBy(() -> request("v1", "shop", "{'Secret.v1': null}", "{}"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("children['Secret.v1']: is null");
    assertThatThrownBy(() -> request("v2", "", "{}", "{'Namespace.v1': null}"))
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("related['Namespace.v1']");
  }

  @Test
  void v2KeysAreNamespaceSlashName() {
    CompositeRequest r =
        request(
            "v2",
            "shop",
            "{'Pod.v1': {'shop/web-0': {'metadata': {'name': 'web-0', 'namespace': 'shop'}}}}",
            "{'ConfigMap.v1': {'other/cm': {'metadata': {'name': 'cm', 'namespace': 'other'}}},"
                + " 'Namespace.v1': {'other': {'metadata': {'name': 'other'}}}}");
    assertThat(r.version()).isEqualTo(HookVersion.V2);
    assertThat(r.child("v1", "Pod", "web-0")).isPresent();
    assertThat(r.related().get("v1", "ConfigMap", "other", "cm")).isPresent();
    assertThat(r.related().get("v1", "Namespace", "", "other")).isPresent();
    assertThat(r.related().keys("v1", "ConfigMap")).containsExactly("other/cm");
  }

  @Test
  void v2KeysWithoutNamespaceInMetadataAreStillUnderstood() {
    CompositeRequest r =
        request("v2", "shop", "{}", "{'Pod.v1': {'other/web-0': {'metadata': {'name': 'web-0'}}}}");
    assertThat(r.related().get("v1", "Pod", "other", "web-0")).isPresent();
  }

  @Test
  void aClusterScopedParentSeesNamespaceSlashNameInV1Too() {
    CompositeRequest r =
        request(
            "v1",
            "",
            "{'ConfigMap.v1': {'one/settings': {'metadata': {'name': 'settings', 'namespace': 'one'}}}}",
            "{'Namespace.v1': {'one': {'metadata': {'name': 'one'}}}}");
    assertThat(r.namespace()).isEmpty();
    assertThat(r.children().get("v1", "ConfigMap", "one", "settings")).isPresent();
    assertThat(r.related().get("v1", "Namespace", "", "one")).isPresent();
  }

  @Test
  void aKeyOfTheWrongVersionIsRefused() {
    assertThatThrownBy(
            () ->
                request(
                    "v2",
                    "shop",
                    "{'Pod.v1': {'web-0': {'metadata': {'name': 'web-0', 'namespace': 'shop'}}}}",
                    "{}"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("children['Pod.v1']['web-0']")
        .hasMessageContaining("expected 'shop/web-0'");
    assertThatThrownBy(
            () ->
                request(
                    "v1",
                    "shop",
                    "{'Pod.v1': {'shop/web-0': {'metadata': {'name': 'web-0', 'namespace': 'shop'}}}}",
                    "{}"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("expected 'web-0'");
  }

  @Test
  void aKeyNamingAnotherObjectIsRefused() {
    assertThatThrownBy(
            () ->
                request(
                    "v1", "shop", "{'Pod.v1': {'web-1': {'metadata': {'name': 'web-0'}}}}", "{}"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("['web-1']");
  }

  @Test
  void declaredChildGroupsMustBeSentButRelatedGroupsNeedNot() {
    CompositeRequest r = request("v1", "shop", "{}", "{}");
    assertThatThrownBy(() -> r.children().list("v1", "Pod"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("children['Pod.v1']: is missing");
    assertThat(r.related().list("v1", "Secret")).isEmpty();
    assertThat(r.children().has("v1", "Pod")).isFalse();
  }

  @Test
  void groupKeysFollowMetacontroller() {
    assertThat(ObjectMap.groupKey("v1", "Pod")).isEqualTo("Pod.v1");
    assertThat(ObjectMap.groupKey("apps/v1", "StatefulSet")).isEqualTo("StatefulSet.apps/v1");
  }

  @Test
  void listsKeepTheRequestOrder() {
    CompositeRequest r =
        request(
            "v1",
            "",
            "{'Pod.v1': {'b': {'metadata': {'name': 'b'}},"
                + " 'a': {'metadata': {'name': 'a'}}, 'c': {'metadata': {'name': 'c'}}}}",
            "{}");
    assertThat(r.children().keys("v1", "Pod")).containsExactly("b", "a", "c");
    assertThat(r.children().count("v1", "Pod")).isEqualTo(3);
  }

  @Test
  void finalizingDefaultsToTheHookCalledAndTheVersionFollowsIt() {
    ObjectNode body =
        json(
            "{'controller': {'spec': {'hooks': {'sync': {'version': 'v1'}, 'finalize': {'version': 'v2'}}}},"
                + " 'parent': {'metadata': {'name': 'p', 'namespace': 'ns', 'deletionTimestamp': '2026-01-01T00:00:00Z'}},"
                + " 'children': {}}");
    assertThat(CompositeRequest.read(body, Hook.FINALIZE).finalizing()).isTrue();
    assertThat(CompositeRequest.read(body, Hook.FINALIZE).version()).isEqualTo(HookVersion.V2);
    assertThat(CompositeRequest.read(body, Hook.SYNC).version()).isEqualTo(HookVersion.V1);
    body.put("finalizing", true);
    assertThat(CompositeRequest.read(body, Hook.SYNC).version()).isEqualTo(HookVersion.V2);
  }
}
