package dev.metahooks.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;

/**
 * The one Jackson configuration of the service, strict on input, compact and stable on output, and the server's
 * parse of a request. Internal: the mapper is mutable, so it is never handed out; {@code dev.metahooks.api.Json}
 * gives users its immutable reader and writer, or a copy.
 */
public final class JsonTrees {
  /**
   * Limits on what one request may contain. Kubernetes objects are shallow and their strings short except
   * annotations such as last-applied-configuration; these bounds are far above any real request and far
   * below what would exhaust the heap or the stack.
   */
  public static final StreamReadConstraints READ_CONSTRAINTS =
      StreamReadConstraints.builder()
          .maxNestingDepth(200)
          .maxNumberLength(100)
          .maxStringLength(16 * 1024 * 1024)
          .maxNameLength(64 * 1024)
          .build();

  /**
   * In a large request repeated short strings share one node, which makes its tree a third smaller for a tenth
   * more parsing time; below {@link #SHARED_TEXT_BODY} bytes the tree is small anyway and the time is worth more.
   */
  private static final int SHARED_TEXT_BODY = 16 * 1024 * 1024;

  public static final ObjectMapper MAPPER =
      JsonMapper.builder(JsonFactory.builder().streamReadConstraints(READ_CONSTRAINTS).build())
          .nodeFactory(CompactNodes.INSTANCE)
          // Two values for one key would make the request ambiguous: refuse instead of guessing.
          // A request's parse refuses them in RequestReader (which says where and why); any other
          // tree read with this mapper as it is built.
          .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final ObjectReader READER = MAPPER.reader();

  /**
   * The most tree a parse may build per byte of body, with {@link #TREE_ALLOWANCE} on top for small requests.
   * Real requests come to 2.2–2.7 by {@link RequestReader}'s estimate (a 39 MB CatSet of 10,000 Pods: 2.5); shapes
   * that are nothing but structure (millions of {@code []}, 160,000 nests of depth 190) come to 10–30 and are
   * refused after a few megabytes instead of filling the heap. So a tree is at most about 3.5 times its body,
   * which is what the server's body budget is sized with (docs/reliability.md).
   */
  public static final double TREE_BYTES_PER_BODY_BYTE = 3.5;

  private static final long TREE_ALLOWANCE = 1024 * 1024;

  private JsonTrees() {}

  /**
   * Parses a whole request the way the server does: a tree as {@code MAPPER.readTree} gives it, held to the tree
   * budget, names unique in every object; in a large request, repeated short strings share one node.
   *
   * @return the tree, or a missing node for an empty body
   */
  public static JsonNode parse(byte[] body) throws IOException {
    return parse(body, Projection.NONE);
  }

  /**
   * As {@link #parse(byte[])}, with the observed objects of the types that {@code projection} names holding only
   * the fields it keeps (the rest is skipped by the tokenizer, and takes no tree budget): {@link RequestReader}.
   */
  public static JsonNode parse(byte[] body, Projection projection) throws IOException {
    CompactNodes.Read<JsonNode> read =
        () -> {
          try (JsonParser parser = MAPPER.createParser(body)) {
            return new RequestReader(
                    body,
                    parser,
                    MAPPER.getNodeFactory(),
                    projection,
                    TREE_ALLOWANCE,
                    TREE_BYTES_PER_BODY_BYTE)
                .read();
          }
        };
    return body.length < SHARED_TEXT_BODY ? read.read() : CompactNodes.sharingText(read);
  }

  public static ObjectReader reader() {
    return READER;
  }
}
