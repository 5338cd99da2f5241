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
          // Two values for one key would make the request ambiguous: refuse instead of guessing. A
          // request's parse
          // refuses them with UniqueNames, in skipped parts too; any other tree read with this
          // mapper as it is built.
          // (The tokenizer's own check keeps a set of names per object: 1.7 bytes allocated per
          // byte of a request.)
          .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final ObjectReader READER = MAPPER.reader();

  /**
   * The most tree a parse may build per byte of body, with {@link #TREE_ALLOWANCE} on top for small requests.
   * Real requests come to 2.2–2.7 by {@link TreeBudget}'s estimate (a 39 MB CatSet of 10,000 Pods: 2.5); shapes
   * that are nothing but structure (millions of {@code []}, 160,000 nests of depth 190) come to 10–30 and are
   * refused after a few megabytes instead of filling the heap. So a tree is at most about 3.5 times its body,
   * which is what the server's body budget is sized with (docs/reliability.md).
   */
  public static final double TREE_BYTES_PER_BODY_BYTE = 3.5;

  private static final long TREE_ALLOWANCE = 1024 * 1024;

  private JsonTrees() {}

  /**
   * Parses a whole request the way the server does: a tree as {@code MAPPER.readTree} gives it; in a large
   * request, repeated short strings share one node.
   *
   * @return the tree, or a missing node for an empty body
   */
  public static JsonNode parse(byte[] body) throws IOException {
    return body.length < SHARED_TEXT_BODY
        ? readTree(body)
        : CompactNodes.sharingText(() -> readTree(body));
  }

  /**
   * As {@link #parse(byte[])}, with the observed objects of the types that
   * {@code projection} names holding only the fields it keeps (the rest is skipped by the tokenizer, and takes no
   * tree budget).
   */
  public static JsonNode parse(byte[] body, Projection projection) throws IOException {
    if (projection.isEmpty()) {
      return parse(body);
    }
    CompactNodes.Read<JsonNode> read =
        () -> {
          try (JsonParser parser = budgeted(body)) {
            return new ProjectingReader(MAPPER, projection).read(parser);
          }
        };
    return body.length < SHARED_TEXT_BODY ? read.read() : CompactNodes.sharingText(read);
  }

  private static JsonNode readTree(byte[] body) throws IOException {
    try (JsonParser parser = budgeted(body)) {
      JsonNode tree = READER.readTree(parser);
      return tree == null ? MAPPER.missingNode() : tree;
    }
  }

  private static JsonParser budgeted(byte[] body) throws IOException {
    return new TreeBudget(
        new UniqueNames(MAPPER.createParser(body)),
        TREE_ALLOWANCE,
        TREE_BYTES_PER_BODY_BYTE,
        body.length);
  }

  public static ObjectReader reader() {
    return READER;
  }
}
