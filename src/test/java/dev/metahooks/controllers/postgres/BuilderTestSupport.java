package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Consumer;

/** Specs for builder tests: the CRD defaults, changed as a test needs. */
final class BuilderTestSupport {
  private BuilderTestSupport() {}

  static ClusterSpec spec(Consumer<ObjectNode> change) {
    SpecReader.Result result = SpecReader.read(SpecReaderTest.parent("pg", change));
    if (!result.valid()) {
      throw new AssertionError("test spec is invalid: " + result.problems());
    }
    return result.spec();
  }
}
