package dev.metahooks.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** Object maps read the same whatever the hook version and the scopes (contract section 4). */
class ObjectMapTest {

  private static ObjectNode json(String text) {
    try {
      return (ObjectNode) Json.MAPPER.readTree(text.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static CompositeRequest request(String version, String parentNamespace, String children, String related) {
    String namespace = parentNamespace.isEmpty() ? "" : ", 'namespace': '" + parentNamespace + "'";
    return CompositeRequest.read(json("{'controller': {'spec': {'hooks': {'sync': {'version': '" + version + "'}}}},"
        + " 'parent': {'metadata': {'name': 'p'" + namespace + "}},"
        + " 'children': " + children + ", 'related': " + related + "}"), Hook.SYNC);
  }

  @Test
  void v1KeysOfANamespacedParentAreNames() {
    CompositeRequest r = request("v1", "shop",
        "{'Pod.v1': {'web-0': {'metadata': {'name': 'web-0', 'namespace': 'shop'}}}}", "{}");
    assertThat(r.version()).isEqualTo(HookVersion.V1);
    assertThat(r.child("v1", "Pod", "web-0")).isPresent();
    assertThat(r.children().keys("v1", "Pod")).containsExactly("web-0");
    assertThat(r.children().entries("v1", "Pod").get(0).namespace()).isEqualTo("shop");
  }

  @Test
  void v1ObjectsWithoutANamespaceTakeTheParentsNamespace() {
    CompositeRequest r = request("v1", "shop", "{'Pod.v1': {'web-0': {'metadata': {'name': 'web-0'}}}}", "{}");
    assertThat(r.children().get("v1", "Pod", "shop", "web-0")).isPresent();
  }

  @Test
  void v2KeysAreNamespaceSlashName() {
    CompositeRequest r = request("v2", "shop",
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
    CompositeRequest r = request("v2", "shop", "{'Pod.v1': {'shop/web-0': {'metadata': {'name': 'web-0'}}}}", "{}");
    assertThat(r.child("v1", "Pod", "web-0")).isPresent();
  }

  @Test
  void aClusterScopedParentSeesNamespaceSlashNameInV1Too() {
    CompositeRequest r = request("v1", "",
        "{'ConfigMap.v1': {'one/settings': {'metadata': {'name': 'settings', 'namespace': 'one'}}}}",
        "{'Namespace.v1': {'one': {'metadata': {'name': 'one'}}}}");
    assertThat(r.namespace()).isEmpty();
    assertThat(r.children().get("v1", "ConfigMap", "one", "settings")).isPresent();
    assertThat(r.related().get("v1", "Namespace", "", "one")).isPresent();
  }

  @Test
  void aKeyOfTheWrongVersionIsRefused() {
    assertThatThrownBy(() -> request("v2", "shop",
        "{'Pod.v1': {'web-0': {'metadata': {'name': 'web-0', 'namespace': 'shop'}}}}", "{}"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("children['Pod.v1']['web-0']")
        .hasMessageContaining("expected 'shop/web-0'");
    assertThatThrownBy(() -> request("v1", "shop",
        "{'Pod.v1': {'shop/web-0': {'metadata': {'name': 'web-0', 'namespace': 'shop'}}}}", "{}"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("expected 'web-0'");
  }

  @Test
  void aKeyNamingAnotherObjectIsRefused() {
    assertThatThrownBy(() -> request("v1", "shop", "{'Pod.v1': {'web-1': {'metadata': {'name': 'web-0'}}}}", "{}"))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("['web-1']");
  }

  @Test
  void declaredChildGroupsMustBeSentButRelatedGroupsNeedNot() {
    CompositeRequest r = request("v1", "shop", "{}", "{}");
    assertThatThrownBy(() -> r.children().list("v1", "Pod"))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("children['Pod.v1']: is missing");
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
    CompositeRequest r = request("v1", "shop", "{'Pod.v1': {'b': {'metadata': {'name': 'b'}},"
        + " 'a': {'metadata': {'name': 'a'}}, 'c': {'metadata': {'name': 'c'}}}}", "{}");
    assertThat(r.children().keys("v1", "Pod")).containsExactly("b", "a", "c");
    assertThat(r.children().count("v1", "Pod")).isEqualTo(3);
  }

  @Test
  void finalizingDefaultsToTheHookCalledAndTheVersionFollowsIt() {
    ObjectNode body = json("{'controller': {'spec': {'hooks': {'sync': {'version': 'v1'}, 'finalize': {'version': 'v2'}}}},"
        + " 'parent': {'metadata': {'name': 'p', 'namespace': 'ns'}}, 'children': {}}");
    assertThat(CompositeRequest.read(body, Hook.FINALIZE).finalizing()).isTrue();
    assertThat(CompositeRequest.read(body, Hook.FINALIZE).version()).isEqualTo(HookVersion.V2);
    assertThat(CompositeRequest.read(body, Hook.SYNC).version()).isEqualTo(HookVersion.V1);
    body.put("finalizing", true);
    assertThat(CompositeRequest.read(body, Hook.SYNC).version()).isEqualTo(HookVersion.V2);
  }
}
