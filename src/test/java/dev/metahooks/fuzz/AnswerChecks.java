package dev.metahooks.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.internal.Reply;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What every answer to any body must be: 200 or 4xx, never 5xx; JSON bytes; an error body
 * with {@code error} and {@code message}; and in a 200, {@code children} / {@code attachments} that are arrays
 * of objects with apiVersion, kind and metadata.name, which Metacontroller needs to apply them.
 */
final class AnswerChecks {
  private AnswerChecks() {}

  /** What is wrong with the answer; empty when nothing is. */
  static List<String> problems(Reply answer) {
    List<String> problems = new ArrayList<>();
    if (answer.status() != 200 && (answer.status() < 400 || answer.status() > 499)) {
      problems.add("status " + answer.status());
    }
    JsonNode body;
    try {
      body = JsonTrees.MAPPER.readTree(answer.body().toByteArray());
    } catch (IOException | RuntimeException e) {
      problems.add("the answer is not JSON: " + e);
      return problems;
    }
    if (!body.isObject()) {
      problems.add("the answer is not a JSON object: " + body.getNodeType());
      return problems;
    }
    if (answer.status() != 200) {
      for (String field : List.of("error", "message")) {
        if (!body.path(field).isTextual() || body.path(field).asText().isBlank()) {
          problems.add("error body without " + field + ": " + body);
        }
      }
      return problems;
    }
    for (String list : List.of("children", "attachments")) {
      JsonNode objects = body.get(list);
      if (objects == null) {
        continue;
      }
      if (!objects.isArray()) {
        problems.add(list + " is not an array");
        continue;
      }
      for (int i = 0; i < objects.size(); i++) {
        JsonNode object = objects.get(i);
        for (String pointer : List.of("/apiVersion", "/kind", "/metadata/name")) {
          JsonNode value = object.at(pointer);
          if (!object.isObject() || !value.isTextual() || value.asText().isEmpty()) {
            problems.add(list + "[" + i + "]" + pointer.replace('/', '.') + " is missing or empty");
          }
        }
      }
    }
    return problems;
  }
}
