package dev.metahooks.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one Jackson configuration of the service: strict on input, compact and stable on output. */
public final class Json {
  /**
   * Limits on what one request may contain. Kubernetes objects are shallow and their strings short except
   * annotations such as last-applied-configuration; these bounds are far above any real request and far
   * below what would exhaust the heap or the stack.
   */
  public static final StreamReadConstraints READ_CONSTRAINTS = StreamReadConstraints.builder()
      .maxNestingDepth(200)
      .maxNumberLength(100)
      .maxStringLength(16 * 1024 * 1024)
      .maxNameLength(64 * 1024)
      .build();

  public static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
          .streamReadConstraints(READ_CONSTRAINTS)
          .build())
      // Two values for one key would make the request ambiguous: refuse instead of guessing.
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private Json() {}

  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }
}
