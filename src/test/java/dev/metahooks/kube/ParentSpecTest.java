package dev.metahooks.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ParentSpecTest {
  private static ParentSpec spec(String json) throws Exception {
    ObjectNode parent = Json.object();
    parent.set("spec", Json.MAPPER.readTree(json));
    return ParentSpec.of(parent);
  }

  @Test
  void readsTypedFields() throws Exception {
    ParentSpec spec = spec("{\"name\":\"a\",\"list\":[\"x\",\"y\"],\"opt\":\"\",\"labels\":{\"k\":\"v\"}}");
    assertThat(spec.requiredString("name")).isEqualTo("a");
    assertThat(spec.requiredStringList("list")).containsExactly("x", "y");
    assertThat(spec.optionalString("opt")).contains("");
    assertThat(spec.optionalString("missing")).isEmpty();
    assertThat(spec.requiredStringMap("labels")).isEqualTo(Json.object().put("k", "v"));
    assertThat(spec.optionalLabelSelector("missing")).isEqualTo(Optional.empty());
  }

  @Test
  void absentSpecReadsAsEmptyAndNamesTheMissingField() {
    assertThatThrownBy(() -> ParentSpec.of(Json.object()).requiredString("sourceName"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage("parent.spec.sourceName: is required");
  }

  @Test
  void wrongTypesNameTheField() throws Exception {
    assertField(() -> ParentSpec.of((ObjectNode) Json.MAPPER.readTree("{\"spec\":[]}")), "parent.spec");
    assertField(() -> spec("{\"name\":1}").requiredString("name"), "parent.spec.name");
    assertField(() -> spec("{\"name\":\"\"}").requiredString("name"), "parent.spec.name");
    assertField(() -> spec("{\"opt\":true}").optionalString("opt"), "parent.spec.opt");
    assertField(() -> spec("{\"list\":\"a\"}").requiredStringList("list"), "parent.spec.list");
    assertField(() -> spec("{\"list\":[\"a\",\"\"]}").requiredStringList("list"), "parent.spec.list[1]");
    assertField(() -> spec("{}").requiredStringList("list"), "parent.spec.list");
    assertField(() -> spec("{\"labels\":{\"k\":null}}").requiredStringMap("labels"), "parent.spec.labels['k']");
    assertField(() -> spec("{\"sel\":null}").requiredLabelSelector("sel"), "parent.spec.sel");
    assertThat(spec("{\"list\":[]}").requiredStringList("list")).isEqualTo(List.of());
  }

  interface Read {
    Object run() throws Exception;
  }

  private static void assertField(Read read, String field) {
    assertThatThrownBy(read::run)
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field()).isEqualTo(field);
  }
}
