package dev.metahooks.testing.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Kubernetes objects from YAML (or JSON, which is YAML too) text and files. */
public final class Yaml {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();

  private Yaml() {}

  /** The one object in the text; fails if the text holds none or several. */
  public static ObjectNode object(String text) {
    List<ObjectNode> objects = objects(text);
    if (objects.size() != 1) {
      throw new IllegalArgumentException(
          "expected one object, found " + objects.size() + " in:\n" + text);
    }
    return objects.get(0);
  }

  /** Every object of a (multi-document) YAML text, empty documents skipped. */
  public static List<ObjectNode> objects(String text) {
    List<ObjectNode> objects = new ArrayList<>();
    try (MappingIterator<JsonNode> documents = YAML.readerFor(JsonNode.class).readValues(text)) {
      while (documents.hasNext()) {
        JsonNode document = documents.next();
        if (document == null || document.isNull() || document.isMissingNode()) {
          continue;
        }
        if (!document.isObject()) {
          throw new IllegalArgumentException("a YAML document is not an object: " + document);
        }
        // in the form the JSON parser gives (ints as ints), so that objects read from YAML compare
        // alike with the rest
        objects.add((ObjectNode) JSON.readTree(JSON.writeValueAsBytes(document)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("not YAML: " + e.getMessage(), e);
    }
    return objects;
  }

  /** Every object of a file; a relative path is taken from the working directory (Maven's: the project's). */
  public static List<ObjectNode> file(String path) {
    Path file = Path.of(path).toAbsolutePath();
    try {
      return objects(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
