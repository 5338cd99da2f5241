package dev.metahooks.controllers;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Hook;
import dev.metahooks.controllers.catset.CatSetController;
import dev.metahooks.controllers.indexedjob.IndexedJobController;
import dev.metahooks.json.JsonTrees;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Children built from one template share its unchanged parts (kube.PathCopies). A change meant for one child that
 * reached a shared part would show in every other child and in the request: here each child has exactly its own
 * name, namespace, volumes, annotations and env, the request is unchanged, and what no child changes is one node.
 */
class TemplateSharingTest {
  @Test
  void catSetPodsAndClaimsHaveOnlyTheirOwnChangesAndShareTheRest() throws Exception {
    ObjectNode body =
        read(
            "{\"controller\":{\"spec\":{\"childResources\":[{\"apiVersion\":\"v1\","
                + "\"resource\":\"pods\",\"updateStrategy\":{\"method\":\"OnDelete\"}}]}},"
                + "\"parent\":{\"apiVersion\":\"ctl.enisoc.com/v1\",\"kind\":\"CatSet\","
                + "\"metadata\":{\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":3,\"serviceName\":\"svc\","
                + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"},\"annotations\":{\"a\":\"b\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}],\"volumes\":[{\"name\":\"tmp\"}]}},"
                + "\"volumeClaimTemplates\":[{\"metadata\":{\"name\":\"www\",\"labels\":{\"l\":\"v\"}},"
                + "\"spec\":{\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}}}]}},"
                + "\"children\":{\"Pod.v1\":{\"web-0\":"
                + readyPod("web-0")
                + ",\"web-1\":"
                + readyPod("web-1")
                + "},"
                + "\"PersistentVolumeClaim.v1\":{}}}");
    ObjectNode before = body.deepCopy();

    CompositeResponse response = CatSetController.sync(CompositeRequest.read(body, Hook.SYNC));

    List<ObjectNode> pods =
        response.children().stream().filter(c -> c.path("kind").asText().equals("Pod")).toList();
    List<ObjectNode> claims =
        response.children().stream()
            .filter(c -> c.path("kind").asText().equals("PersistentVolumeClaim"))
            .toList();
    assertThat(pods).hasSize(3);
    assertThat(claims).hasSize(3);
    for (ObjectNode pod : pods) {
      String name = pod.at("/metadata/name").asText();
      assertThat(pod.at("/spec/hostname").asText()).isEqualTo(name);
      assertThat(pod.at("/spec/volumes"))
          .isEqualTo(
              json(
                  "[{\"name\":\"tmp\"},{\"name\":\"www\","
                      + "\"persistentVolumeClaim\":{\"claimName\":\"www-"
                      + name
                      + "\"}}]"));
      assertThat(pod.at("/metadata/annotations").size()).isEqualTo(2);
      assertThat(pod.at("/metadata/annotations/a").asText()).isEqualTo("b");
      assertThat(pod.at("/spec/containers")).isSameAs(pods.get(0).at("/spec/containers"));
      assertThat(pod.at("/metadata/labels")).isSameAs(pods.get(0).at("/metadata/labels"));
    }
    assertThat(claims.stream().map(c -> c.at("/metadata/name").asText()))
        .containsExactly("www-web-0", "www-web-1", "www-web-2");
    assertThat(claims.get(1).get("spec")).isSameAs(claims.get(0).get("spec"));
    assertThat(claims.get(1).at("/metadata/labels")).isSameAs(claims.get(0).at("/metadata/labels"));
    assertThat(body).isEqualTo(before);
  }

  @Test
  void indexedJobPodsEachGetTheirOwnIndexAndShareTheRest() throws Exception {
    ObjectNode body =
        read(
            "{\"parent\":{\"apiVersion\":\"ctl.enisoc.com/v1\",\"kind\":\"IndexedJob\","
                + "\"metadata\":{\"name\":\"job\",\"namespace\":\"default\"},\"spec\":{\"completions\":3,\"parallelism\":3,"
                + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"job\"}},\"spec\":{\"restartPolicy\":\"Never\","
                + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"env\":[{\"name\":\"A\",\"value\":\"1\"}]},"
                + "{\"name\":\"d\",\"image\":\"busybox\",\"command\":[\"true\"]}]}}}},\"children\":{\"Pod.v1\":{}}}");
    ObjectNode before = body.deepCopy();

    CompositeResponse response = IndexedJobController.sync(CompositeRequest.read(body, Hook.SYNC));

    List<ObjectNode> pods = response.children();
    assertThat(pods).hasSize(3);
    for (ObjectNode pod : pods) {
      String index = pod.at("/metadata/name").asText().substring("job-".length());
      assertThat(pod.at("/spec/containers/0/env"))
          .isEqualTo(
              json(
                  "[{\"name\":\"A\",\"value\":\"1\"},"
                      + "{\"name\":\"JOB_INDEX\",\"value\":\""
                      + index
                      + "\"}]"));
      assertThat(pod.at("/spec/containers/1/env"))
          .isEqualTo(json("[{\"name\":\"JOB_INDEX\",\"value\":\"" + index + "\"}]"));
      assertThat(pod.at("/metadata/labels"))
          .isSameAs(body.at("/parent/spec/template/metadata/labels"));
      assertThat(pod.at("/spec/containers/1/command"))
          .isSameAs(body.at("/parent/spec/template/spec/containers/1/command"));
    }
    assertThat(body).isEqualTo(before);
  }

  @Test
  void propagatedCopiesShareTheSourcesContentOnly() throws Exception {
    ObjectNode body =
        read(
            "{\"parent\":{\"apiVersion\":\"examples.metacontroller.io/v1alpha1\","
                + "\"kind\":\"ConfigMapPropagation\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"sourceName\":\"settings\","
                + "\"sourceNamespace\":\"src\",\"targetNamespaces\":[\"a\",\"b\",\"c\"]}},\"children\":{\"ConfigMap.v1\":{}},"
                + "\"related\":{\"ConfigMap.v1\":{\"src/settings\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"name\":\"settings\",\"namespace\":\"src\"},\"data\":{\"k\":\"v\"}}}}}");
    ObjectNode before = body.deepCopy();

    List<ObjectNode> copies =
        dev.metahooks.controllers.configmappropagation.ConfigMapPropagationController.sync(
                CompositeRequest.read(body, Hook.SYNC))
            .children();

    assertThat(copies.stream().map(c -> c.at("/metadata/namespace").asText()))
        .containsExactly("a", "b", "c");
    assertThat(copies)
        .allSatisfy(
            c ->
                assertThat(c)
                    .isEqualTo(
                        json(
                            "{\"apiVersion\":\"v1\","
                                + "\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"settings\",\"namespace\":\""
                                + c.at("/metadata/namespace").asText()
                                + "\"},\"data\":{\"k\":\"v\"}}")));
    assertThat(copies.get(2).get("data")).isSameAs(copies.get(0).get("data"));
    assertThat(body).isEqualTo(before);
  }

  private static String readyPod(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name
        + "\",\"namespace\":\"default\"},"
        + "\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}";
  }

  private static ObjectNode read(String json) throws Exception {
    JsonNode node = JsonTrees.MAPPER.readTree(json);
    return (ObjectNode) node;
  }
}
