package dev.metahooks.server.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.metahooks.json.JsonTrees;
import java.io.IOException;
import java.util.Set;

/**
 * Copies a hook request or answer from a parser to a generator with every Secret redacted as
 * {@link Redaction#redact(JsonNode, Redaction.Replacement)} does, holding one Kubernetes object as a tree at a time
 * instead of the whole body: the object maps ({@code children}, {@code related}, {@code attachments}) and the answer's arrays are
 * streamed, each object in them is read, redacted and written on its own; every other top-level field (the parent,
 * the controller, a status) is one object too. So a 38 MB request is recorded with a few kB of trees.
 */
final class StreamingRedaction {
  /** Metacontroller's object maps: group ({@code Pod.v1}) → key → object. */
  private static final Set<String> OBJECT_MAPS = Set.of("children", "related", "attachments");

  /** Reads one value of the stream: what follows it is the rest of the stream, not trailing garbage. */
  private static final ObjectReader ONE_VALUE =
      JsonTrees.MAPPER.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private StreamingRedaction() {}

  /** Copies the one JSON object {@code in} holds. */
  static void copy(JsonParser in, JsonGenerator out, Redaction.Replacement replacement)
      throws IOException {
    if (in.nextToken() != JsonToken.START_OBJECT) {
      throw new IOException("not a JSON object");
    }
    out.writeStartObject();
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String field = in.currentName();
      out.writeFieldName(field);
      JsonToken value = in.nextToken();
      if (value == JsonToken.START_OBJECT && OBJECT_MAPS.contains(field)) {
        copyObjectMap(in, out, replacement);
      } else if (value == JsonToken.START_ARRAY) {
        out.writeStartArray();
        while (in.nextToken() != JsonToken.END_ARRAY) {
          writeRedacted(in, out, null, replacement);
        }
        out.writeEndArray();
      } else {
        writeRedacted(in, out, null, replacement);
      }
    }
    out.writeEndObject(); // else what follows (a recording's response) would be written inside
    // this object
  }

  private static void copyObjectMap(
      JsonParser in, JsonGenerator out, Redaction.Replacement replacement) throws IOException {
    out.writeStartObject();
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String group = in.currentName();
      out.writeFieldName(group);
      if (in.nextToken() != JsonToken.START_OBJECT) {
        writeRedacted(in, out, null, replacement);
        continue;
      }
      out.writeStartObject();
      while (in.nextToken() == JsonToken.FIELD_NAME) {
        out.writeFieldName(in.currentName());
        in.nextToken();
        writeRedacted(in, out, group, replacement);
      }
      out.writeEndObject();
    }
    out.writeEndObject();
  }

  /** The value at the parser, one object, redacted; {@code group} names the object map's group it is in. */
  private static void writeRedacted(
      JsonParser in, JsonGenerator out, String group, Redaction.Replacement replacement)
      throws IOException {
    JsonNode value = ONE_VALUE.readTree(in);
    JsonTrees.MAPPER.writeTree(
        out,
        group == null
            ? Redaction.redact(value, replacement)
            : Redaction.redact(value, group, replacement));
  }
}
