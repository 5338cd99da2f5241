package dev.metahooks.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads what {@code metahooks diff} compares: recordings ({@code METAHOOKS_RECORD_DIR}'s files, or directories of
 * them), or a request built from live objects as Metacontroller would build it. Anything unreadable is a
 * {@link BadInput} naming the file and what is wrong.
 */
final class Cases {

  /** Input the command cannot use; exit code 2. */
  static final class BadInput extends RuntimeException {
    BadInput(String message) {
      super(message);
    }
  }

  private Cases() {}

  /** Every recording in the files and directories given, in name order (the recorder's names sort by time). */
  static List<DiffCase> recordings(List<Path> paths) {
    List<DiffCase> cases = new ArrayList<>();
    for (Path path : paths) {
      for (Path file : files(path)) {
        JsonNode recording = read(file);
        if (!recording.isObject() || !recording.path("controller").isTextual() || !recording.path("hook").isTextual()
            || !recording.path("request").isObject() || !recording.path("response").isObject()) {
          throw new BadInput(file + ": not a recording (an object with controller, hook, request and response)");
        }
        cases.add(new DiffCase(file.toString(), recording.get("controller").asText(), recording.get("hook").asText(),
            (ObjectNode) recording.get("request"), recording.get("response"), false, recordedAt(recording, file)));
      }
    }
    return cases;
  }

  /**
   * One sync request per parent, as Metacontroller builds it: the controller manifest, the parent, and as children
   * the observed objects whose controller owner reference is that parent, keyed {@code Kind.apiVersion} and by name
   * (namespace/name where hook version v2 asks for it). A parent being deleted gets {@code finalize} when the
   * controller has that hook.
   *
   * @param manifest a CompositeController as JSON ({@code kubectl create --dry-run=client -o json -f <yaml>})
   * @param parents a parent, or a List of them ({@code kubectl get <kind> -o json})
   * @param observed objects or Lists of them ({@code kubectl get <kinds> -l ... -o json})
   */
  static List<DiffCase> live(Path manifest, Path parents, List<Path> observed) {
    JsonNode controller = single(read(manifest), manifest);
    if (!"CompositeController".equals(controller.path("kind").asText())) {
      throw new BadInput(manifest + ": not a CompositeController (live requests are built for composite "
          + "controllers; for a DecoratorController, record its calls with METAHOOKS_RECORD_DIR)");
    }
    List<JsonNode> children = new ArrayList<>();
    for (Path file : observed) {
      children.addAll(items(read(file)));
    }
    List<DiffCase> cases = new ArrayList<>();
    for (JsonNode parent : items(read(parents))) {
      boolean finalizing = parent.path("metadata").has("deletionTimestamp");
      String hook = finalizing && controller.at("/spec/hooks/finalize").isObject() ? "finalize" : "sync";
      String url = controller.at("/spec/hooks/" + hook + "/webhook/url").asText("");
      String[] segments = url.replaceAll("/+$", "").split("/");
      if (segments.length < 2 || !segments[segments.length - 1].equals(hook)) {
        throw new BadInput(manifest + ": spec.hooks." + hook + ".webhook.url must end in /<controller>/" + hook
            + ", got '" + url + "'");
      }
      boolean v2 = "v2".equals(controller.at("/spec/hooks/" + hook + "/version").asText());
      ObjectNode request = Json.object();
      request.set("controller", controller);
      request.set("parent", parent);
      ObjectNode groups = request.putObject("children");
      ArrayNode owned = Json.MAPPER.createArrayNode();
      for (JsonNode child : children) {
        if (ownedBy(child, parent)) {
          String namespace = child.path("metadata").path("namespace").asText("");
          String name = child.path("metadata").path("name").asText();
          String key = v2 && !namespace.isEmpty() ? namespace + "/" + name : name;
          ObjectNode group = groups.has(groupKey(child)) ? (ObjectNode) groups.get(groupKey(child))
              : groups.putObject(groupKey(child));
          group.set(key, child);
          owned.add(child);
        }
      }
      request.putObject("related");
      request.put("finalizing", finalizing);
      ObjectNode before = Json.object();
      before.set("children", owned);
      before.set("status", parent.path("status").isObject() ? parent.get("status") : Json.object());
      String source = "live " + Objects.describe(parent, "");
      cases.add(new DiffCase(source, segments[segments.length - 2], hook, request, before, true, Instant.now()));
    }
    return cases;
  }

  private static Instant recordedAt(JsonNode recording, Path file) {
    try {
      return Instant.parse(recording.path("recordedAt").asText());
    } catch (java.time.format.DateTimeParseException e) {
      throw new BadInput(file + ": recordedAt must be an ISO-8601 instant, got '" + recording.path("recordedAt") + "'");
    }
  }

  private static String groupKey(JsonNode child) {
    return ObjectMap.groupKey(child.path("apiVersion").asText(), child.path("kind").asText());
  }

  /** Metacontroller's children of a parent: objects whose controller owner reference has the parent's uid. */
  private static boolean ownedBy(JsonNode child, JsonNode parent) {
    String uid = parent.path("metadata").path("uid").asText("");
    for (JsonNode owner : child.path("metadata").path("ownerReferences")) {
      if (owner.path("controller").asBoolean(false) && !uid.isEmpty() && uid.equals(owner.path("uid").asText())) {
        return true;
      }
    }
    return false;
  }

  /** The objects of a List ({@code kind: List} or any {@code ...List}), or the object itself. */
  private static List<JsonNode> items(JsonNode node) {
    List<JsonNode> items = new ArrayList<>();
    if (node.has("items") && node.path("kind").asText().endsWith("List")) {
      node.get("items").forEach(items::add);
    } else if (node.isObject()) {
      items.add(node);
    }
    return items;
  }

  private static JsonNode single(JsonNode node, Path file) {
    List<JsonNode> items = items(node);
    if (items.size() != 1) {
      throw new BadInput(file + ": expected one object, found " + items.size());
    }
    return items.get(0);
  }

  private static List<Path> files(Path path) {
    if (Files.isRegularFile(path)) {
      return List.of(path);
    }
    if (!Files.isDirectory(path)) {
      throw new BadInput(path + ": no such file or directory");
    }
    try (Stream<Path> listed = Files.list(path)) {
      List<Path> files = listed.filter(f -> f.getFileName().toString().endsWith(".json"))
          .filter(f -> !f.getFileName().toString().startsWith(".")).sorted().toList();
      if (files.isEmpty()) {
        throw new BadInput(path + ": no .json recordings in it");
      }
      return files;
    } catch (IOException e) {
      throw new BadInput(path + ": " + e.getMessage());
    }
  }

  private static JsonNode read(Path file) {
    try {
      JsonNode node = Json.MAPPER.readTree(Files.readAllBytes(file));
      if (node == null || !node.isObject()) {
        throw new BadInput(file + ": not a JSON object");
      }
      return node;
    } catch (IOException e) {
      throw new BadInput(file + ": " + (Files.exists(file) ? "not JSON: " + e.getMessage() : "no such file"));
    }
  }
}
