package dev.metahooks.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FieldReaderTest {
  private static FieldReader spec(String json) throws Exception {
    ObjectNode parent = Json.object();
    parent.set("spec", JsonTrees.MAPPER.readTree(json));
    return FieldReader.spec(parent);
  }

  @Test
  void readsTypedFields() throws Exception {
    FieldReader spec =
        spec("{\"name\":\"a\",\"list\":[\"x\",\"y\"],\"opt\":\"\",\"labels\":{\"k\":\"v\"}}");
    assertThat(spec.requiredString("name")).isEqualTo("a");
    assertThat(spec.requiredStringList("list")).containsExactly("x", "y");
    assertThat(spec.optionalString("opt")).contains("");
    assertThat(spec.optionalString("missing")).isEmpty();
    assertThat(spec.requiredStringMap("labels")).isEqualTo(Json.object().put("k", "v"));
    assertThat(spec.optionalLabelSelector("missing")).isEqualTo(Optional.empty());
  }

  @Test
  void absentSpecReadsAsEmptyAndNamesTheMissingField() {
    assertThatThrownBy(() -> FieldReader.spec(Json.object()).requiredString("sourceName"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage("parent.spec.sourceName: is required");
  }

  @Test
  void wrongTypesNameTheField() throws Exception {
    assertField(
        () -> FieldReader.spec((ObjectNode) JsonTrees.MAPPER.readTree("{\"spec\":[]}")),
        "parent.spec");
    assertField(() -> spec("{\"name\":1}").requiredString("name"), "parent.spec.name");
    assertField(() -> spec("{\"name\":\"\"}").requiredString("name"), "parent.spec.name");
    assertField(() -> spec("{\"opt\":true}").optionalString("opt"), "parent.spec.opt");
    assertField(() -> spec("{\"list\":\"a\"}").requiredStringList("list"), "parent.spec.list");
    assertField(
        () -> spec("{\"list\":[\"a\",\"\"]}").requiredStringList("list"), "parent.spec.list[1]");
    assertField(() -> spec("{}").requiredStringList("list"), "parent.spec.list");
    assertField(
        () -> spec("{\"labels\":{\"k\":null}}").requiredStringMap("labels"),
        "parent.spec.labels['k']");
    assertField(() -> spec("{\"sel\":null}").requiredLabelSelector("sel"), "parent.spec.sel");
    assertThat(spec("{\"list\":[]}").requiredStringList("list")).isEqualTo(List.of());
  }

  @Test
  void readsNestedObjectsAndObservedObjectsWithTheirPaths() throws Exception {
    FieldReader spec =
        spec(
            "{\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":[]},"
                + "\"items\":[{\"n\":1},2],\"count\":3.0,\"frac\":1.5}");
    assertThat(spec.object("template").object("metadata").requiredStringMap("labels"))
        .isEqualTo(Json.object().put("a", "b"));
    assertField(() -> spec.object("template").object("spec"), "parent.spec.template.spec");
    assertField(() -> spec.object("template").object("missing"), "parent.spec.template.missing");
    assertField(() -> spec.requiredObjects("items"), "parent.spec.items[1]");
    assertThat(spec.optionalInteger("count")).contains(3L);
    assertField(() -> spec.optionalInteger("frac"), "parent.spec.frac");
    assertThat(spec.optionalObject("absent")).isEmpty();
    assertThat(spec.objectOrEmpty("absent").optionalString("x")).isEmpty();

    FieldReader pod =
        FieldReader.of(
            JsonTrees.MAPPER.readTree("{\"metadata\":{\"annotations\":{\"k\":7}}}"), "object");
    assertField(
        () -> pod.objectOrEmpty("metadata").objectOrEmpty("annotations").requiredText("k"),
        "object.metadata.annotations.k");
    assertThat(pod.objectOrEmpty("status").optionalString("phase")).isEmpty();
    assertThatThrownBy(() -> FieldReader.requiredSpec(Json.object()))
        .hasMessage("parent.spec: is required");
  }

  interface Read {
    Object run() throws Exception;
  }

  private static void assertField(Read read, String field) {
    assertThatThrownBy(read::run)
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo(field);
  }
}
