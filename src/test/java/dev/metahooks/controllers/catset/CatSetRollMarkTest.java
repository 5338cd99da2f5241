package dev.metahooks.controllers.catset;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import org.junit.jupiter.api.Test;

/** The roll's mark is a later step of the sync that changes a built Pod: it must not reach the shared template. */
class CatSetRollMarkTest {
  @Test
  void theMarkIsOnThePodNotOnTheTemplateItShares() throws Exception {
    for (String annotations : new String[] {"{\"a\":\"b\"}", "null"}) {
      ObjectNode parent =
          (ObjectNode)
              JsonTrees.MAPPER.readTree(
                  "{\"spec\":{\"replicas\":2,\"template\":{\"metadata\":"
                      + "{\"annotations\":"
                      + annotations
                      + "},\"spec\":{\"containers\":[]}}}}");
      CatSetSpec spec = CatSetSpec.read(parent, false);
      ObjectNode template = CatSetPods.template(spec);
      ObjectNode before = template.deepCopy();

      ObjectNode marked = CatSetPods.build(spec, template, "web-0");
      CatSetRoll.mark(marked, "hash");
      ObjectNode other = CatSetPods.build(spec, template, "web-1");

      assertThat(marked.at("/metadata/annotations").path(CatSetRoll.TEMPLATE_HASH).asText())
          .isEqualTo("hash");
      assertThat(other.at("/metadata/annotations").has(CatSetRoll.TEMPLATE_HASH)).isFalse();
      assertThat(template).isEqualTo(before);
    }
  }
}
